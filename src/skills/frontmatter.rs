//! The YAML frontmatter of a Markdown file (`---` lines around it), as SKILL.md files and command files use.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The fields paicli reads; the format allows more (`license`, `metadata`, `allowed-tools`, ...), which are kept
/// in `other` and otherwise ignored.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Frontmatter {
    pub name: Option<String>,
    pub description: Option<String>,
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_norway::Value>,
}

/// Why a frontmatter block could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FrontmatterError {
    /// The file does not start with a `---` line.
    #[error("the file does not start with a `---` frontmatter line")]
    Missing,
    /// The opening `---` has no closing `---` line.
    #[error("the frontmatter has no closing `---` line")]
    Unclosed,
    /// The block is not a YAML mapping of the expected shape.
    #[error("the frontmatter is not valid YAML: {0}")]
    Yaml(String),
}

/// Splits `text` into its frontmatter and the body after it.
pub fn parse(text: &str) -> Result<(Frontmatter, &str), FrontmatterError> {
    let (yaml, body) = split(text)?.ok_or(FrontmatterError::Missing)?;
    if yaml.trim().is_empty() {
        return Ok((Frontmatter::default(), body));
    }
    if let Some(front) = plain_mapping(yaml) {
        return Ok((front, body));
    }
    let front = serde_norway::from_str(yaml).map_err(|e| FrontmatterError::Yaml(e.to_string()))?;
    Ok((front, body))
}

/// The frontmatter without the YAML parser when every line is `key: plain text` — the usual shape, read at
/// every start for each skill and agent definition. `None` (the YAML parser decides) for anything else: lists,
/// quotes, comments, block scalars, empty values, values YAML reads as other than a string, repeated keys.
fn plain_mapping(yaml: &str) -> Option<Frontmatter> {
    let mut front = Frontmatter::default();
    let mut seen = std::collections::BTreeSet::new();
    for line in yaml.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(": ")?;
        let value = value.trim();
        let key_ok = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !key_ok || !plain_string(value) || !seen.insert(key) {
            return None;
        }
        match key {
            "name" => front.name = Some(value.to_string()),
            "description" => front.description = Some(value.to_string()),
            _ => {
                front.other.insert(
                    key.to_string(),
                    serde_norway::Value::String(value.to_string()),
                );
            }
        }
    }
    Some(front)
}

/// Whether YAML reads `value` (one line, trimmed) as exactly this string.
fn plain_string(value: &str) -> bool {
    const INDICATORS: &str = "-?:,[]{}#&*!|>'\"%@`~.+";
    const NOT_STRINGS: [&str; 5] = ["null", "true", "false", ".inf", ".nan"];
    let Some(first) = value.chars().next() else {
        return false;
    };
    !INDICATORS.contains(first)
        && !first.is_ascii_digit()
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !value.contains('\t')
        && !NOT_STRINGS.iter().any(|s| value.eq_ignore_ascii_case(s))
        && !["inf", "nan", "yes", "no", "on", "off", "y", "n"]
            .iter()
            .any(|s| value.eq_ignore_ascii_case(s))
}

/// Like [`parse`], but a file without frontmatter is all body (command files need none).
pub fn parse_optional(text: &str) -> Result<(Frontmatter, &str), FrontmatterError> {
    match parse(text) {
        Err(FrontmatterError::Missing) => Ok((Frontmatter::default(), text)),
        other => other,
    }
}

/// The YAML between the opening and closing `---` lines and the rest; `None` when there is no opening line.
fn split(text: &str) -> Result<Option<(&str, &str)>, FrontmatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok(None);
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let body = &rest[offset + line.len()..];
            return Ok(Some((&rest[..offset], body)));
        }
        offset += line.len();
    }
    Err(FrontmatterError::Unclosed)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn plain_lines_read_as_the_yaml_parser_reads_them_and_anything_else_goes_to_it() {
        let plain = [
            "name: reviewer\ndescription: Reviews diffs, strictly (no mercy)\ntools: Read, Grep, Glob\nmodel: kimi/kimi-k2.6\n",
            "name: 审查\ndescription: 审查代码的智能体\n\nprovider: deepseek\n",
            "description: Looks at http://example.com/x?y=1 and reports\nmodel: inherit\n",
        ];
        for yaml in plain {
            let by_yaml: Frontmatter = serde_norway::from_str(yaml).unwrap();
            assert_eq!(plain_mapping(yaml), Some(by_yaml), "{yaml}");
        }
        let not_plain = [
            "name: a\ntools:\n  - Read\n",
            "name: 'quoted'\n",
            "name: a # comment\n",
            "name: 42\n",
            "name: true\n",
            "name: null\n",
            "name: ~\n",
            "description: >\n  folded\n",
            "name: a\nname: b\n",
            "# a comment\nname: a\n",
            "name: a: b\n",
            "name: yes\n",
            "name: .inf\n",
            "name: [a, b]\n",
        ];
        for yaml in not_plain {
            assert_eq!(plain_mapping(yaml), None, "{yaml}");
        }
    }

    use super::*;

    #[test]
    fn reads_name_description_and_keeps_other_fields() {
        let text = "---\nname: pdf\ndescription: >-\n  Reads PDFs\n  and forms.\nlicense: MIT\nmetadata:\n  \
                    version: 2\n---\n# Body\n";
        let (front, body) = parse(text).unwrap();
        assert_eq!(front.name.as_deref(), Some("pdf"));
        assert_eq!(front.description.as_deref(), Some("Reads PDFs and forms."));
        assert!(front.other.contains_key("license") && front.other.contains_key("metadata"));
        assert_eq!(body, "# Body\n");
    }

    #[test]
    fn missing_unclosed_and_broken_blocks_are_errors() {
        assert_eq!(parse("# no frontmatter\n"), Err(FrontmatterError::Missing));
        assert_eq!(parse("---\nname: x\n"), Err(FrontmatterError::Unclosed));
        assert!(matches!(
            parse("---\nname: [x\n---\n"),
            Err(FrontmatterError::Yaml(_))
        ));
        assert!(matches!(
            parse("---\nname: [1, 2]\n---\n"),
            Err(FrontmatterError::Yaml(_))
        ));
    }

    #[test]
    fn commands_may_have_no_frontmatter() {
        let (front, body) = parse_optional("Review $ARGUMENTS\n").unwrap();
        assert_eq!(front, Frontmatter::default());
        assert_eq!(body, "Review $ARGUMENTS\n");
    }
}
