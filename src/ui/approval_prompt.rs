//! The terminal approval prompt (spec §6.3): single key presses, read from the keyboard owner while the task
//! runs (never from a second reader of the terminal). The prompt itself is a pure function over a key source and
//! a writer, so every key can be tested without a terminal. Keys: `y`/Enter allow, `a` allow for the session,
//! `p` allow always in this project, `n` deny, `r` deny with a reason, `m` edit the arguments, `v` / Ctrl+O the
//! whole change (through the pager when taller than the screen), `?` the keys, ESC / Ctrl-C deny and cancel the
//! task.

mod keys;
mod line_edit;
mod preview;
mod show;

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use crate::guard::path_guard::PathGuard;
use crate::policy::approval::{ApprovalAnswer, ApprovalRequest, Approver, RuleLabel};
use crate::text::{Lang, Msg, tr, visible};
use crate::ui::keyboard::{Input, Keyboard, is_cancel_key};
use crate::ui::render::Surface;
use crate::ui::render::{Style, marked};

pub use keys::{KeySource, LineKeys, typed};
pub use line_edit::{Edited, edit_line};
pub use preview::{Preview, preview};
pub use show::{
    FOLD_AFTER_CHARS, FOLD_AFTER_LINES, Look, escape_hidden_json, render_request, rule_text,
    whole_change,
};

/// How the person answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Asked {
    Answer(ApprovalAnswer),
    /// ESC or Ctrl-C: deny, and cancel the whole task.
    CancelTask,
}

/// Asks at the terminal: the prompt on stderr, the keys from the session's keyboard owner.
pub struct TerminalApprover {
    keyboard: Keyboard,
    guard: Option<Arc<PathGuard>>,
    lang: Lang,
    no_color: bool,
    /// One question at a time: a second prompt would take the keys from the first.
    asking: Arc<Mutex<()>>,
}

impl TerminalApprover {
    /// An approver reading keys from `keyboard`, reading files for diffs through `guard`.
    pub fn new(
        keyboard: Keyboard,
        guard: Option<Arc<PathGuard>>,
        lang: Lang,
        no_color: bool,
    ) -> Self {
        TerminalApprover {
            keyboard,
            guard,
            lang,
            no_color,
            asking: Arc::default(),
        }
    }

    fn ask_blocking(&self, request: &ApprovalRequest, task: Option<&str>) -> io::Result<Asked> {
        let _one = self.asking.lock().unwrap_or_else(|e| e.into_inner());
        let shown = preview(&request.args, self.guard.as_deref());
        let surface = Surface::detect(self.no_color);
        let look = Look {
            lang: self.lang,
            style: surface.style,
            width: surface.width,
            height: crossterm::terminal::size().map_or(24, |(_, h)| usize::from(h)),
        };
        match self.keyboard.listen() {
            // Raw mode is on while the keyboard owner reads: lines end in \r\n.
            Some(mut listener) => prompt_approval(
                request,
                task,
                shown.as_ref(),
                &mut listener,
                &mut CrLf(io::stderr().lock()),
                &look,
            ),
            None => prompt_approval(
                request,
                task,
                shown.as_ref(),
                &mut LineKeys::new(io::stdin().lock()),
                &mut io::stderr().lock(),
                &look,
            ),
        }
    }

    /// Asks about `request`, naming the plan `task` whose sub-agent asks (`[B] write_file wants …`).
    pub async fn ask_for_task(
        &self,
        request: &ApprovalRequest,
        task: Option<String>,
    ) -> ApprovalAnswer {
        let approver = TerminalApprover {
            keyboard: self.keyboard.clone(),
            guard: self.guard.clone(),
            lang: self.lang,
            no_color: self.no_color,
            asking: Arc::clone(&self.asking),
        };
        let request = request.clone();
        let asked =
            tokio::task::spawn_blocking(move || approver.ask_blocking(&request, task.as_deref()))
                .await;
        match asked {
            Ok(Ok(Asked::Answer(answer))) => answer,
            Ok(Ok(Asked::CancelTask)) => {
                self.keyboard.cancel_task();
                ApprovalAnswer::Reject {
                    reason: Some("they cancelled the whole task instead of answering".to_string()),
                }
            }
            Ok(Err(e)) => ApprovalAnswer::Reject {
                reason: Some(format!("the approval prompt failed: {e}")),
            },
            Err(_) => ApprovalAnswer::Reject {
                reason: Some("the approval prompt stopped".to_string()),
            },
        }
    }
}

