//! Ctrl+O at the prompt: shows the last tool result, reason or diagnostics block in full, then repaints the
//! line being edited (rustyline keeps it; nothing is submitted).

use std::io::Write;

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, EventHandler, KeyEvent, RepeatCount,
};

use super::editor::LineEditor;
use crate::text::{Lang, Msg, tr};
use crate::ui::render::{LastExpandable, Style, show_expanded};

/// The rustyline handler bound to Ctrl+O.
struct ExpandKeyHandler {
    last: LastExpandable,
    lang: Lang,
    style: Style,
}

impl ConditionalEventHandler for ExpandKeyHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        _ctx: &EventContext,
    ) -> Option<Cmd> {
        let (width, height) = crossterm::terminal::size()
            .map(|(w, h)| (usize::from(w).max(20), usize::from(h).max(5)))
            .unwrap_or((80, 24));
        let mut out = std::io::stdout().lock();
        // The prompt line is redrawn below what is shown.
        let _ = out.write_all(b"\r\x1b[2K");
        match self.last.get() {
            Some(item) => {
                let _ = show_expanded(&item, width, height, self.style, "\r\n", &mut out);
            }
            None => {
                let note = self.style.dim(tr(self.lang, Msg::NothingToExpand));
                let _ = write!(out, "{note}\r\n");
            }
        }
        let _ = out.flush();
        Some(Cmd::Repaint)
    }
}

/// Binds Ctrl+O to show `last` in full.
pub fn bind_expand_key(editor: &mut LineEditor, last: LastExpandable, lang: Lang, style: Style) {
    editor.bind_sequence(
        KeyEvent::ctrl('o'),
        EventHandler::Conditional(Box::new(ExpandKeyHandler { last, lang, style })),
    );
}
