//! Which calls (or sources, triggers, notification types) a hook group is for: Claude Code's matcher. Empty or
//! `*` matches everything; a plain name or `A|B` list matches exactly; anything else is a regex over the name.

use regex::Regex;

/// A compiled matcher.
#[derive(Clone, Debug)]
pub enum Matcher {
    All,
    Exact(Vec<String>),
    Pattern(Regex),
}

impl Matcher {
    /// Compiles `text`; an invalid regex is an error the loader reports.
    pub fn parse(text: Option<&str>) -> Result<Matcher, regex::Error> {
        let text = text.map(str::trim).unwrap_or("");
        if text.is_empty() || text == "*" {
            return Ok(Matcher::All);
        }
        let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '|' || c == '-';
        if text.chars().all(plain) {
            return Ok(Matcher::Exact(
                text.split('|').map(str::to_string).collect(),
            ));
        }
        Regex::new(text).map(Matcher::Pattern)
    }

    /// True when `name` is matched.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Exact(names) => names.iter().any(|n| n == name),
            Matcher::Pattern(re) => re.is_match(name),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn empty_and_star_match_all_names_are_exact_others_are_regexes() {
        for all in [None, Some(""), Some("*")] {
            assert!(Matcher::parse(all).unwrap().matches("anything"));
        }
        let exact = Matcher::parse(Some("Bash|Edit")).unwrap();
        assert!(exact.matches("Edit") && exact.matches("Bash"));
        assert!(!exact.matches("NotebookEdit"));
        let re = Matcher::parse(Some("mcp__memory__.*")).unwrap();
        assert!(re.matches("mcp__memory__create"));
        assert!(!re.matches("mcp__fs__read"));
        assert!(Matcher::parse(Some("(")).is_err());
    }
}