#[async_trait]
impl Approver for TerminalApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.ask_for_task(request, None).await
    }

    fn rule_not_saved(&self, error: &str) {
        let style = Surface::detect(self.no_color).style;
        let text = tr(self.lang, Msg::ApprovalRuleNotSaved).replace("{error}", &visible(error));
        // Raw mode is still on while the task runs.
        eprint!("  {}\r\n", style.yellow(&format!("! {text}")));
    }
}

/// Writes `\n` as `\r\n` (raw mode does not return the carriage).
pub struct CrLf<W>(pub W);

impl<W: Write> Write for CrLf<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0;
        for (i, b) in buf.iter().enumerate() {
            if *b == b'\n' {
                self.0.write_all(&buf[start..i])?;
                self.0.write_all(b"\r\n")?;
                start = i + 1;
            }
        }
        self.0.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Shows `request` (with its `preview`, and the plan `task` asking, if any) on `out` and reads the answer from
/// `keys`.
pub fn prompt_approval(
    request: &ApprovalRequest,
    task: Option<&str>,
    preview: Option<&Preview>,
    keys: &mut impl KeySource,
    out: &mut impl Write,
    look: &Look,
) -> io::Result<Asked> {
    render_request(request, task, preview, look, out)?;
    let style = look.style;
    let whole = preview.and_then(|p| whole_change(p, look));
    loop {
        write!(out, "{} ", question(request, whole.is_some(), look))?;
        out.flush()?;
        let Some(input) = keys.next_input() else {
            writeln!(out)?;
            return Ok(Asked::Answer(ApprovalAnswer::Reject {
                reason: Some("no answer was given".to_string()),
            }));
        };
        let key = match input {
            Input::Key(key) => key,
            Input::Paste(_) => {
                writeln!(out, "\n  {}", style.dim(look.tr(Msg::ApprovalUnknownKey)))?;
                continue;
            }
        };
        if is_cancel_key(&key) {
            writeln!(out, "\n  {}", style.red(look.tr(Msg::ApprovalCancelled)))?;
            return Ok(Asked::CancelTask);
        }
        let ctrl_o =
            key.code == KeyCode::Char('o') && key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(lines) = whole
            .as_ref()
            .filter(|_| ctrl_o || key.code == KeyCode::Char('v'))
        {
            writeln!(out)?;
            show_whole(lines, keys, out, look)?;
            continue;
        }
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            writeln!(out, "\n  {}", style.dim(look.tr(Msg::ApprovalUnknownKey)))?;
            continue;
        }
        let rule =
            |r: &Option<RuleLabel>| r.as_ref().map(|r| rule_text(r, look)).unwrap_or_default();
        // The answer line wraps at word boundaries under its text, coloured per line after wrapping.
        let done = |out: &mut dyn Write,
                    paint: fn(Style, &str) -> String,
                    mark: &str,
                    text: &str,
                    answer|
         -> io::Result<Asked> {
            writeln!(out)?;
            for line in marked(mark, text, look.width.saturating_sub(2)) {
                writeln!(out, "  {}", paint(style, &line))?;
            }
            Ok(Asked::Answer(answer))
        };
        match key.code {
            KeyCode::Enter | KeyCode::Char('y' | 'Y') => {
                let text = look.tr(Msg::ApprovalAllowed);
                return done(out, Style::green, "✓", text, ApprovalAnswer::Approve);
            }
            KeyCode::Char('a' | 'A') if request.session_rule.is_some() => {
                let text = look
                    .tr(Msg::ApprovalAllowedSession)
                    .replace("{rule}", &rule(&request.session_rule));
                return done(
                    out,
                    Style::green,
                    "✓",
                    &text,
                    ApprovalAnswer::ApproveForSession,
                );
            }
            KeyCode::Char('p' | 'P') if request.project_rule.is_some() => {
                let text = look
                    .tr(Msg::ApprovalAllowedProject)
                    .replace("{rule}", &rule(&request.project_rule));
                return done(
                    out,
                    Style::green,
                    "✓",
                    &text,
                    ApprovalAnswer::ApproveForProject,
                );
            }
            KeyCode::Char('u' | 'U') if request.unsandboxed => {
                let text = look.tr(Msg::ApprovalAllowedUnsandboxed);
                return done(
                    out,
                    Style::yellow,
                    "✓",
                    text,
                    ApprovalAnswer::ApproveUnsandboxed,
                );
            }
            KeyCode::Char('n' | 'N') => {
                let text = look.tr(Msg::ApprovalDenied);
                return done(
                    out,
                    Style::red,
                    "✗",
                    text,
                    ApprovalAnswer::Reject { reason: None },
                );
            }
            KeyCode::Char('r' | 'R') => {
                writeln!(out)?;
                let prompt = look.tr(Msg::ApprovalReasonPrompt);
                match edit_line(keys, out, prompt, "", look.width)? {
                    None => return Ok(Asked::Answer(ApprovalAnswer::Reject { reason: None })),
                    Some(Edited::Back) => continue,
                    Some(Edited::Done(reason)) => {
                        let reason = reason.trim().to_string();
                        let text = style.red(&format!("✗ {}", look.tr(Msg::ApprovalDenied)));
                        writeln!(out, "  {text}")?;
                        return Ok(Asked::Answer(ApprovalAnswer::Reject {
                            reason: (!reason.is_empty()).then_some(reason),
                        }));
                    }
                }
            }
            KeyCode::Char('m' | 'M') => {
                writeln!(out)?;
                if let Some(asked) = edit_args(request, keys, out, look)? {
                    return Ok(asked);
                }
            }
            KeyCode::Char('?') => {
                writeln!(out)?;
                for line in help_table(&help(request, whole.is_some(), look), look.width) {
                    writeln!(out, "{line}")?;
                }
            }
            _ => writeln!(out, "\n  {}", style.dim(look.tr(Msg::ApprovalUnknownKey)))?,
        }
    }
}

