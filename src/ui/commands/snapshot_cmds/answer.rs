//! A short answer typed at a command's question: Enter submits, ESC or Ctrl-C cancels. On a terminal the keys
//! are read raw (so ESC acts at once); otherwise one line is read from standard input.

use std::io::{self, BufRead, IsTerminal, Write};

use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::terminal;

/// Longest answer kept, in characters.
const MAX_CHARS: usize = 200;

/// Shows `prompt` and reads the answer; `None` when cancelled (ESC, Ctrl-C, Ctrl-D, end of input).
pub fn read_answer(prompt: &str) -> Option<String> {
    let mut out = io::stdout();
    let _ = write!(out, "{prompt}");
    let _ = out.flush();
    if !io::stdin().is_terminal() {
        let mut line = String::new();
        return match io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        };
    }
    if terminal::enable_raw_mode().is_err() {
        return None;
    }
    let answer = read_keys(&mut out);
    let _ = terminal::disable_raw_mode();
    let _ = write!(out, "\r\n");
    let _ = out.flush();
    answer
}

fn read_keys(out: &mut impl Write) -> Option<String> {
    let mut answer = String::new();
    loop {
        let Ok(Event::Key(key)) = event::read() else {
            continue;
        };
        if key.kind == KeyEventKind::Release {
            continue;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Enter => return Some(answer.trim().to_string()),
            KeyCode::Esc => return None,
            KeyCode::Char('c' | 'd') if ctrl => return None,
            KeyCode::Backspace if answer.pop().is_some() => {
                let _ = write!(out, "\u{8} \u{8}");
            }
            KeyCode::Char(c) if !ctrl && !c.is_control() && answer.chars().count() < MAX_CHARS => {
                answer.push(c);
                let _ = write!(out, "{c}");
            }
            _ => {}
        }
        let _ = out.flush();
    }
}
