//! Which submitted lines may be written to `$PAICLI_HOME/history`: no secrets, no very long pastes.

use std::sync::LazyLock;

use regex::Regex;

use crate::guard::constant_regex::constant_regex;

/// Longest entry kept in the history file, in characters.
pub const MAX_HISTORY_CHARS: usize = 2000;

/// Shapes of API keys, tokens and private keys never written to the history file.
const SECRET_PATTERN_SOURCES: [&str; 9] = [
    r"\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}",
    r"\bgh[pousr]_[A-Za-z0-9]{20,}",
    r"\bgithub_pat_[A-Za-z0-9_]{20,}",
    r"\bAKIA[0-9A-Z]{16}\b",
    r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
    r"\bAIza[0-9A-Za-z_-]{30,}",
    r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{16,}",
    r"(?i)(api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd)\s*[:=]\s*\S{6,}",
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
];

static SECRET_PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    SECRET_PATTERN_SOURCES
        .into_iter()
        .map(constant_regex)
        .collect()
});

/// Whether `line` may be saved to the history file.
pub fn should_save(line: &str) -> bool {
    !line.trim().is_empty() && line.chars().count() <= MAX_HISTORY_CHARS && !looks_secret(line)
}

/// Whether `text` appears to contain an API key, token, password or other credential.
pub fn looks_secret(text: &str) -> bool {
    SECRET_PATTERNS.iter().any(|re| re.is_match(text))
        || text.split_whitespace().any(is_opaque_token)
}

/// A long run of base64/hex-like characters mixing cases and digits (keys, encoded blobs), not a path or word.
fn is_opaque_token(word: &str) -> bool {
    word.len() >= 32
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-'))
        && word.chars().any(|c| c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && word.matches('/').count() < 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::constant_regex::broken_patterns;

    #[test]
    fn every_secret_pattern_compiles() {
        let broken = broken_patterns(SECRET_PATTERN_SOURCES);
        assert!(broken.is_empty(), "{broken:#?}");
        assert_eq!(SECRET_PATTERNS.len(), SECRET_PATTERN_SOURCES.len());
    }

    #[test]
    fn secrets_are_not_saved() {
        for line in [
            "use key sk-abcdefghijklmnop1234",
            "export DEEPSEEK_API_KEY=abcdef123456",
            "token: 0123456789abcdef",
            "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6'",
            "ghp_abcdefghijklmnopqrstuvwxyz012345",
            "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3QgQmFzZTY0IDEyMw==",
        ] {
            assert!(!should_save(line), "{line}");
        }
    }

    #[test]
    fn ordinary_tasks_are_saved() {
        for line in [
            "fix the token counting in src/agent/budget.rs",
            "read @src/tools/executor/call.rs and explain it",
            "把 Hello World 改成 Hello PaiCLI",
        ] {
            assert!(should_save(line), "{line}");
        }
    }

    #[test]
    fn very_long_lines_are_not_saved() {
        assert!(!should_save(&"a ".repeat(MAX_HISTORY_CHARS)));
    }
}
