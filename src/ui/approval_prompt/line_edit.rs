//! A one-line editor over a [`KeySource`], for the reason after `r` and the JSON after `m`: the line editor of the
//! REPL cannot run while the keyboard owner reads keys, and a second reader of the terminal is what this module
//! exists to avoid. Left/Right, Home/End (Ctrl-A/E), Backspace/Delete, Ctrl-U; Enter accepts, ESC or Ctrl-C go
//! back. Long lines wrap; each redraw returns to the first row, so the screen stays right as the line grows.

use std::io::{self, Write};

use crossterm::event::{KeyCode, KeyModifiers};
use unicode_width::UnicodeWidthStr;

use super::keys::KeySource;
use crate::ui::keyboard::{Input, is_cancel_key};

/// How editing ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Edited {
    /// Enter: the text.
    Done(String),
    /// ESC or Ctrl-C: back to the keys.
    Back,
}

/// Edits a line that starts as `initial`; `None` when the keys end.
pub fn edit_line(
    keys: &mut impl KeySource,
    out: &mut impl Write,
    prompt: &str,
    initial: &str,
    width: usize,
) -> io::Result<Option<Edited>> {
    let mut text: Vec<char> = initial.chars().collect();
    let mut cursor = text.len();
    let mut view = View {
        width: width.max(10),
        rows_above: 0,
    };
    view.draw(out, prompt, &text, cursor)?;
    loop {
        let Some(input) = keys.next_input() else {
            return Ok(None);
        };
        match input {
            Input::Paste(pasted) => {
                let clean: Vec<char> = pasted
                    .chars()
                    .map(|c| if c.is_whitespace() { ' ' } else { c })
                    .filter(|c| !c.is_control())
                    .collect();
                let n = clean.len();
                text.splice(cursor..cursor, clean);
                cursor += n;
            }
            Input::Key(key) if is_cancel_key(&key) => {
                writeln!(out)?;
                return Ok(Some(Edited::Back));
            }
            Input::Key(key) => {
                let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
                match key.code {
                    KeyCode::Enter => {
                        writeln!(out)?;
                        return Ok(Some(Edited::Done(text.into_iter().collect())));
                    }
                    KeyCode::Char('a') if ctrl => cursor = 0,
                    KeyCode::Char('e') if ctrl => cursor = text.len(),
                    KeyCode::Char('u') if ctrl => {
                        text.drain(..cursor);
                        cursor = 0;
                    }
                    KeyCode::Char(c) if !ctrl && !c.is_control() => {
                        text.insert(cursor, c);
                        cursor += 1;
                    }
                    KeyCode::Backspace if cursor > 0 => {
                        cursor -= 1;
                        text.remove(cursor);
                    }
                    KeyCode::Delete if cursor < text.len() => {
                        text.remove(cursor);
                    }
                    KeyCode::Left => cursor = cursor.saturating_sub(1),
                    KeyCode::Right => cursor = (cursor + 1).min(text.len()),
                    KeyCode::Home => cursor = 0,
                    KeyCode::End => cursor = text.len(),
                    _ => continue,
                }
            }
        }
        view.draw(out, prompt, &text, cursor)?;
    }
}

/// Where the drawn line is: how many rows the cursor sits below the prompt's first row.
struct View {
    width: usize,
    rows_above: usize,
}

impl View {
    fn draw(
        &mut self,
        out: &mut impl Write,
        prompt: &str,
        text: &[char],
        cursor: usize,
    ) -> io::Result<()> {
        if self.rows_above > 0 {
            write!(out, "\x1b[{}A", self.rows_above)?;
        }
        let line: String = text.iter().collect();
        write!(out, "\r\x1b[J{prompt}{line}")?;
        let end = prompt.width() + line.width();
        // A line that ends exactly at the margin leaves the cursor waiting to wrap; move it down for real.
        if end > 0 && end.is_multiple_of(self.width) {
            write!(out, "\r\n")?;
        }
        let before: String = text[..cursor].iter().collect();
        let at = prompt.width() + before.width();
        let (end_row, row, col) = (end / self.width, at / self.width, at % self.width);
        if end_row > row {
            write!(out, "\x1b[{}A", end_row - row)?;
        }
        write!(out, "\r")?;
        if col > 0 {
            write!(out, "\x1b[{col}C")?;
        }
        self.rows_above = row;
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::ui::approval_prompt::keys::typed;

    fn edit(initial: &str, keys: &str) -> Option<Edited> {
        let mut out = Vec::new();
        edit_line(&mut typed(keys), &mut out, "> ", initial, 80).unwrap()
    }

    #[test]
    fn typing_backspace_and_enter_give_the_line() {
        assert_eq!(
            edit("", "too slox\u{7f}w\n"),
            Some(Edited::Done("too slow".to_string()))
        );
        assert_eq!(
            edit("{\"a\":1}", "\u{7f}\u{7f}2}\n"),
            Some(Edited::Done("{\"a\":2}".to_string()))
        );
    }

    #[test]
    fn esc_and_ctrl_c_go_back_and_the_end_of_keys_is_none() {
        assert_eq!(edit("x", "ab\u{1b}"), Some(Edited::Back));
        assert_eq!(edit("x", "ab\u{3}"), Some(Edited::Back));
        assert_eq!(edit("x", "ab"), None);
    }

    #[test]
    fn the_cursor_moves_and_edits_in_the_middle() {
        let mut keys = typed("");
        for code in [KeyCode::Home, KeyCode::Delete, KeyCode::Right, KeyCode::End] {
            keys.push_back(Input::Key(crossterm::event::KeyEvent::new(
                code,
                KeyModifiers::NONE,
            )));
        }
        keys.extend(typed("!\n"));
        let mut out = Vec::new();
        let edited = edit_line(&mut keys, &mut out, "> ", "abc", 80).unwrap();
        assert_eq!(edited, Some(Edited::Done("bc!".to_string())));
    }

    #[test]
    fn a_wrapped_line_is_redrawn_from_its_first_row() {
        let mut out = Vec::new();
        let long = "x".repeat(25);
        edit_line(&mut typed("y\n"), &mut out, "> ", &long, 10).unwrap();
        let shown = String::from_utf8(out).unwrap();
        // 27 columns at width 10: the cursor ends on the third row, so the redraw goes up two rows first.
        assert!(
            shown.contains("\x1b[2A\r\x1b[J> xxxxxxxxxxxxxxxxxxxxxxxxxy"),
            "{shown:?}"
        );
    }
}
