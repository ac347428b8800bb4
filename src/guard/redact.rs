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

/// What an ASCII text must hold for the pattern of the same place in [`pattern_sources`] to match.
struct Needs {
    /// Words (lower case), one of which the text holds.
    words: &'static [&'static str],
    /// The pattern masks an assignment's value: after the word (and the rest of its name) come an optional `\`
    /// and `"`, white space, then `:` or `=`.
    assignment: bool,
}

const NEEDS: [Needs; 3] = [
    Needs {
        words: &["authorization"],
        assignment: true,
    },
    Needs {
        words: &["bearer"],
        assignment: false,
    },
    Needs {
        // passwd and password
        words: &["key", "token", "secret", "passw", "credential"],
        assignment: true,
    },
];

/// Compiles the patterns, so that the first text stored does not wait for it. Call from a background thread.
pub fn prewarm() {
    LazyLock::force(&PATTERNS);
}

/// Whether pattern `index` could match `text`. Non-ASCII text always could: the patterns ignore case the Unicode
/// way (a Kelvin sign is a `k`).
fn may_match(index: usize, text: &str) -> bool {
    let Some(needs) = NEEDS.get(index) else {
        return true;
    };
    if !text.is_ascii() {
        return true;
    }
    let lower = text.to_ascii_lowercase();
    needs.words.iter().any(|word| {
        lower
            .match_indices(word)
            .any(|(at, _)| !needs.assignment || assigned_after(&lower[at + word.len()..]))
    })
}

/// Whether `rest` (ASCII, after a secret word) continues as an assignment: name characters, an optional `\` and
/// `"`, white space, then `:` or `=` (what the patterns require there).
fn assigned_after(rest: &str) -> bool {
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let rest = rest.strip_prefix('\\').unwrap_or(rest);
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    // The patterns' `\s` also takes a vertical tab, which `is_ascii_whitespace` does not.
    rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '\u{b}')
        .starts_with([':', '='])
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
        // A pattern runs only on text holding what it needs: most stored text holds none of it, and then the
        // patterns need not even be compiled.
        for index in 0..NEEDS.len() {
            if !may_match(index, &out) {
                continue;
            }
            if let Some((re, replacement)) = PATTERNS.get(index) {
                out = re.replace_all(&out, *replacement).into_owned();
            }
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
    fn every_pattern_needs_what_its_needs_say() {
        assert_eq!(NEEDS.len(), pattern_sources().len());
        // Each text is masked by one pattern only; without that pattern's word, or its `=`, nothing is masked.
        for (index, text, word) in [
            (0, "Authorization: x1234567", "authorization"),
            (1, "bearer x1234567", "bearer"),
            (2, "api_key=x1234567", "key"),
            (2, "GITHUB_TOKEN=x1234567", "token"),
            (2, "client_secret=x1234567", "secret"),
            (2, "passwd=x1234567", "passw"),
            (2, "password=x1234567", "passw"),
            (2, "credential=x1234567", "credential"),
        ] {
            assert!(may_match(index, text), "{text}");
            assert_ne!(Redactor::default().redact(text), text, "{text}");
            assert!(NEEDS[index].words.contains(&word), "{text}");
            let (re, _) = &PATTERNS[index];
            let without_word = text.to_ascii_lowercase().replace(word, "w");
            assert!(!re.is_match(&without_word), "{without_word}");
            if NEEDS[index].assignment {
                let without_sign = text.replace([':', '='], " ");
                assert!(!re.is_match(&without_sign), "{without_sign}");
                assert!(!may_match(index, &without_sign));
            }
        }
        assert!(!(0..NEEDS.len()).any(|i| may_match(i, "cargo test --release")));
        // A secret word that is not assigned needs no pattern; one assigned, however spelled, does.
        assert!(!may_match(2, "the key is: pick a token; then x = 1"));
        for assigned in [
            "api_keys_path = x1234567",
            "{\\\"token\\\": \\\"abc1234\\\"}",
            "\"secret\" : \"abc1234\"",
            "PASSWORD\t=x1234567",
            "token\u{b}=x1234567",
        ] {
            assert!(may_match(2, assigned), "{assigned}");
            assert!(PATTERNS[2].0.is_match(assigned), "{assigned}");
        }
        assert!(!may_match(0, "Authorization header, then: x"));
        assert!(PATTERNS[0].0.is_match("authorization\\\": \\\"Basic abc"));
        assert!(may_match(0, "authorization\\\": \\\"Basic abc"));
        assert!(may_match(2, "to\u{212A}en=x1234567"));
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
