//! Short answers to a command's question (the session picker, `/rewind`, y/N confirmations), read key by key in
//! raw mode so ESC and Ctrl-C cancel them like every other prompt instead of landing in the line as `^[`. The key
//! handling is a pure state machine ([`LineInput`]) so it is tested without a terminal.

use std::io::{IsTerminal, Write};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key did to the answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Keep reading; echo this (may be empty, or a backspace sequence).
    Echo(String),
    /// Enter: the answer.
    Done(String),
    /// ESC, Ctrl-C or Ctrl-D: no answer.
    Cancel,
}

/// The answer typed so far.
#[derive(Debug, Default)]
pub struct LineInput {
    text: String,
}

impl LineInput {
    /// Applies one key.
    pub fn feed(&mut self, key: KeyEvent) -> Step {
        if key.kind == KeyEventKind::Release {
            return Step::Echo(String::new());
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => Step::Cancel,
            KeyCode::Char('c' | 'd') if ctrl => Step::Cancel,
            KeyCode::Enter => Step::Done(std::mem::take(&mut self.text)),
            KeyCode::Backspace => match self.text.pop() {
                Some(_) => Step::Echo("\u{8} \u{8}".to_string()),
                None => Step::Echo(String::new()),
            },
            KeyCode::Char(c) if !ctrl => {
                self.text.push(c);
                Step::Echo(c.to_string())
            }
            _ => Step::Echo(String::new()),
        }
    }
}

/// Leaves raw mode however the read ends.
struct RawMode;

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// What one key did to a question being answered.
enum KeyStep<T> {
    /// Keep reading; echo this.
    Echo(String),
    /// The question is answered (`None`: cancelled).
    Done(Option<T>),
}

/// Shows `prompt` and reads the answer: without a terminal, from one stdin line through `from_line`; on a
/// terminal, key by key in raw mode through `on_key` (raw mode comes first, then the question: a key pressed as soon
/// as it shows must already be a key event, since a Ctrl-C in cooked mode would be a signal and an ESC would wait
/// for Enter).
fn ask<T>(
    prompt: &str,
    from_line: impl FnOnce(&str) -> Option<T>,
    mut on_key: impl FnMut(KeyEvent) -> KeyStep<T>,
) -> Option<T> {
    let mut out = std::io::stdout();
    if !std::io::stdin().is_terminal() {
        let _ = write!(out, "{prompt}");
        let _ = out.flush();
        let mut line = String::new();
        return match std::io::stdin().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => from_line(line.trim_end_matches(['\r', '\n'])),
        };
    }
    let width = crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w));
    let answer = {
        let _raw = crossterm::terminal::enable_raw_mode()
            .ok()
            .map(|()| RawMode);
        // Raw mode: a line break needs its carriage return.
        let _ = write!(out, "{}", fit_question(prompt, width).join("\r\n"));
        let _ = out.flush();
        loop {
            let Ok(event) = crossterm::event::read() else {
                break None;
            };
            let Event::Key(key) = event else { continue };
            match on_key(key) {
                KeyStep::Echo(text) => {
                    let _ = write!(out, "{text}");
                    let _ = out.flush();
                }
                KeyStep::Done(answer) => break answer,
            }
        }
    };
    // Raw mode is off again: a plain newline ends the question's line.
    let _ = writeln!(out);
    answer
}

/// The question as screen lines of at most `width - 1` cells, broken at word boundaries (and around CJK
/// characters) like the notices, so a narrow terminal never splits a word; the last line keeps the question's
/// trailing space before the answer.
pub fn fit_question(prompt: &str, width: usize) -> Vec<String> {
    let text = prompt.trim_end();
    let tail = &prompt[text.len()..];
    let mut lines = crate::ui::render::wrap_hanging(text, width.saturating_sub(1).max(10), 0);
    if let Some(last) = lines.last_mut() {
        last.push_str(tail);
    }
    lines
}

/// Shows `prompt` and reads one answer; `None` when cancelled or stdin ended. Without a terminal the answer is
/// a plain line from stdin.
pub fn read_answer(prompt: &str) -> Option<String> {
    let mut input = LineInput::default();
    ask(
        prompt,
        |line| Some(line.to_string()),
        |key| match input.feed(key) {
            Step::Echo(text) => KeyStep::Echo(text),
            Step::Done(text) => KeyStep::Done(Some(text)),
            Step::Cancel => KeyStep::Done(None),
        },
    )
}

/// Shows `prompt` and reads one key among `choices` (case-insensitive), with no Enter needed; `None` for ESC,
/// Ctrl-C, Ctrl-D or Enter. Other keys are ignored. Without a terminal the first character of a stdin line counts.
pub fn read_choice(prompt: &str, choices: &[char]) -> Option<char> {
    let pick = |c: char| {
        let c = c.to_ascii_lowercase();
        choices.contains(&c).then_some(c)
    };
    ask(
        prompt,
        |line| line.trim().chars().next().and_then(pick),
        |key| {
            if key.kind == KeyEventKind::Release {
                return KeyStep::Echo(String::new());
            }
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                KeyCode::Esc | KeyCode::Enter => KeyStep::Done(None),
                KeyCode::Char('c' | 'd') if ctrl => KeyStep::Done(None),
                KeyCode::Char(c) if !ctrl => match pick(c) {
                    // Echo the chosen key before the question's line ends.
                    Some(c) => {
                        print!("{c}");
                        KeyStep::Done(Some(c))
                    }
                    None => KeyStep::Echo(String::new()),
                },
                _ => KeyStep::Echo(String::new()),
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Lang, Msg, tr};
    use crate::ui::render::visible_width;

    #[test]
    fn the_rewind_question_wraps_between_words_at_40_columns() {
        let en = fit_question(tr(Lang::En, Msg::RewindPick), 40);
        assert_eq!(
            en,
            [
                "Rewind to before which message? Number",
                "+ Enter (Enter or ESC cancels): "
            ]
        );
        let how = fit_question(tr(Lang::En, Msg::RewindHow), 40);
        assert_eq!(
            how,
            [
                "Rewind [c] code  [v] conversation  [b]",
                "both (Enter or ESC cancels): "
            ]
        );
        for lang in [Lang::En, Lang::Zh] {
            for msg in [Msg::RewindPick, Msg::RewindHow] {
                let text = tr(lang, msg);
                let lines = fit_question(text, 40);
                assert!(lines.iter().all(|l| visible_width(l) <= 39), "{lines:?}");
                // Nothing is lost or added but the breaks.
                let joined: String = lines.concat().split_whitespace().collect();
                let words: String = text.split_whitespace().collect();
                assert_eq!(joined, words);
            }
        }
    }

    #[test]
    fn a_question_that_fits_is_one_line_with_its_trailing_space() {
        assert_eq!(fit_question("Delete? [y/N] ", 80), ["Delete? [y/N] "]);
    }
}
