//! Where the approval prompt's keys come from: the keyboard owner's channel while a task runs, a list in tests,
//! or, without a terminal, the lines of stdin turned into key presses.

use std::collections::VecDeque;
use std::io::BufRead;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::ui::keyboard::{Input, Listener};

/// A source of key presses and pastes; `None` when there are no more.
pub trait KeySource {
    fn next_input(&mut self) -> Option<Input>;

    /// Shows `lines` through the person's pager, the terminal lent to it meanwhile; false when none ran (no
    /// terminal, or the pager failed), and the caller prints them.
    fn page(&mut self, _lines: &[String]) -> bool {
        false
    }
}

impl KeySource for Listener {
    fn next_input(&mut self) -> Option<Input> {
        self.next()
    }

    fn page(&mut self, lines: &[String]) -> bool {
        let _lent = self.lend_terminal();
        crate::ui::render::page(lines).is_ok()
    }
}

impl KeySource for VecDeque<Input> {
    fn next_input(&mut self) -> Option<Input> {
        self.pop_front()
    }
}

/// The keys typing `text` would press: characters, `\n` as Enter, `\x1b` as ESC, `\x7f` as Backspace, `\x01`–`\x1a`
/// as Ctrl-A–Z.
pub fn typed(text: &str) -> VecDeque<Input> {
    text.chars().map(|c| Input::Key(char_key(c))).collect()
}

fn char_key(c: char) -> KeyEvent {
    let code = match c {
        '\n' | '\r' => KeyCode::Enter,
        '\u{1b}' => KeyCode::Esc,
        '\u{7f}' => KeyCode::Backspace,
        '\t' => KeyCode::Tab,
        // Ctrl-A … Ctrl-Z.
        '\u{1}'..='\u{1a}' => {
            let letter = char::from(b'a' + (c as u8) - 1);
            return KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL);
        }
        c => KeyCode::Char(c),
    };
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Lines of a reader as key presses (no terminal on stdin: nothing else reads it then).
pub struct LineKeys<R> {
    reader: R,
    pending: VecDeque<Input>,
}

impl<R: BufRead> LineKeys<R> {
    pub fn new(reader: R) -> Self {
        LineKeys {
            reader,
            pending: VecDeque::new(),
        }
    }
}

impl<R: BufRead> KeySource for LineKeys<R> {
    fn next_input(&mut self) -> Option<Input> {
        if self.pending.is_empty() {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(n) if n > 0 => self.pending = typed(&line),
                _ => return None,
            }
        }
        self.pending.pop_front()
    }
}
