//! A long paste at the prompt is folded: the line shows `[pasted 200 lines #1]` instead of two hundred lines,
//! and the text is put back in its place when the line is sent (as Claude Code does).
//!
//! rustyline reads a bracketed paste whole and inserts it, with no hook between. So the paste's start key is
//! bound here: from it to the paste's end key every key is collected instead of edited (the terminal sends the
//! pasted text as keys between the two), and at the end the text, or its fold when it is long, is inserted.

use std::sync::{Mutex, MutexGuard, PoisonError};

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, KeyCode, KeyEvent, Modifiers, RepeatCount,
};

use crate::text::{Lang, Msg, trf};

/// Pastes of more lines than this are folded.
const FOLD_LINES: usize = 10;
/// Pastes of more characters than this are folded, however few their lines.
const FOLD_CHARS: usize = 2000;

/// The paste being collected and the folded ones of the line being edited.
#[derive(Default)]
pub struct PasteFold {
    lang: Lang,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Between the paste's start and end keys: the text so far.
    collecting: Option<String>,
    /// Folded pastes: the marker shown in the line and the text it stands for.
    folded: Vec<(String, String)>,
}

impl PasteFold {
    /// Folds with markers worded in `lang`.
    pub fn new(lang: Lang) -> PasteFold {
        PasteFold {
            lang,
            state: Mutex::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a paste is being collected (other key handlers leave its keys alone).
    pub fn is_collecting(&self) -> bool {
        self.state().collecting.is_some()
    }

    /// The paste started.
    fn start(&self) {
        self.state().collecting = Some(String::new());
    }

    /// One key of the paste, or its end: `Some` is what the editor does with it.
    fn on_key(&self, key: &KeyEvent) -> Option<Cmd> {
        let mut state = self.state();
        let text = state.collecting.as_mut()?;
        match *key {
            KeyEvent(KeyCode::BracketedPasteEnd, _) => {
                let text = state.collecting.take().unwrap_or_default();
                Some(Cmd::Insert(1, self.fold(&mut state, text)))
            }
            KeyEvent(KeyCode::Char(c), Modifiers::NONE) => {
                text.push(c);
                Some(Cmd::Noop)
            }
            KeyEvent(KeyCode::Enter, _) | KeyEvent(KeyCode::Char('J'), Modifiers::CTRL) => {
                text.push('\n');
                Some(Cmd::Noop)
            }
            KeyEvent(KeyCode::Tab, _) => {
                text.push('\t');
                Some(Cmd::Noop)
            }
            // Anything else inside a paste (a stray control key) is dropped, never run as an editing key.
            _ => Some(Cmd::Noop),
        }
    }

    /// What goes into the line for `text`: itself, or a marker when it is long.
    fn fold(&self, state: &mut State, text: String) -> String {
        let lines = text.trim_end_matches('\n').lines().count();
        if lines <= FOLD_LINES && text.chars().count() <= FOLD_CHARS {
            return text;
        }
        let n = state.folded.len() + 1;
        let marker = trf(self.lang, Msg::PasteFolded, &[("lines", &lines), ("n", &n)]);
        state.folded.push((marker.clone(), text));
        marker
    }

    /// `line` with each fold's marker replaced by its text; the folds are forgotten (the line was sent or
    /// dropped). A marker the person deleted takes its text with it.
    pub fn unfold(&self, line: &str) -> String {
        let folded = std::mem::take(&mut self.state().folded);
        folded
            .into_iter()
            .fold(line.to_string(), |line, (marker, text)| {
                line.replacen(&marker, &text, 1)
            })
    }
}

/// Bound to the paste's start key.
pub struct PasteStartHandler(pub std::sync::Arc<PasteFold>);

impl ConditionalEventHandler for PasteStartHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        _ctx: &EventContext,
    ) -> Option<Cmd> {
        self.0.start();
        Some(Cmd::Noop)
    }
}

/// What a key means while a paste may be collected: `Some` when it belongs to the paste.
pub fn paste_key(fold: &PasteFold, evt: &Event) -> Option<Cmd> {
    match evt {
        Event::KeySeq(keys) => keys.first().and_then(|key| fold.on_key(key)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paste(fold: &PasteFold, text: &str) -> Option<Cmd> {
        fold.start();
        for c in text.chars() {
            let key = match c {
                '\n' => KeyEvent(KeyCode::Enter, Modifiers::NONE),
                c => KeyEvent(KeyCode::Char(c), Modifiers::NONE),
            };
            assert_eq!(fold.on_key(&key), Some(Cmd::Noop));
        }
        fold.on_key(&KeyEvent(KeyCode::BracketedPasteEnd, Modifiers::NONE))
    }

    #[test]
    fn a_short_paste_is_inserted_as_it_is() {
        let fold = PasteFold::new(Lang::En);
        assert_eq!(
            paste(&fold, "one\ntwo"),
            Some(Cmd::Insert(1, "one\ntwo".into()))
        );
        assert!(!fold.is_collecting());
        assert_eq!(
            fold.on_key(&KeyEvent(KeyCode::Char('x'), Modifiers::NONE)),
            None
        );
    }

    #[test]
    fn a_long_paste_is_folded_and_unfolded_when_sent() {
        let fold = PasteFold::new(Lang::En);
        let text: String = (1..=200).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            paste(&fold, &text),
            Some(Cmd::Insert(1, "[pasted 200 lines #1]".into()))
        );
        assert_eq!(
            fold.unfold("look at [pasted 200 lines #1] please"),
            format!("look at {text} please")
        );
        // Sent once: the next line has no folds.
        assert_eq!(
            fold.unfold("[pasted 200 lines #1]"),
            "[pasted 200 lines #1]"
        );
    }

    #[test]
    fn the_marker_is_worded_in_chinese() {
        let fold = PasteFold::new(Lang::Zh);
        let text = "x\n".repeat(12);
        assert_eq!(
            paste(&fold, &text),
            Some(Cmd::Insert(1, "[已粘贴 12 行 #1]".into()))
        );
    }
}
