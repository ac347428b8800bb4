//! ESC at the prompt: on a line with text it clears the line; at an empty prompt the first press shows a hint and
//! the second opens `/rewind`. As with Shift+Tab (`mode_key`), the key handler only records the press and
//! submits the empty line; the REPL sees the record and runs the command.
//!
//! rustyline in emacs mode reads ESC as the start of an Alt sequence and, without a key-sequence timeout, waits
//! for the next key. The editor sets a short timeout ([`super::editor::ESC_WAIT_MS`]): terminals send Alt+key
//! and the escape sequences of arrows in one write, so those still arrive whole, while ESC pressed alone is a key
//! of its own. Two presses within that timeout arrive as one ESC, so the double press is counted across key
//! events (any other key in between starts the count again), never by timing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustyline::{Cmd, ConditionalEventHandler, Event, EventContext, Movement, RepeatCount};

/// ESC presses at the prompt, shared between the key handlers, the hint and the REPL.
#[derive(Default)]
pub struct RewindKey {
    /// One ESC was pressed at the empty prompt, and no other key since.
    armed: AtomicBool,
    /// The second ESC: `/rewind` waits for the REPL.
    pressed: AtomicBool,
}

impl RewindKey {
    /// Takes the press: true once per Esc Esc.
    pub fn take(&self) -> bool {
        self.pressed.swap(false, Ordering::SeqCst)
    }

    /// Whether the next ESC at the empty prompt opens `/rewind` (the prompt shows a hint then).
    pub fn is_armed(&self) -> bool {
        self.armed.load(Ordering::SeqCst)
    }

    /// What ESC does on `line`: clear it, arm the double press, or fire it.
    fn on_esc(&self, line: &str) -> Cmd {
        if !line.is_empty() {
            self.armed.store(false, Ordering::SeqCst);
            return Cmd::Kill(Movement::WholeBuffer);
        }
        if self.armed.swap(false, Ordering::SeqCst) {
            self.pressed.store(true, Ordering::SeqCst);
            Cmd::AcceptLine
        } else {
            self.armed.store(true, Ordering::SeqCst);
            // Redrawn so the hint appears.
            Cmd::Repaint
        }
    }
}

/// The rustyline handler bound to ESC (inside a paste being collected, an ESC is dropped).
pub struct RewindKeyHandler(pub Arc<RewindKey>, pub Arc<super::paste_fold::PasteFold>);

impl ConditionalEventHandler for RewindKeyHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        ctx: &EventContext,
    ) -> Option<Cmd> {
        if self.1.is_collecting() {
            return Some(Cmd::Noop);
        }
        Some(self.0.on_esc(ctx.line()))
    }
}

/// Bound to every other key: a key of a paste being collected goes to the paste (see `paste_fold`); any other
/// ends a half-made double press and keeps its usual meaning.
pub struct OtherKeyHandler(pub Arc<RewindKey>, pub Arc<super::paste_fold::PasteFold>);

impl ConditionalEventHandler for OtherKeyHandler {
    fn handle(
        &self,
        evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        _ctx: &EventContext,
    ) -> Option<Cmd> {
        if let Some(cmd) = super::paste_fold::paste_key(&self.1, evt) {
            return Some(cmd);
        }
        self.0.armed.store(false, Ordering::SeqCst);
        None
    }
}

/// The hint after one ESC at the empty prompt; Right arrow does not insert it.
pub struct RewindHint(pub String);

impl rustyline::hint::Hint for RewindHint {
    fn display(&self) -> &str {
        &self.0
    }

    fn completion(&self) -> Option<&str> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_clears_a_line_with_text() {
        let key = RewindKey::default();
        assert_eq!(key.on_esc("half typed"), Cmd::Kill(Movement::WholeBuffer));
        assert!(!key.is_armed());
        assert!(!key.take());
    }

    #[test]
    fn two_presses_at_the_empty_prompt_rewind_once() {
        let key = RewindKey::default();
        assert_eq!(key.on_esc(""), Cmd::Repaint);
        assert!(key.is_armed());
        assert!(!key.take());
        assert_eq!(key.on_esc(""), Cmd::AcceptLine);
        assert!(!key.is_armed());
        assert!(key.take());
        assert!(!key.take());
    }

    #[test]
    fn clearing_a_line_does_not_count_as_the_first_press() {
        let key = RewindKey::default();
        key.on_esc("");
        key.on_esc("typed after the first press");
        assert_eq!(key.on_esc(""), Cmd::Repaint);
        assert!(!key.take());
    }
}
