//! Esc Esc at an empty prompt opens `/rewind`. As with Shift+Tab (`mode_key`), the key handler only records the
//! press and submits the empty line; the REPL sees the record and runs the command.
//!
//! rustyline (emacs mode, no key-sequence timeout) reads a first Esc as the start of an Alt sequence and waits
//! for the next key: Esc then a letter is Alt+letter, and Esc Esc arrives as one `Esc` key event. So the `Esc`
//! binding fires exactly on the double press; on a line with text it keeps rustyline's meaning.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustyline::{Cmd, ConditionalEventHandler, Event, EventContext, RepeatCount};

/// An Esc Esc press at an empty prompt, waiting for the REPL.
#[derive(Default)]
pub struct RewindKey {
    pressed: AtomicBool,
}

impl RewindKey {
    /// Takes the press: true once per Esc Esc.
    pub fn take(&self) -> bool {
        self.pressed.swap(false, Ordering::SeqCst)
    }
}

/// The rustyline handler bound to Esc.
pub struct RewindKeyHandler(pub Arc<RewindKey>);

impl ConditionalEventHandler for RewindKeyHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        ctx: &EventContext,
    ) -> Option<Cmd> {
        if !ctx.line().is_empty() {
            return None;
        }
        self.0.pressed.store(true, Ordering::SeqCst);
        Some(Cmd::AcceptLine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_is_taken_once() {
        let key = RewindKey::default();
        assert!(!key.take());
        key.pressed.store(true, Ordering::SeqCst);
        assert!(key.take());
        assert!(!key.take());
    }
}
