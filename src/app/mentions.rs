//! `@path` in user input: the file's content (or a directory listing) is attached, inside the project root only.
//! MCP-style `@server:scheme://…` and `@image:` mentions are left for their own handlers. The REPL and `-p` both
//! expand them before MCP mentions, so text a resource brings in is never read as a mention.

use std::collections::BTreeSet;
use std::path::Path;

use crate::guard::path_guard::{PathGuard, PathGuardError};

/// Most characters of one attached file.
const MAX_FILE_CHARS: usize = 200_000;
/// Most entries of one attached directory listing.
const MAX_DIR_ENTRIES: usize = 500;

/// The input with its attachments, and why some mentions were not attached.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    /// What the model receives: the input, then one `<file>` / `<directory>` block per mention.
    pub text: String,
    /// Paths (relative to the root) that were attached.
    pub attached: Vec<String>,
    /// `(mention, reason)` for mentions that were not attached.
    pub skipped: Vec<(String, SkipReason)>,
}

/// Why a mention was not attached; the front-end words it for the user.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// The path resolves outside the project root (the guard's sentence).
    #[error("{0}")]
    OutsideRoot(String),
    /// The path could not be resolved (the guard's sentence).
    #[error("{0}")]
    Unresolvable(String),
    #[error("cannot read it: {0}")]
    Unreadable(String),
    #[error("it is a binary file")]
    Binary,
    #[error("cannot list it: {0}")]
    Unlistable(String),
}

impl From<PathGuardError> for SkipReason {
    fn from(e: PathGuardError) -> Self {
        match e {
            PathGuardError::OutOfBounds { .. } => SkipReason::OutsideRoot(e.to_string()),
            PathGuardError::Blank | PathGuardError::Unresolvable { .. } => {
                SkipReason::Unresolvable(e.to_string())
            }
        }
    }
}

/// Expands every `@path` token of `input` that names a file or directory inside the guard's root.
pub fn expand_mentions(input: &str, guard: &PathGuard) -> Expanded {
    let mut out = Expanded {
        text: input.to_string(),
        ..Expanded::default()
    };
    let mut seen = BTreeSet::new();
    let mut blocks = Vec::new();
    for token in input.split_whitespace() {
        let Some(raw) = token.strip_prefix('@') else {
            continue;
        };
        if raw.is_empty() || raw.starts_with("image:") || is_resource_mention(raw) {
            continue;
        }
        let path = existing_form(raw, guard);
        if !seen.insert(path.clone()) {
            continue;
        }
        match attach(&path, guard) {
            Ok((rel, block)) => {
                out.attached.push(rel);
                blocks.push(block);
            }
            Err(reason) => out.skipped.push((format!("@{path}"), reason)),
        }
    }
    if !blocks.is_empty() {
        out.text = format!("{input}\n\n{}", blocks.join("\n\n"));
    }
    out
}

/// `server:scheme://…` belongs to MCP resources.
fn is_resource_mention(raw: &str) -> bool {
    raw.split_once(':')
        .is_some_and(|(server, rest)| !server.contains('/') && rest.contains("://"))
}

/// Drops trailing punctuation (`@a.txt,`) unless the path exists with it.
fn existing_form(raw: &str, guard: &PathGuard) -> String {
    let mut candidate = raw;
    loop {
        if guard.resolve(candidate).is_ok_and(|p| p.exists()) {
            return candidate.to_string();
        }
        match candidate.strip_suffix(|c: char| ",.;:!?)]}'\"，。；：！？）".contains(c)) {
            Some(shorter) if !shorter.is_empty() => candidate = shorter,
            _ => return raw.to_string(),
        }
    }
}

fn attach(path: &str, guard: &PathGuard) -> Result<(String, String), SkipReason> {
    let real = guard.resolve(path)?;
    let rel = guard.display(&real);
    if real.is_dir() {
        return Ok((rel.clone(), directory_block(&rel, &real)?));
    }
    let bytes = std::fs::read(&real).map_err(|e| SkipReason::Unreadable(e.to_string()))?;
    if bytes.contains(&0) {
        return Err(SkipReason::Binary);
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut content: String = text.chars().take(MAX_FILE_CHARS).collect();
    if content.len() < text.len() {
        content.push_str(&format!("\n[truncated at {MAX_FILE_CHARS} characters]"));
    }
    let block = format!(
        "<file path=\"{rel}\">\n{}\n</file>",
        content.trim_end_matches('\n')
    );
    Ok((rel, block))
}

fn directory_block(rel: &str, dir: &Path) -> Result<String, SkipReason> {
    let entries = std::fs::read_dir(dir).map_err(|e| SkipReason::Unlistable(e.to_string()))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .filter(|n| n != ".git/")
        .collect();
    names.sort();
    let total = names.len();
    names.truncate(MAX_DIR_ENTRIES);
    if total > MAX_DIR_ENTRIES {
        names.push(format!("[{} more entries]", total - MAX_DIR_ENTRIES));
    }
    Ok(format!(
        "<directory path=\"{rel}\">\n{}\n</directory>",
        names.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn project() -> (tempfile::TempDir, PathGuard) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.txt"), "alpha\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "beta").unwrap();
        let guard = PathGuard::new(dir.path()).unwrap();
        (dir, guard)
    }

    #[test]
    fn files_and_directories_are_attached_after_the_input() {
        let (_dir, guard) = project();
        let e = expand_mentions("look at @src/a.txt, and @src", &guard);
        assert_eq!(e.attached, vec!["src/a.txt", "src"]);
        assert_eq!(
            e.text,
            "look at @src/a.txt, and @src\n\n<file path=\"src/a.txt\">\nalpha\n</file>\n\n\
             <directory path=\"src\">\na.txt\n</directory>"
        );
    }

    #[test]
    fn paths_outside_the_root_and_missing_files_are_skipped() {
        let (_dir, guard) = project();
        let e = expand_mentions("@../../etc/passwd @nope.txt mail me@x.org", &guard);
        assert_eq!(e.text, "@../../etc/passwd @nope.txt mail me@x.org");
        assert_eq!(e.skipped.len(), 2);
        assert!(
            matches!(&e.skipped[0].1, SkipReason::OutsideRoot(m) if m.contains("outside the project root")),
            "{:?}",
            e.skipped
        );
        assert!(
            matches!(&e.skipped[1].1, SkipReason::Unreadable(_)),
            "{:?}",
            e.skipped
        );
    }

    #[test]
    fn resource_and_image_mentions_are_left_alone() {
        let (_dir, guard) = project();
        let e = expand_mentions("@docs:file:///x @image:shot.png", &guard);
        assert!(e.skipped.is_empty() && e.attached.is_empty());
    }
}
