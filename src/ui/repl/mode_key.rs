//! Shift+Tab at the prompt: rustyline cannot run our code between keys, so the key handler records the press
//! (and the cursor) and submits the line; the REPL sees the record, switches the approval mode, and puts the
//! line back in the editor as it was.

use std::sync::{Arc, Mutex, PoisonError};

use rustyline::{Cmd, ConditionalEventHandler, Event, EventContext, RepeatCount};

/// A Shift+Tab press waiting for the REPL: the line and the cursor position when it was pressed.
#[derive(Default)]
pub struct ModeKey {
    pressed: Mutex<Option<usize>>,
}

impl ModeKey {
    /// Whether a press is waiting (the validator accepts the line then, even a `\` continuation).
    pub fn is_pressed(&self) -> bool {
        self.lock().is_some()
    }

    /// Takes the press: `Some(cursor)` once per Shift+Tab.
    pub fn take(&self) -> Option<usize> {
        self.lock().take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<usize>> {
        self.pressed.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The rustyline handler bound to Shift+Tab.
pub struct ModeKeyHandler(pub Arc<ModeKey>);

impl ConditionalEventHandler for ModeKeyHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        ctx: &EventContext,
    ) -> Option<Cmd> {
        *self.0.lock() = Some(ctx.pos());
        Some(Cmd::AcceptLine)
    }
}

/// Splits `line` at the cursor byte offset `pos` (clamped to a char boundary) for `readline_with_initial`.
pub fn split_at_cursor(line: &str, pos: usize) -> (&str, &str) {
    let mut at = pos.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    line.split_at(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_is_taken_once() {
        let key = ModeKey::default();
        assert!(!key.is_pressed());
        *key.lock() = Some(3);
        assert!(key.is_pressed());
        assert_eq!(key.take(), Some(3));
        assert_eq!(key.take(), None);
    }

    #[test]
    fn the_line_splits_at_the_cursor_on_a_char_boundary() {
        assert_eq!(split_at_cursor("fix it", 3), ("fix", " it"));
        assert_eq!(split_at_cursor("中文", 1), ("", "中文"));
        assert_eq!(split_at_cursor("ab", 9), ("ab", ""));
    }
}
