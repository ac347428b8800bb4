//! Regexes written into the source. Each one is compiled by [`constant_regex`] (usually inside a `LazyLock`),
//! and the module that owns it has a test that compiles every pattern, so a typo fails a test instead of
//! silently switching a check off at run time.

use regex::Regex;

/// Compiles a pattern written in the source (never one that input can reach).
///
/// The owning module's tests compile the same pattern, so a build whose tests pass cannot fail here; should one
/// still, it panics rather than drop a security check.
pub fn constant_regex(pattern: &str) -> Regex {
    match Regex::new(pattern) {
        Ok(regex) => regex,
        Err(err) => panic!("a regex constant in the source does not compile: `{pattern}`: {err}"),
    }
}

/// The patterns that fail to compile, with the error, for the owning module's test to report.
pub fn broken_patterns<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    patterns
        .into_iter()
        .filter_map(|pattern| {
            Regex::new(pattern)
                .err()
                .map(|err| format!("`{pattern}`: {err}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_a_good_pattern() {
        assert!(constant_regex(r"\bkey\b").is_match("a key here"));
        assert!(broken_patterns([r"\bkey\b", "a+"]).is_empty());
    }

    #[test]
    fn reports_a_broken_pattern() {
        let broken = broken_patterns(["ok", "(unclosed"]);
        assert_eq!(broken.len(), 1);
        assert!(broken[0].starts_with("`(unclosed`"), "{broken:?}");
    }

    #[test]
    #[should_panic(expected = "does not compile: `(unclosed`")]
    fn a_broken_constant_fails_loudly() {
        constant_regex("(unclosed");
    }
}
