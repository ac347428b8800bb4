//! The terminal approval prompt (spec §6.3) as a pure function over a reader and a writer, so every key can be
//! tested without a terminal. It shows the tool, its risk and its arguments with long values folded and every
//! control, bidi and zero-width character made visible (`<U+202E>`), so an argument cannot hide or reorder what
//! is shown. Keys: `y`/Enter approve, `a` approve for the session, `n` reject (with an optional reason for the
//! model), `s` skip, `m` edit the arguments as JSON. Five invalid answers, or end of input, reject.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use serde_json::{Map, Value};

use async_trait::async_trait;

use crate::policy::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::ui::cancel::KeyboardControl;

/// Invalid answers after which the call is rejected.
pub const MAX_INVALID_ANSWERS: usize = 5;
/// Chars of one argument shown before it is folded.
pub const FOLD_AFTER_CHARS: usize = 600;
/// Lines of one argument shown before it is folded.
pub const FOLD_AFTER_LINES: usize = 12;

/// Asks at the terminal: the prompt on stderr, the answer from stdin (read on a blocking thread) while the turn's
/// ESC watcher is paused, so the answer is read as a normal line and not taken for a cancel key.
pub struct TerminalApprover {
    keyboard: Arc<KeyboardControl>,
}

impl TerminalApprover {
    /// An approver that borrows the keyboard from the watchers sharing `keyboard`.
    pub fn new(keyboard: Arc<KeyboardControl>) -> Self {
        TerminalApprover { keyboard }
    }
}

#[async_trait]
impl Approver for TerminalApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let request = request.clone();
        let keyboard = Arc::clone(&self.keyboard);
        let asked = tokio::task::spawn_blocking(move || {
            let _lent = keyboard.pause();
            prompt_approval(&request, &mut io::stdin().lock(), &mut io::stderr().lock())
        })
        .await;
        match asked {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => ApprovalAnswer::Reject {
                reason: Some(format!("the approval prompt failed: {e}")),
            },
            Err(_) => ApprovalAnswer::Reject {
                reason: Some("the approval prompt stopped".to_string()),
            },
        }
    }
}

/// Shows `request` on `out` and reads the answer from `input`.
pub fn prompt_approval(
    request: &ApprovalRequest,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<ApprovalAnswer> {
    render_request(request, out)?;
    let mut invalid = 0;
    loop {
        match &request.session_rule {
            Some(rule) => write!(
                out,
                "Approve? [y/Enter] yes  [a] yes, and allow {} this session  [n] no  [s] skip  [m] edit arguments: ",
                visible(rule)
            )?,
            None => write!(
                out,
                "Approve? [y/Enter] yes (asked every time)  [n] no  [s] skip  [m] edit arguments: "
            )?,
        }
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(no_answer());
        };
        let answer = line.trim();
        let (key, rest) = match answer.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (answer, ""),
        };
        match key.to_ascii_lowercase().as_str() {
            "" | "y" | "yes" => return Ok(ApprovalAnswer::Approve),
            "a" | "always" if request.session_rule.is_some() => {
                return Ok(ApprovalAnswer::ApproveForSession);
            }
            "s" | "skip" => return Ok(ApprovalAnswer::Skip),
            "n" | "no" => {
                let reason = if rest.is_empty() {
                    write!(out, "Reason for the model (optional, Enter to skip): ")?;
                    out.flush()?;
                    read_line(input)?.map(|r| r.trim().to_string())
                } else {
                    Some(rest.to_string())
                };
                return Ok(ApprovalAnswer::Reject {
                    reason: reason.filter(|r| !r.is_empty()),
                });
            }
            "m" | "modify" => match edit_args(request, input, out, &mut invalid)? {
                Some(args) => return Ok(ApprovalAnswer::Modify(args)),
                None => return Ok(too_many_invalid()),
            },
            _ => {
                invalid += 1;
                if invalid >= MAX_INVALID_ANSWERS {
                    writeln!(
                        out,
                        "No valid answer after {MAX_INVALID_ANSWERS} tries; the call is rejected."
                    )?;
                    return Ok(too_many_invalid());
                }
                let keys = if request.session_rule.is_some() {
                    "y, a, n, s or m"
                } else {
                    "y, n, s or m"
                };
                writeln!(
                    out,
                    "Please answer {keys} ({invalid}/{MAX_INVALID_ANSWERS} invalid answers)."
                )?;
            }
        }
    }
}

fn no_answer() -> ApprovalAnswer {
    ApprovalAnswer::Reject {
        reason: Some("no answer was given".to_string()),
    }
}

fn too_many_invalid() -> ApprovalAnswer {
    ApprovalAnswer::Reject {
        reason: Some(format!("no valid answer after {MAX_INVALID_ANSWERS} tries")),
    }
}

/// Reads JSON object arguments until they parse; `None` when the invalid-answer limit is reached.
fn edit_args(
    request: &ApprovalRequest,
    input: &mut impl BufRead,
    out: &mut impl Write,
    invalid: &mut usize,
) -> io::Result<Option<Map<String, Value>>> {
    writeln!(
        out,
        "Current arguments: {}",
        visible(&Value::Object(request.args.clone()).to_string())
    )?;
    loop {
        write!(out, "New arguments as one line of JSON: ")?;
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(None);
        };
        match serde_json::from_str::<Value>(line.trim()) {
            Ok(Value::Object(args)) => return Ok(Some(args)),
            Ok(_) => writeln!(out, "The arguments must be a JSON object ({{...}}).")?,
            Err(e) => writeln!(out, "Invalid JSON: {e}")?,
        }
        *invalid += 1;
        if *invalid >= MAX_INVALID_ANSWERS {
            writeln!(
                out,
                "No valid answer after {MAX_INVALID_ANSWERS} tries; the call is rejected."
            )?;
            return Ok(None);
        }
    }
}

/// One line without its newline; `None` at end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
}

/// Writes the header and the folded, escaped arguments.
pub fn render_request(request: &ApprovalRequest, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "\n⚠ {} wants to run (risk: {})",
        visible(&request.tool),
        request.risk.label()
    )?;
    if let Some(note) = &request.note {
        writeln!(out, "  note: {}", visible(note))?;
    }
    for (key, value) in &request.args {
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let lines: Vec<String> = fold(&text).lines().map(visible).collect();
        match lines.as_slice() {
            [] => writeln!(out, "  {}: \"\"", visible(key))?,
            [one] => writeln!(out, "  {}: {one}", visible(key))?,
            many => {
                writeln!(out, "  {}:", visible(key))?;
                for line in many {
                    writeln!(out, "    │ {line}")?;
                }
            }
        }
    }
    Ok(())
}

/// Keeps the first lines and chars of a long value and says how much was left out.
fn fold(text: &str) -> String {
    let total_chars = text.chars().count();
    let total_lines = text.lines().count();
    if total_chars <= FOLD_AFTER_CHARS && total_lines <= FOLD_AFTER_LINES {
        return text.to_string();
    }
    let head: String = text
        .lines()
        .take(FOLD_AFTER_LINES)
        .collect::<Vec<_>>()
        .join("\n")
        .chars()
        .take(FOLD_AFTER_CHARS)
        .collect();
    let hidden_chars = total_chars.saturating_sub(head.chars().count());
    format!(
        "{head}\n… ({hidden_chars} more chars, {total_lines} lines in all; use m to see and edit everything)"
    )
}

/// `text` with control, bidi and invisible characters replaced by `<U+XXXX>` (tabs included); one line.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

#[cfg(test)]
mod tests;
