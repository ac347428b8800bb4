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
    Cmd, CompletionType, Config, Context, EditMode, Editor, EventHandler, Helper, KeyCode,
    KeyEvent, Modifiers,
};

use super::mode_key::{ModeKey, ModeKeyHandler};

use crate::text::{Lang, Msg, tr};
use crate::ui::commands::COMMANDS;
use crate::ui::render::visible_width;

/// How long rustyline waits after ESC for the rest of an escape sequence (Alt+key, arrows). Terminals send a
/// sequence in one write, so a few milliseconds suffice; without a limit ESC alone waits for the next key.
pub const ESC_WAIT_MS: u16 = 30;

/// Most completion candidates offered at once. rustyline asks (in English) before listing more than its prompt
/// limit, so the limit is set to this and the question never comes.
const MAX_CANDIDATES: usize = 100;

/// The editor type the REPL uses.
pub type LineEditor = Editor<ReplHelper, DefaultHistory>;

/// Completion and multiline validation for the prompt.
pub struct ReplHelper {
    root: PathBuf,
    /// The language of command descriptions in the completion list.
    lang: Lang,
    /// Shift+Tab presses for the REPL to act on.
    pub mode_key: Arc<ModeKey>,
    /// Esc Esc presses at an empty prompt (`/rewind`).
    pub rewind_key: Arc<super::rewind_key::RewindKey>,
    /// Long pastes shown folded in the line, and their text.
    pub paste_fold: Arc<super::paste_fold::PasteFold>,
    /// Custom commands from files: name and help line.
    custom: Vec<(String, String)>,
    /// MCP servers whose cached resources complete `@server:uri`.
    pub mcp: Option<crate::mcp::McpManager>,
}

impl ReplHelper {
    /// A helper completing paths under `root` (canonical), describing commands in `lang`.
    pub fn new(root: &Path, lang: Lang) -> Self {
        ReplHelper {
            root: root.to_path_buf(),
            lang,
            mode_key: Arc::default(),
            rewind_key: Arc::default(),
            paste_fold: Arc::new(super::paste_fold::PasteFold::new(lang)),
            custom: Vec::new(),
            mcp: None,
        }
    }

    /// Offers these custom commands (name, help line) beside the built-in ones.
    pub fn set_custom_commands(&mut self, commands: Vec<(String, String)>) {
        self.custom = commands;
    }
}

/// Builds the editor with history size, bracketed paste, the Alt-Enter newline binding, Shift+Tab for the
/// approval mode (see [`super::mode_key`]) and ESC (clears the line; twice at an empty prompt, `/rewind`). Tab completes as far as the matches agree and lists them when they
/// differ (commands with their descriptions), instead of cycling through them inline.
pub fn build_editor(root: &Path, lang: Lang) -> rustyline::Result<LineEditor> {
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .completion_show_all_if_ambiguous(true)
        .completion_prompt_limit(MAX_CANDIDATES)
        .bracketed_paste(true)
        .edit_mode(EditMode::Emacs)
        // After `edit_mode`, which resets it.
        .keyseq_timeout(Some(ESC_WAIT_MS))
        .max_history_size(2000)?
        .build();
    let mut editor = LineEditor::with_config(config)?;
    let helper = ReplHelper::new(root, lang);
    let mode_key = Arc::clone(&helper.mode_key);
    let helper_rewind = Arc::clone(&helper.rewind_key);
    let other_keys = Arc::clone(&helper.rewind_key);
    let paste_fold = Arc::clone(&helper.paste_fold);
    editor.set_helper(Some(helper));
    editor.bind_sequence(
        KeyEvent(KeyCode::BracketedPasteStart, Modifiers::NONE),
        EventHandler::Conditional(Box::new(super::paste_fold::PasteStartHandler(Arc::clone(
            &paste_fold,
        )))),
    );
    editor.bind_sequence(
        KeyEvent(KeyCode::BackTab, Modifiers::NONE),
        EventHandler::Conditional(Box::new(ModeKeyHandler(mode_key))),
    );
    editor.bind_sequence(
        KeyEvent(KeyCode::Esc, Modifiers::NONE),
        EventHandler::Conditional(Box::new(super::rewind_key::RewindKeyHandler(
            helper_rewind,
            Arc::clone(&paste_fold),
        ))),
    );
    editor.bind_sequence(
        rustyline::Event::Any,
        EventHandler::Conditional(Box::new(super::rewind_key::OtherKeyHandler(
            other_keys, paste_fold,
        ))),
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
            return Ok((
                0,
                complete_command_with(word, self.lang, terminal_width(), &self.custom),
            ));
        }
        if let Some(partial) = word.strip_prefix('@') {
            let mut pairs = self
                .mcp
                .as_ref()
                .map(|mcp| {
                    super::mention_complete::complete_mention(&mcp.cached_resources(), partial)
                })
                .unwrap_or_default();
            if !partial.contains(':') {
                pairs.extend(complete_path(&self.root, partial));
            }
            return Ok((start, pairs));
        }
        Ok((pos, Vec::new()))
    }
}

