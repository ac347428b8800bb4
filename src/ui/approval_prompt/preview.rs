//! What a call would change, shown before the question: an edit as a diff against the file as it is now, a
//! write over an existing file as a diff (and that it overwrites), a new file by its first lines, a command line
//! with the commands it runs. Recognised by the shape of the arguments, so MCP tools of the same shape get the
//! same view; anything else is shown as its arguments.

use std::io::Read;

use serde_json::{Map, Value};

use crate::guard::command_guard::parse;
use crate::guard::path_guard::PathGuard;
use crate::tools::edit::matcher::apply_edit;
use crate::ui::render::unified_diff;

/// Largest file read for a diff; a bigger one is shown as its arguments.
const MAX_PREVIEW_BYTES: u64 = 2 * 1024 * 1024;

/// The view of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preview {
    /// `old_text` → `new_text` applied to the file as it is now.
    Edit { path: String, unified: String },
    /// `old_text` is not in the file (the tool will refuse): the snippets' own diff.
    EditUnmatched { path: String, unified: String },
    /// `content` over an existing file.
    Overwrite { path: String, unified: String },
    /// `content` as a new file.
    NewFile { path: String, content: String },
    /// A command line and, when it holds several, each command.
    Command { line: String, parts: Vec<String> },
}

impl Preview {
    /// The arguments the preview shows, which the plain argument list leaves out.
    pub fn covers(&self) -> &'static [&'static str] {
        match self {
            Preview::Edit { .. } | Preview::EditUnmatched { .. } => &["old_text", "new_text"],
            Preview::Overwrite { .. } | Preview::NewFile { .. } => &["content"],
            Preview::Command { .. } => &["command"],
        }
    }
}

fn text<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// The preview of a call with `args`; `None` when its shape is not one of the above or its file cannot be read.
pub fn preview(args: &Map<String, Value>, guard: Option<&PathGuard>) -> Option<Preview> {
    if let Some(line) = text(args, "command") {
        let script = parse::parse(line);
        let parts: Vec<String> = script
            .commands()
            .map(|c| c.texts().join(" "))
            .filter(|c| !c.is_empty())
            .collect();
        return Some(Preview::Command {
            line: line.to_string(),
            parts: if parts.len() > 1 { parts } else { Vec::new() },
        });
    }
    let path = text(args, "path")?.to_string();
    let current = read_current(guard?, &path)?;
    if let (Some(old), Some(new)) = (text(args, "old_text"), text(args, "new_text")) {
        let replace_all = args
            .get("replace_all")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let current = current?;
        return Some(match apply_edit(&current, old, new, replace_all) {
            Ok(edit) => Preview::Edit {
                path,
                unified: unified_diff(&current, &edit.content),
            },
            Err(_) => Preview::EditUnmatched {
                path,
                unified: unified_diff(old, new),
            },
        });
    }
    let content = text(args, "content")?.to_string();
    Some(match current {
        Some(old) => Preview::Overwrite {
            path,
            unified: unified_diff(&old, &content),
        },
        None => Preview::NewFile { path, content },
    })
}

/// `Some(Some(text))` for a readable file, `Some(None)` when there is none yet, `None` when it cannot be shown.
fn read_current(guard: &PathGuard, path: &str) -> Option<Option<String>> {
    let resolved = guard.resolve(path).ok()?;
    let meta = match std::fs::symlink_metadata(&resolved) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(None),
        Err(_) => return None,
    };
    if !meta.is_file() || meta.len() > MAX_PREVIEW_BYTES {
        return None;
    }
    let mut text = String::new();
    guard
        .open_read(&resolved)
        .ok()?
        .take(MAX_PREVIEW_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(Some(text))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn project() -> (tempfile::TempDir, PathGuard) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
        let guard = PathGuard::new(dir.path()).unwrap();
        (dir, guard)
    }

    #[test]
    fn an_edit_is_diffed_against_the_real_file() {
        let (_dir, guard) = project();
        let a = args(json!({"path": "a.txt", "old_text": "two", "new_text": "2"}));
        assert_eq!(
            preview(&a, Some(&guard)),
            Some(Preview::Edit {
                path: "a.txt".to_string(),
                unified: "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n".to_string(),
            })
        );
        let missing = args(json!({"path": "a.txt", "old_text": "four", "new_text": "4"}));
        assert!(matches!(
            preview(&missing, Some(&guard)),
            Some(Preview::EditUnmatched { .. })
        ));
    }

    #[test]
    fn a_write_says_whether_it_overwrites() {
        let (_dir, guard) = project();
        let over = args(json!({"path": "a.txt", "content": "one\n"}));
        assert_eq!(
            preview(&over, Some(&guard)),
            Some(Preview::Overwrite {
                path: "a.txt".to_string(),
                unified: "@@ -1,3 +1 @@\n one\n-two\n-three\n".to_string(),
            })
        );
        let new = args(json!({"path": "b.txt", "content": "hi\n"}));
        assert!(matches!(
            preview(&new, Some(&guard)),
            Some(Preview::NewFile { .. })
        ));
        let outside = args(json!({"path": "../x.txt", "content": "hi\n"}));
        assert_eq!(preview(&outside, Some(&guard)), None);
    }

    #[test]
    fn a_command_line_lists_its_commands() {
        let one = args(json!({"command": "cargo test --all"}));
        assert_eq!(
            preview(&one, None),
            Some(Preview::Command {
                line: "cargo test --all".to_string(),
                parts: Vec::new()
            })
        );
        let two = args(json!({"command": "cargo build && rm -f out.txt"}));
        let Some(Preview::Command { parts, .. }) = preview(&two, None) else {
            panic!("no command preview");
        };
        assert_eq!(parts, ["cargo build", "rm -f out.txt"]);
    }
}