/// The whole change: through the pager when it is taller than the screen (the question must come back into
/// view after it), else printed.
fn show_whole(
    lines: &[String],
    keys: &mut impl KeySource,
    out: &mut impl Write,
    look: &Look,
) -> io::Result<()> {
    out.flush()?;
    if lines.len() + 2 > look.height && keys.page(lines) {
        return Ok(());
    }
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `Approve? [y/Enter] yes  [a] …  [?] keys`, offering only the keys this request has (`whole`: a change it can
/// show in full).
fn question(request: &ApprovalRequest, whole: bool, look: &Look) -> String {
    let mut keys: Vec<String> = Vec::new();
    match &request.session_rule {
        Some(rule) => {
            keys.push(look.tr(Msg::KeyYes).to_string());
            keys.push(
                look.tr(Msg::KeySession)
                    .replace("{rule}", &rule_text(rule, look)),
            );
        }
        None => keys.push(look.tr(Msg::KeyYesEveryTime).to_string()),
    }
    if request.project_rule.is_some() {
        keys.push(look.tr(Msg::KeyProject).to_string());
    }
    if request.unsandboxed {
        keys.push(look.tr(Msg::KeyUnsandboxed).to_string());
    }
    for msg in [Msg::KeyNo, Msg::KeyReason, Msg::KeyEdit] {
        keys.push(look.tr(msg).to_string());
    }
    if whole {
        keys.push(look.tr(Msg::KeyWhole).to_string());
    }
    keys.push(look.tr(Msg::KeyHelp).to_string());
    // The line is long: it breaks between keys (a key wider than the screen wraps at its words), and only then
    // is the question word made bold, so colour codes never count as width.
    let asked = look.tr(Msg::ApprovalQuestion);
    let max = look.width.saturating_sub(1).max(20);
    // The question word and the first key stay together.
    let mut items = vec![format!(
        "{asked} {}",
        keys.first().map_or("", String::as_str)
    )];
    items.extend(keys.into_iter().skip(1));
    let mut lines = crate::ui::render::pack(&items, "  ", max);
    if let Some(first) = lines.first_mut()
        && let Some(rest) = first.strip_prefix(asked)
    {
        *first = format!("{}{rest}", look.style.bold(asked));
    }
    lines.join("\n")
}

/// The `?` lines (`key  what it does`, the key column padded in the translation) laid out in two columns, so a
/// key wider than the others (`ESC, Ctrl-C`) keeps the descriptions aligned and long ones wrap under their column.
fn help_table(lines: &[String], width: usize) -> Vec<String> {
    let rows: Vec<(&str, &str)> = lines
        .iter()
        .map(|line| match line.trim_end().split_once("  ") {
            Some((key, what)) => (key.trim(), what.trim()),
            None => ("", line.trim()),
        })
        .collect();
    let rows: Vec<crate::ui::wrap::Row<'_>> = rows
        .iter()
        .map(|(name, description)| crate::ui::wrap::Row { name, description })
        .collect();
    crate::ui::wrap::two_columns(&rows, width, 2, &|d: &str| d.to_string())
}

/// What `?` shows: every key, with the rule `a` and `p` would remember.
fn help(request: &ApprovalRequest, whole: bool, look: &Look) -> Vec<String> {
    let mut lines = vec![look.tr(Msg::ApprovalHelpYes).to_string()];
    if let Some(rule) = &request.session_rule {
        lines.push(
            look.tr(Msg::ApprovalHelpSession)
                .replace("{rule}", &rule_text(rule, look)),
        );
    }
    if let Some(rule) = &request.project_rule {
        lines.push(
            look.tr(Msg::ApprovalHelpProject)
                .replace("{rule}", &rule_text(rule, look)),
        );
    }
    if request.session_rule.is_none() {
        lines.push(look.tr(Msg::ApprovalHelpNoRemember).to_string());
    }
    if request.unsandboxed {
        lines.push(look.tr(Msg::ApprovalHelpUnsandboxed).to_string());
    }
    for msg in [
        Msg::ApprovalHelpNo,
        Msg::ApprovalHelpReason,
        Msg::ApprovalHelpEdit,
    ] {
        lines.push(look.tr(msg).to_string());
    }
    if whole {
        lines.push(look.tr(Msg::ApprovalHelpWhole).to_string());
    }
    lines.push(look.tr(Msg::ApprovalHelpCancel).to_string());
    lines
}

/// `m`: edits the arguments as one line of JSON until it parses to an object (`Some`), or ESC goes back to the
/// keys (`None`).
fn edit_args(
    request: &ApprovalRequest,
    keys: &mut impl KeySource,
    out: &mut impl Write,
    look: &Look,
) -> io::Result<Option<Asked>> {
    let mut text = escape_hidden_json(&Value::Object(request.args.clone()).to_string());
    loop {
        let prompt = look.tr(Msg::ApprovalEditPrompt);
        let rows = (prompt.width() + text.width()) / look.width.max(1) + 1;
        if rows + 4 > look.height {
            let chars = text.chars().count().to_string();
            let say = look.tr(Msg::ApprovalTooLongToEdit).replace("{n}", &chars);
            writeln!(out, "  {}", look.style.yellow(&say))?;
            return Ok(None);
        }
        match edit_line(keys, out, prompt, &text, look.width)? {
            None => {
                return Ok(Some(Asked::Answer(ApprovalAnswer::Reject {
                    reason: Some("no answer was given".to_string()),
                })));
            }
            Some(Edited::Back) => return Ok(None),
            Some(Edited::Done(edited)) => {
                match serde_json::from_str::<Value>(edited.trim()) {
                    Ok(Value::Object(args)) => {
                        let done = look
                            .style
                            .green(&format!("✓ {}", look.tr(Msg::ApprovalEdited)));
                        writeln!(out, "  {done}")?;
                        return Ok(Some(Asked::Answer(ApprovalAnswer::Modify(args))));
                    }
                    Ok(_) => {
                        writeln!(out, "  {}", look.style.red(look.tr(Msg::ApprovalNotObject)))?
                    }
                    Err(e) => writeln!(
                        out,
                        "  {}",
                        look.style.red(&format!(
                            "{}: {}",
                            look.tr(Msg::ApprovalInvalidJson),
                            visible(&e.to_string())
                        ))
                    )?,
                }
                text = edited;
            }
        }
    }
}

#[cfg(test)]
mod tests;
