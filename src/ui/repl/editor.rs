//! The line editor: rustyline with completion for `/commands` and `@paths`, multiline input (trailing `\` or
//! Alt-Enter), bracketed paste, and a history file that never stores secrets.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Cmd, Config, Context, EditMode, Editor, EventHandler, Helper, KeyCode, KeyEvent, Modifiers,
};

use super::mode_key::{ModeKey, ModeKeyHandler};

use crate::ui::commands::COMMANDS;

/// Most completion candidates offered at once.
const MAX_CANDIDATES: usize = 200;

/// The editor type the REPL uses.
pub type LineEditor = Editor<ReplHelper, DefaultHistory>;

/// Completion and multiline validation for the prompt.
pub struct ReplHelper {
    root: PathBuf,
    /// Shift+Tab presses for the REPL to act on.
    pub mode_key: Arc<ModeKey>,
    /// Esc Esc presses at an empty prompt (`/rewind`).
    pub rewind_key: Arc<super::rewind_key::RewindKey>,
}

impl ReplHelper {
    /// A helper completing paths under `root` (canonical).
    pub fn new(root: &Path) -> Self {
        ReplHelper {
            root: root.to_path_buf(),
            mode_key: Arc::default(),
            rewind_key: Arc::default(),
        }
    }
}

/// Builds the editor with history size, bracketed paste, the Alt-Enter newline binding and Shift+Tab for the
/// approval mode (see [`super::mode_key`]).
pub fn build_editor(root: &Path) -> rustyline::Result<LineEditor> {
    let config = Config::builder()
        .auto_add_history(false)
        .bracketed_paste(true)
        .edit_mode(EditMode::Emacs)
        .max_history_size(2000)?
        .build();
    let mut editor = LineEditor::with_config(config)?;
    let helper = ReplHelper::new(root);
    let mode_key = Arc::clone(&helper.mode_key);
    let helper_rewind = Arc::clone(&helper.rewind_key);
    editor.set_helper(Some(helper));
    editor.bind_sequence(
        KeyEvent(KeyCode::BackTab, Modifiers::NONE),
        EventHandler::Conditional(Box::new(ModeKeyHandler(mode_key))),
    );
    editor.bind_sequence(
        KeyEvent(KeyCode::Esc, Modifiers::NONE),
        EventHandler::Conditional(Box::new(super::rewind_key::RewindKeyHandler(helper_rewind))),
    );
    editor.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::ALT), Cmd::Newline);
    editor.bind_sequence(KeyEvent::alt('\r'), Cmd::Newline);
    Ok(editor)
}

/// Joins continuation lines: a line ending in `\` continues on the next one (the `\` is dropped).
pub fn join_continuations(input: &str) -> String {
    input.replace("\\\r\n", "\n").replace("\\\n", "\n")
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
        let word = &before[start..];
        if start == 0 && word.starts_with('/') {
            return Ok((0, complete_command(word)));
        }
        if let Some(partial) = word.strip_prefix('@') {
            return Ok((start, complete_path(&self.root, partial)));
        }
        Ok((pos, Vec::new()))
    }
}

/// `/na` → every command or alias starting with it.
pub fn complete_command(word: &str) -> Vec<Pair> {
    let typed = word.trim_start_matches('/');
    let mut out: Vec<Pair> = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .filter(|name| name.starts_with(typed))
        .map(|name| Pair {
            display: format!("/{name}"),
            replacement: format!("/{name} "),
        })
        .collect();
    out.sort_by(|a, b| a.display.cmp(&b.display));
    out
}

/// `@src/ma` → entries of `src/` starting with `ma`, inside the root only; directories end with `/`.
pub fn complete_path(root: &Path, partial: &str) -> Vec<Pair> {
    let (dir, prefix) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let Ok(dir_path) = root.join(dir).canonicalize() else {
        return Vec::new();
    };
    if !dir_path.starts_with(root) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(&dir_path) else {
        return Vec::new();
    };
    let mut out: Vec<Pair> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with(prefix)
                || name == ".git"
                || (name.starts_with('.') && prefix.is_empty())
            {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(Pair {
                display: format!("{name}{slash}"),
                replacement: format!("@{dir}{name}{slash}"),
            })
        })
        .collect();
    out.sort_by(|a, b| a.display.cmp(&b.display));
    out.truncate(MAX_CANDIDATES);
    out
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        if ctx.input().ends_with('\\') && !self.mode_key.is_pressed() {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn commands_complete_by_prefix_including_aliases() {
        let names: Vec<String> = complete_command("/ex")
            .into_iter()
            .map(|p| p.display)
            .collect();
        assert_eq!(names, vec!["/exit", "/export"]);
        let names: Vec<String> = complete_command("/q")
            .into_iter()
            .map(|p| p.display)
            .collect();
        assert_eq!(names, vec!["/quit"]);
    }

    #[test]
    fn paths_complete_inside_the_root_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/main.rs"), "").unwrap();
        std::fs::write(root.join("README.md"), "").unwrap();
        let got: Vec<String> = complete_path(&root, "s")
            .into_iter()
            .map(|p| p.replacement)
            .collect();
        assert_eq!(got, vec!["@src/"]);
        let got: Vec<String> = complete_path(&root, "src/m")
            .into_iter()
            .map(|p| p.replacement)
            .collect();
        assert_eq!(got, vec!["@src/main.rs"]);
        assert!(complete_path(&root, "../").is_empty());
    }

    #[test]
    fn trailing_backslashes_join_lines() {
        assert_eq!(join_continuations("one\\\ntwo"), "one\ntwo");
    }
}
