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
    let front = serde_norway::from_str(yaml).map_err(|e| FrontmatterError::Yaml(e.to_string()))?;
    Ok((front, body))
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
