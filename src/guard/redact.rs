//! Masks secrets in text before it is stored: Bearer tokens, `Authorization:` values, `*_KEY=`/`password=`-style
//! assignments (names containing key, token, secret, password, credential), and known secret values verbatim.

use std::sync::LazyLock;

use regex::Regex;

use super::constant_regex::constant_regex;

/// What a secret is replaced with.
pub const MASK: &str = "***";

/// Known secrets shorter than this are not masked by value: they would hit ordinary words.
const MIN_SECRET_LEN: usize = 6;

/// Stops a secret value at whitespace, quotes, a JSON escape or a shell separator.
const VALUE: &str = r#"[^\s"'\\&;,|<>]+"#;

/// The secret patterns and their replacements (built around [`VALUE`]).
fn pattern_sources() -> [(String, &'static str); 3] {
    [
        (
            format!(
                r"(?i)(\bauthorization\\?\x22?\s*[:=]\s*\\?\x22?)(?:(?:bearer|basic|token)\s+)?{VALUE}"
            ),
            "${1}***",
        ),
        (format!(r"(?i)(\bbearer\s+){VALUE}"), "${1}***"),
        (
            format!(
                r"(?i)(\b[A-Za-z0-9_.-]*(?:key|token|secret|passwd|password|credential)[A-Za-z0-9_]*\\?\x22?\s*[:=]\s*\\?\x22?){VALUE}"
            ),
            "${1}***",
        ),
    ]
}

static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    pattern_sources()
        .into_iter()
        .map(|(pattern, replacement)| (constant_regex(&pattern), replacement))
        .collect()
});

/// The words one of [`PATTERNS`] needs (ASCII, lower case): text with none of them is left to the known values.
const PATTERN_WORDS: [&str; 7] = [
    "authorization",
    "bearer",
    "key",
    "token",
    "secret",
    // passwd and password
    "passw",
    "credential",
];

/// Compiles the patterns, so that the first text stored does not wait for it. Call from a background thread.
pub fn prewarm() {
    LazyLock::force(&PATTERNS);
}

/// Whether a pattern could match `text`. Non-ASCII text always could: the patterns ignore case the Unicode way
/// (a Kelvin sign is a `k`).
fn may_hold_pattern(text: &str) -> bool {
    if !text.is_ascii() {
        return true;
    }
    let lower = text.to_ascii_lowercase();
    PATTERN_WORDS.iter().any(|word| lower.contains(word))
}

/// Redacts secrets in text.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    /// A redactor that also masks each of `secrets` (e.g. the configured API keys) wherever it appears.
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        let mut secrets: Vec<String> = secrets
            .into_iter()
            .filter(|s| s.chars().count() >= MIN_SECRET_LEN)
            .collect();
        // Longest first, so a key that contains another is masked whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { secrets }
    }

    /// `text` with every secret replaced by `***`.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), MASK);
            }
        }
        if !may_hold_pattern(&out) {
            return out;
        }
        for (re, replacement) in PATTERNS.iter() {
            out = re.replace_all(&out, *replacement).into_owned();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::constant_regex::broken_patterns;

    #[test]
    fn every_secret_pattern_compiles() {
        let sources = pattern_sources();
        let broken = broken_patterns(sources.iter().map(|(pattern, _)| pattern.as_str()));
        assert!(broken.is_empty(), "{broken:#?}");
        assert_eq!(PATTERNS.len(), sources.len());
    }

    #[test]
    fn every_pattern_needs_one_of_the_pattern_words() {
        // A text with a word removed from the list must not be redacted by a pattern any more.
        for (text, word) in [
            ("Authorization: x1234567", "authorization"),
            ("bearer x1234567", "bearer"),
            ("api_key=x1234567", "key"),
            ("GITHUB_TOKEN=x1234567", "token"),
            ("client_secret=x1234567", "secret"),
            ("passwd=x1234567", "passw"),
            ("password=x1234567", "passw"),
            ("credential=x1234567", "credential"),
        ] {
            assert!(may_hold_pattern(text), "{text}");
            assert_ne!(Redactor::default().redact(text), text, "{text}");
            assert!(PATTERN_WORDS.contains(&word));
        }
        assert!(!may_hold_pattern("cargo test --release"));
        assert!(may_hold_pattern("to\u{212A}en=x1234567"));
    }

    fn redact(text: &str) -> String {
        Redactor::new(["sk-live-1234567890".to_string(), "abc".to_string()]).redact(text)
    }

    #[test]
    fn masks_each_kind_of_secret() {
        let cases = [
            (
                "curl -H 'Authorization: Bearer eyJhbGci.x.y' u",
                "curl -H 'Authorization: ***' u",
            ),
            ("token: Bearer abc.def", "token: *** ***"),
            ("Bearer abc.def", "Bearer ***"),
            (
                "OPENAI_API_KEY=sk-123 cargo run",
                "OPENAI_API_KEY=*** cargo run",
            ),
            ("mysql --password=hunter2 db", "mysql --password=*** db"),
            (
                "export GITHUB_TOKEN=ghp_x && ls",
                "export GITHUB_TOKEN=*** && ls",
            ),
            ("echo sk-live-1234567890", "echo ***"),
            ("{\"api_key\":\"v4lue\"}", "{\"api_key\":\"***\"}"),
            ("echo $OPENAI_API_KEY", "echo $OPENAI_API_KEY"),
            ("cargo test abc", "cargo test abc"),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), want, "input {input:?}");
        }
    }

    #[test]
    fn masks_inside_json_encoded_strings() {
        let args = serde_json::json!({"command": "curl -H \"Authorization: token ghp_secret\" x"})
            .to_string();
        let out = redact(&args);
        assert!(!out.contains("ghp_secret"), "{out}");
        assert!(
            serde_json::from_str::<serde_json::Value>(&out).is_ok(),
            "{out}"
        );
    }
}