/// The terminal's width, for fitting descriptions in the completion list.
fn terminal_width() -> usize {
    crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w))
}

/// `/na` → every command starting with it, each shown with its description (cut to fit `columns`). An alias is
/// offered only when its command's own name does not match, so `/` lists each command once.
pub fn complete_command(word: &str, lang: Lang, columns: usize) -> Vec<Pair> {
    complete_command_with(word, lang, columns, &[])
}

/// [`complete_command`] over the built-in commands and `custom` (name, help line) ones.
pub fn complete_command_with(
    word: &str,
    lang: Lang,
    columns: usize,
    custom: &[(String, String)],
) -> Vec<Pair> {
    let typed = word.trim_start_matches('/').to_ascii_lowercase();
    let mut matches: Vec<(&str, &str)> = COMMANDS
        .iter()
        .filter_map(|c| {
            let name = if c.name.starts_with(&typed) {
                c.name
            } else {
                c.aliases.iter().copied().find(|a| a.starts_with(&typed))?
            };
            Some((name, c.help(lang)))
        })
        .collect();
    matches.extend(
        custom
            .iter()
            .filter(|(name, _)| name.starts_with(&typed))
            .map(|(name, help)| (name.as_str(), help.as_str())),
    );
    let name_width = matches.iter().map(|(n, _)| n.len() + 1).max().unwrap_or(0);
    // rustyline pads each entry by two; one more keeps the last cell free so no line wraps.
    let room = columns.saturating_sub(name_width + 2 + 3);
    let mut out: Vec<Pair> = matches
        .into_iter()
        .map(|(name, help)| {
            let label = format!("/{name}");
            Pair {
                display: format!("{label:<name_width$}  {}", fit(help, room))
                    .trim_end()
                    .to_string(),
                replacement: format!("{label} "),
            }
        })
        .collect();
    out.sort_by(|a, b| a.display.cmp(&b.display));
    out
}

/// `text` cut to `room` cells, with `…` when something was cut.
fn fit(text: &str, room: usize) -> String {
    if visible_width(text) <= room {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = visible_width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > room {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
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
    type Hint = super::rewind_key::RewindHint;

    fn hint(&self, line: &str, _pos: usize, _ctx: &Context<'_>) -> Option<Self::Hint> {
        (line.is_empty() && self.rewind_key.is_armed()).then(|| {
            super::rewind_key::RewindHint(tr(self.lang, Msg::EscAgainToRewind).to_string())
        })
    }
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
        let names = |word: &str| -> Vec<String> {
            complete_command(word, Lang::En, 80)
                .into_iter()
                .map(|p| p.replacement)
                .collect()
        };
        assert_eq!(names("/ex"), vec!["/exit ", "/export "]);
        assert_eq!(names("/q"), vec!["/quit "]);
        assert_eq!(names("/ct"), vec!["/ctx "]);
        // Each command once: `/context` matches, so its alias `/ctx` is not offered beside it.
        assert_eq!(
            names("/co"),
            vec!["/compact ", "/config ", "/context ", "/cost "]
        );
        assert_eq!(names("/").len(), COMMANDS.len());
    }

    #[test]
    fn the_completion_list_shows_descriptions_that_fit_the_screen() {
        let shown: Vec<String> = complete_command("/ex", Lang::En, 80)
            .into_iter()
            .map(|p| p.display)
            .collect();
        assert_eq!(
            shown,
            vec![
                "/exit    leave paicli",
                "/export  save the conversation (or the recorded session `id`) as Markdown un…",
            ]
        );
        for p in complete_command("/", Lang::Zh, 40) {
            assert!(visible_width(&p.display) <= 40 - 3, "{:?}", p.display);
        }
        let config = complete_command("/conf", Lang::Zh, 40);
        assert_eq!(config[0].display, "/config  显示生效配置及来源；带过滤…");
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
