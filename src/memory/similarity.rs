//! Text comparison for facts: normalization, character bigrams (work for CJK and English alike), numbers.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;

/// Bigram Dice similarity at or above which two facts are said to conflict.
pub const CONFLICT_DICE: f64 = 0.8;

static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\d+(?:\.\d+)*").ok());

/// NFKC, lower case, single spaces, no trailing sentence punctuation: two facts that differ only in these are the
/// same fact.
pub fn normalize(text: &str) -> String {
    let folded: String = text.nfkc().collect::<String>().to_lowercase();
    let spaced = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    spaced
        .trim_end_matches(['.', '。', '!', '！', '?', '？', ';', '；'])
        .trim()
        .to_string()
}

/// Character bigrams of the normalized text, spaces left out.
pub fn bigrams(text: &str) -> HashSet<(char, char)> {
    let chars: Vec<char> = normalize(text)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    chars.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Dice coefficient of the bigram sets (1.0 = identical).
pub fn dice(a: &str, b: &str) -> f64 {
    let (x, y) = (bigrams(a), bigrams(b));
    if x.is_empty() && y.is_empty() {
        return if normalize(a) == normalize(b) {
            1.0
        } else {
            0.0
        };
    }
    let common = x.intersection(&y).count();
    (2 * common) as f64 / (x.len() + y.len()) as f64
}

/// The numbers and versions in `text`, in order.
fn numbers(text: &str) -> Vec<String> {
    NUMBER.as_ref().map_or_else(Vec::new, |re| {
        re.find_iter(text).map(|m| m.as_str().to_string()).collect()
    })
}

/// True when two different facts look like two versions of one: nearly the same words, or the same words with
/// different numbers ("uses Java 17" vs "uses Java 21").
pub fn conflicts(new: &str, old: &str) -> bool {
    if dice(new, old) >= CONFLICT_DICE {
        return true;
    }
    let (n_new, n_old) = (numbers(new), numbers(old));
    if n_new.is_empty() || n_old.is_empty() || n_new == n_old {
        return false;
    }
    let skeleton = |t: &str| {
        NUMBER
            .as_ref()
            .map_or_else(|| t.to_string(), |re| re.replace_all(t, "#").into_owned())
    };
    dice(&skeleton(new), &skeleton(old)) >= CONFLICT_DICE
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn normalization_ignores_case_space_width_and_final_punctuation() {
        assert_eq!(normalize("  Use   TABS.  "), "use tabs");
        assert_eq!(normalize("使用ＪＤＫ　17。"), "使用jdk 17");
    }

    #[test]
    fn number_and_version_changes_conflict() {
        assert!(conflicts(
            "The project uses Java 21",
            "The project uses Java 17"
        ));
        assert!(conflicts("项目使用 JDK 21", "项目使用 JDK 17"));
        assert!(conflicts(
            "deploy with node v20.1.0",
            "deploy with node v18.2.0"
        ));
        assert!(!conflicts(
            "Port 8080 serves the API",
            "Tests run with cargo test"
        ));
    }

    #[test]
    fn near_identical_text_conflicts() {
        assert!(conflicts(
            "Always run cargo fmt before committing changes",
            "Always run cargo fmt before committing any changes"
        ));
        assert!(!conflicts(
            "Prefer small functions",
            "The database is PostgreSQL"
        ));
    }
}
