//! What the prompt shows before the question: the tool and its risk, why it asks, the preview (diff, new file,
//! command), and the other arguments with long values folded. Every control, bidi and zero-width character is
//! made visible (`<U+202E>`), so an argument cannot hide or reorder what is shown.

use std::io::{self, Write};

use serde_json::Value;

use super::preview::Preview;
use crate::policy::approval::{ApprovalRequest, Risk, RuleLabel};
use crate::text::{Lang, Msg, is_hidden, tr, visible};
use crate::ui::render::{Style, more_lines_notice, render_diff_all, render_diff_in, task_label};

/// Chars of one argument shown before it is folded.
pub const FOLD_AFTER_CHARS: usize = 600;
/// Lines of one argument (or of a new file) shown before it is folded.
pub const FOLD_AFTER_LINES: usize = 12;

/// How the prompt looks: its language, colours and the terminal's size.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub lang: Lang,
    pub style: Style,
    pub width: usize,
    /// Rows of the terminal: the line editor redraws from its first row, which must stay on screen.
    pub height: usize,
}

impl Look {
    /// Plain text at 100 columns in `lang` (tests).
    pub fn plain(lang: Lang) -> Look {
        Look {
            lang,
            style: Style::new(false),
            width: 100,
            height: 40,
        }
    }

    pub(super) fn tr(&self, msg: Msg) -> &'static str {
        tr(self.lang, msg)
    }

    /// `text` followed by the language's colon (`: `, `：`).
    fn labelled(&self, text: &str) -> String {
        match self.lang {
            Lang::En => format!("{text}: "),
            Lang::Zh => format!("{text}："),
        }
    }
}

/// A rule in the prompt's language (control characters made visible).
pub fn rule_text(rule: &RuleLabel, look: &Look) -> String {
    let (msg, x) = match rule {
        RuleLabel::Tool(t) => (Msg::RuleEveryCall, t),
        RuleLabel::CommandPrefix(w) => (Msg::RuleCommandPrefix, w),
        RuleLabel::ExactCommand(c) => (Msg::RuleExactCommand, c),
    };
    look.tr(msg).replace("{x}", &visible(x))
}

fn risk_word(risk: Risk, look: &Look) -> &'static str {
    look.tr(match risk {
        Risk::High => Msg::RiskHigh,
        Risk::Medium => Msg::RiskMedium,
        Risk::None => Msg::RiskNone,
    })
}

/// Writes the header (tagged with the plan `task` asking, like its tool lines), why it asks, the preview and the
/// remaining (folded, escaped) arguments.
pub fn render_request(
    request: &ApprovalRequest,
    task: Option<&str>,
    preview: Option<&Preview>,
    look: &Look,
    out: &mut impl Write,
) -> io::Result<()> {
    let style = look.style;
    let header = look
        .tr(Msg::ApprovalWants)
        .replace("{tool}", &visible(&request.tool))
        .replace("{risk}", risk_word(request.risk, look));
    let tag = task.map(|id| task_label(&visible(id))).unwrap_or_default();
    writeln!(out, "\n{}", style.yellow(&format!("⚠ {tag}{header}")))?;
    let why = match &request.note {
        Some(note) => visible(note).into_owned(),
        None => look.tr(Msg::ApprovalAskMode).to_string(),
    };
    // A reason is prose: it wraps at word boundaries under its own start, never mid-word at the screen's edge.
    let why_line = format!("{}{why}", look.labelled(look.tr(Msg::ApprovalWhy)));
    for line in crate::ui::render::wrap_hanging(&why_line, look.width.saturating_sub(3).max(20), 2)
    {
        writeln!(out, "  {line}")?;
    }
    let covered = preview.map(Preview::covers).unwrap_or_default();
    for (key, value) in &request.args {
        if covered.contains(&key.as_str()) {
            continue;
        }
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let lines: Vec<String> = fold(&text)
            .lines()
            .map(|l| visible(l).into_owned())
            .collect();
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
    if let Some(preview) = preview {
        render_preview(preview, look, out)?;
    }
    Ok(())
}

/// The heading of a preview that changes a file (`edits src/a.rs`), coloured; `None` for a command.
fn change_heading(preview: &Preview, look: &Look) -> Option<String> {
    let style = look.style;
    let with_path = |msg: Msg, path: &str| look.tr(msg).replace("{path}", &visible(path));
    Some(match preview {
        Preview::Edit { path, .. } => style.bold(&with_path(Msg::DiffEdits, path)),
        Preview::EditUnmatched { path, .. } => style.yellow(&with_path(Msg::DiffNoMatch, path)),
        Preview::Overwrite { path, .. } => style.yellow(&with_path(Msg::DiffOverwrites, path)),
        Preview::NewFile { path, content } => {
            let total = content.lines().count().to_string();
            style.bold(&with_path(Msg::DiffNewFile, path).replace("{n}", &total))
        }
        Preview::Command { .. } => return None,
    })
}

fn new_file_line(line: &str, style: Style) -> String {
    format!("    {}", style.green(&format!("+{}", visible(line))))
}

/// The whole change a preview folds (every diff line, every line of a new file) under its heading; `None` for
/// a command, which is shown whole already.
pub fn whole_change(preview: &Preview, look: &Look) -> Option<Vec<String>> {
    let heading = change_heading(preview, look)?;
    let mut lines = vec![format!("  {heading}")];
    match preview {
        Preview::Edit { unified, .. }
        | Preview::EditUnmatched { unified, .. }
        | Preview::Overwrite { unified, .. } => {
            lines.extend(render_diff_all(unified, look.style));
        }
        Preview::NewFile { content, .. } => {
            lines.extend(content.lines().map(|l| new_file_line(l, look.style)));
        }
        Preview::Command { .. } => {}
    }
    Some(lines)
}

fn render_preview(preview: &Preview, look: &Look, out: &mut impl Write) -> io::Result<()> {
    let style = look.style;
    let lang = look.lang;
    if let Some(heading) = change_heading(preview, look) {
        writeln!(out, "  {heading}")?;
    }
    match preview {
        Preview::Edit { unified, .. }
        | Preview::EditUnmatched { unified, .. }
        | Preview::Overwrite { unified, .. } => diff_lines(unified, style, lang, out)?,
        Preview::NewFile { content, .. } => {
            let total = content.lines().count();
            for line in content.lines().take(FOLD_AFTER_LINES) {
                writeln!(out, "{}", new_file_line(line, style))?;
            }
            if total > FOLD_AFTER_LINES {
                let notice = more_lines_notice(look.lang, total - FOLD_AFTER_LINES);
                writeln!(out, "    {}", style.dim(&notice))?;
            }
        }
        Preview::Command { line, parts } => {
            let label = look.labelled(look.tr(Msg::ApprovalCommand));
            writeln!(out, "  {label}{}", style.bold(&visible(line)))?;
            if !parts.is_empty() {
                let n = look
                    .tr(Msg::ApprovalCommandParts)
                    .replace("{n}", &parts.len().to_string());
                writeln!(out, "  {}", look.labelled(&n).trim_end())?;
                for (i, part) in parts.iter().enumerate() {
                    writeln!(out, "    {}. {}", i + 1, visible(part))?;
                }
            }
        }
    }
    Ok(())
}

fn diff_lines(unified: &str, style: Style, lang: Lang, out: &mut impl Write) -> io::Result<()> {
    for line in render_diff_in(unified, style, lang) {
        writeln!(out, "{line}")?;
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

/// JSON text with every hidden character inside its strings written as a `\uXXXX` escape, so the editor after
/// `m` shows what is there and the text still parses to the same value.
pub fn escape_hidden_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if is_hidden(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}
