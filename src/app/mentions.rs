//! `@path` in user input: the file's content (or a directory listing) is attached, inside the project root only;
//! a PNG, JPEG, GIF or WebP file (`@shot.png`, or explicitly `@image:shot.png`) becomes an image for the turn.
//! MCP-style `@server:scheme://…` mentions are left for their own handler. The session expands them before MCP
//! mentions, so text a resource brings in is never read as a mention.

use std::collections::BTreeSet;
use std::path::Path;

use crate::guard::path_guard::{PathGuard, PathGuardError};
use crate::llm::ContentPart;
use crate::llm::image_part::{ImageError, image_attachment, image_format};
pub use crate::protocol::SkipReason;

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
    /// `(path, image)` for image files: sent after the text when the model takes images.
    pub images: Vec<(String, ContentPart)>,
    /// `(mention, reason)` for mentions that were not attached.
    pub skipped: Vec<(String, SkipReason)>,
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
        let (raw, image_only) = match raw.strip_prefix("image:") {
            Some(rest) => (rest, true),
            None => (raw, false),
        };
        if raw.is_empty() || is_resource_mention(raw) {
            continue;
        }
        let path = existing_form(raw, guard);
        if !seen.insert(path.clone()) {
            continue;
        }
        let shown = if image_only {
            format!("@image:{path}")
        } else {
            format!("@{path}")
        };
        match attach(&path, guard, image_only) {
            Ok((rel, Attachment::Text(block))) => {
                out.attached.push(rel);
                blocks.push(block);
            }
            Ok((rel, Attachment::Image(part))) => {
                out.attached.push(rel.clone());
                out.images.push((rel, part));
            }
            Err(reason) => out.skipped.push((shown, reason)),
        }
    }
    if !blocks.is_empty() {
        out.text = format!("{input}\n\n{}", blocks.join("\n\n"));
    }
    out
}

/// Queues the mentioned images for the next turn when the model takes images; otherwise returns their paths,
/// for the front-end to say why they were not sent.
pub fn queue_images(
    agent: &mut crate::agent::Agent,
    images: Vec<(String, ContentPart)>,
) -> Vec<String> {
    if images.is_empty() {
        return Vec::new();
    }
    if !agent.takes_images() {
        return images.into_iter().map(|(path, _)| path).collect();
    }
    agent.queue_images(images.into_iter().map(|(_, part)| part).collect());
    Vec::new()
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

/// What one mention attaches.
enum Attachment {
    /// A `<file>` or `<directory>` block for the text.
    Text(String),
    Image(ContentPart),
}

fn attach(
    path: &str,
    guard: &PathGuard,
    image_only: bool,
) -> Result<(String, Attachment), SkipReason> {
    let real = guard.resolve(path)?;
    let rel = guard.display(&real);
    if real.is_dir() && !image_only {
        return Ok((rel.clone(), Attachment::Text(directory_block(&rel, &real)?)));
    }
    let bytes = std::fs::read(&real).map_err(|e| SkipReason::Unreadable(e.to_string()))?;
    if image_only || image_format(&bytes).is_some() {
        return match image_attachment(&bytes) {
            Ok(image) => Ok((rel, Attachment::Image(image.part))),
            Err(
                e @ (ImageError::NotAnImage
                | ImageError::Undecodable(_)
                | ImageError::TooLarge { .. }),
            ) => Err(SkipReason::NotAnImage(e.to_string())),
        };
    }
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
    Ok((rel, Attachment::Text(block)))
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
    fn resource_mentions_are_left_alone() {
        let (_dir, guard) = project();
        let e = expand_mentions("@docs:file:///x", &guard);
        assert!(e.skipped.is_empty() && e.attached.is_empty());
    }

    #[test]
    fn image_files_become_images_by_path_or_image_prefix() {
        let (dir, guard) = project();
        let png = crate::llm::image_part::tests::png(3, 2);
        std::fs::write(dir.path().join("shot.png"), &png).unwrap();
        std::fs::write(dir.path().join("b.bin"), b"\0\x01").unwrap();
        let e = expand_mentions("see @shot.png", &guard);
        assert_eq!(e.text, "see @shot.png", "no text block for an image");
        assert_eq!(e.images.len(), 1);
        assert_eq!(e.images[0].0, "shot.png");
        assert!(
            matches!(&e.images[0].1, ContentPart::ImageUrl { url } if url.starts_with("data:image/png;base64,"))
        );
        let e = expand_mentions("@image:shot.png @image:b.md @b.bin", &guard);
        assert_eq!(e.images.len(), 1);
        assert_eq!(
            e.skipped,
            vec![
                (
                    "@image:b.md".to_string(),
                    SkipReason::NotAnImage("not a PNG, JPEG, GIF or WebP image".into())
                ),
                ("@b.bin".to_string(), SkipReason::Binary),
            ]
        );
    }
}
