//! Text typed while a task runs: the line being typed, and lines finished with Enter that wait to be sent as the
//! next messages. The keyboard owner fills it; the REPL drains it when the turn ends; the working line can show
//! it ([`TypeAhead::line`], [`TypeAhead::queued`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A shared handle; clones see the same text.
#[derive(Clone, Default)]
pub struct TypeAhead {
    inner: Arc<Mutex<Typed>>,
}

#[derive(Default)]
struct Typed {
    line: String,
    queued: VecDeque<String>,
}

impl TypeAhead {
    fn lock(&self) -> MutexGuard<'_, Typed> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The line typed so far (not yet sent with Enter).
    pub fn line(&self) -> String {
        self.lock().line.clone()
    }

    /// How many lines wait to be sent.
    pub fn queued(&self) -> usize {
        self.lock().queued.len()
    }

    /// The lines waiting to be sent, oldest first.
    pub fn queued_lines(&self) -> Vec<String> {
        self.lock().queued.iter().cloned().collect()
    }

    /// Stopping a task stops what was queued behind it too: the queued lines go back into the line being typed
    /// (oldest first, then what was typed since), to be sent again, changed or dropped.
    pub fn unqueue(&self) {
        let mut typed = self.lock();
        if typed.queued.is_empty() {
            return;
        }
        let mut parts: Vec<String> = typed.queued.drain(..).collect();
        if !typed.line.trim().is_empty() {
            parts.push(std::mem::take(&mut typed.line));
        }
        typed.line = parts.join(" ");
    }

    /// Queues a line to be sent as the next message (`paicli "task"` starts the REPL with it).
    pub fn queue(&self, line: String) {
        if !line.trim().is_empty() {
            self.lock().queued.push_back(line);
        }
    }

    /// Takes the next queued line, oldest first.
    pub fn pop_queued(&self) -> Option<String> {
        self.lock().queued.pop_front()
    }

    /// Takes the line being typed, leaving it empty.
    pub fn take_line(&self) -> String {
        std::mem::take(&mut self.lock().line)
    }

    /// Applies one key: printable characters are typed, Backspace deletes, Enter queues a non-blank line, unless
    /// `runs_now` takes it (a command that runs while the task does): then it is returned instead of queued.
    /// Other keys (arrows, Shift+Tab, control keys) are ignored.
    pub fn key(&self, key: &KeyEvent, runs_now: impl Fn(&str) -> bool) -> Option<String> {
        let mut typed = self.lock();
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Char(c) if plain && !c.is_control() => typed.line.push(c),
            KeyCode::Backspace => {
                typed.line.pop();
            }
            KeyCode::Enter => {
                let line = std::mem::take(&mut typed.line);
                if runs_now(line.trim()) {
                    return Some(line.trim().to_string());
                }
                if !line.trim().is_empty() {
                    typed.queued.push_back(line);
                }
            }
            _ => {}
        }
        None
    }

    /// A paste goes into the line as text; it never sends anything (line breaks become spaces).
    pub fn paste(&self, text: &str) {
        let clean: String = text
            .chars()
            .map(|c| {
                if c == '\n' || c == '\r' || c == '\t' {
                    ' '
                } else {
                    c
                }
            })
            .filter(|c| !c.is_control())
            .collect();
        self.lock().line.push_str(&clean);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(t: &TypeAhead, code: KeyCode) -> Option<String> {
        t.key(&KeyEvent::new(code, KeyModifiers::NONE), |line| {
            line == "/now"
        })
    }

    fn typed(t: &TypeAhead, text: &str) {
        for c in text.chars() {
            press(t, KeyCode::Char(c));
        }
    }

    #[test]
    fn typing_backspace_and_enter_build_and_queue_lines() {
        let t = TypeAhead::default();
        typed(&t, "fix tets");
        press(&t, KeyCode::Backspace);
        press(&t, KeyCode::Backspace);
        typed(&t, "st");
        assert_eq!(t.line(), "fix test");
        press(&t, KeyCode::Enter);
        typed(&t, "then 文档");
        press(&t, KeyCode::Enter);
        press(&t, KeyCode::Enter);
        typed(&t, "draft");
        assert_eq!((t.queued(), t.line()), (2, "draft".to_string()));
        assert_eq!(t.pop_queued().as_deref(), Some("fix test"));
        assert_eq!(t.pop_queued().as_deref(), Some("then 文档"));
        assert_eq!(t.pop_queued(), None);
        assert_eq!(t.take_line(), "draft");
        assert_eq!(t.line(), "");
    }

    #[test]
    fn control_keys_arrows_and_pasted_newlines_do_not_type_or_send() {
        let t = TypeAhead::default();
        t.key(
            &KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
            |_| false,
        );
        press(&t, KeyCode::Up);
        press(&t, KeyCode::BackTab);
        t.paste("one\ntwo\u{1b}");
        assert_eq!((t.line(), t.queued()), ("one two".to_string(), 0));
    }

    #[test]
    fn a_command_that_runs_now_is_returned_not_queued() {
        let t = TypeAhead::default();
        typed(&t, "next");
        press(&t, KeyCode::Enter);
        typed(&t, " /now ");
        assert_eq!(press(&t, KeyCode::Enter).as_deref(), Some("/now"));
        assert_eq!(
            (t.queued_lines(), t.line()),
            (vec!["next".to_string()], String::new())
        );
    }

    #[test]
    fn unqueue_puts_the_queued_lines_back_before_the_typed_one() {
        let t = TypeAhead::default();
        for line in ["one", "/cost"] {
            typed(&t, line);
            press(&t, KeyCode::Enter);
        }
        typed(&t, "three");
        t.unqueue();
        assert_eq!((t.queued(), t.line()), (0, "one /cost three".to_string()));
        t.unqueue();
        assert_eq!(t.line(), "one /cost three");
    }
}
