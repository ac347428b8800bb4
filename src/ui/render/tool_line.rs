//! One compact line per tool call: name and key arguments when it starts, outcome when it ends.

use unicode_width::UnicodeWidthChar;

use super::wrap::{fold_words, wrap_plain};
use super::{Style, format_count};
use crate::agent::{DiagnosticsFile, ToolStatus};
use crate::text::{Lang, Msg, tr, visible};

/// Output lines shown under a command's result line.
pub const PREVIEW_LINES: usize = 3;
/// Lines a wrapped reason may take before it is folded.
const REASON_LINES: usize = 3;
/// Columns of a call's summary on its result line (when calls ran side by side).
const ABOUT_CHARS: usize = 40;

/// Longest argument summary shown, in display columns.
const ARGS_COLUMNS: usize = 100;

/// `● name summary` for a call that is about to run; `summary` is what its tool picked to sum it up
/// (`AgentEvent::ToolCallStarted::summary`), folded to one short line here. Both are shown as the approval prompt
/// shows them: a newline, an escape or a bidi override is a visible mark, so a command cannot draw a line of its own.
pub fn tool_started_line(name: &str, summary: &str, style: Style) -> String {
    let args = shown_summary(summary);
    let head = format!("{} {}", style.green("●"), style.bold(&visible(name)));
    if args.is_empty() {
        head
    } else {
        format!("{head} {}", style.dim(&args))
    }
}

/// `  ⎿ name ok · 12 ms · 1.2k chars` (or denied / failed / aborted with the reason).
pub fn tool_finished_line(
    name: &str,
    status: ToolStatus,
    detail: &str,
    duration_ms: u64,
    output_chars: usize,
    style: Style,
) -> String {
    let took = format_duration_ms(duration_ms);
    let detail = fold_words(&one_line(detail), ARGS_COLUMNS);
    let body = match status {
        ToolStatus::Ok => style.green(&format!(
            "ok · {took} · {} chars",
            format_count(output_chars as u64)
        )),
        ToolStatus::Denied => style.yellow(&format!("denied · {detail}")),
        ToolStatus::Failed => style.red(&format!("failed · {took} · {detail}")),
        ToolStatus::Cancelled => style.yellow(&format!("aborted by user · {took}")),
    };
    format!("  {} {} {body}", style.dim("⎿"), name)
}

/// A finished call as the REPL shows it.
#[derive(Clone, Copy, Debug)]
pub struct ToolResultView<'a> {
    pub name: &'a str,
    /// What the call was about (`a.txt`), shown after the name when calls ran side by side; empty otherwise.
    pub about: &'a str,
    pub status: ToolStatus,
    /// The reason for denials and failures (a failed command's output follows its first line).
    pub detail: &'a str,
    pub duration_ms: u64,
    pub output_chars: usize,
    /// The call's output, when the line should preview it (commands).
    pub output: Option<&'a str>,
}

/// The result line (its reason wrapped at word boundaries, folded after a few lines), then for commands the
/// first lines of the output, dimmed, and how many more Ctrl+O shows.
pub fn tool_result_lines(
    view: &ToolResultView<'_>,
    lang: Lang,
    style: Style,
    width: usize,
) -> Vec<String> {
    let took = format_duration_ms(view.duration_ms);
    let mut detail_lines = view.detail.lines();
    let reason = detail_lines.next().unwrap_or("").trim();
    let (body, paint): (String, fn(Style, &str) -> String) = match view.status {
        ToolStatus::Ok => (
            format!(
                "{} · {took} · {} {}",
                tr(lang, Msg::ToolOk),
                format_count(view.output_chars as u64),
                tr(lang, Msg::ToolChars)
            ),
            Style::green,
        ),
        ToolStatus::Denied => (
            format!(
                "{} · {}",
                tr(lang, Msg::ToolDenied),
                denial_for_person(reason, lang)
            ),
            Style::yellow,
        ),
        ToolStatus::Failed => (
            format!("{} · {took} · {reason}", tr(lang, Msg::ToolFailed)),
            Style::red,
        ),
        ToolStatus::Cancelled => (
            format!("{} · {took}", tr(lang, Msg::ToolAborted)),
            Style::yellow,
        ),
    };
    let name = if view.about.is_empty() {
        view.name.to_string()
    } else {
        format!("{} {}", view.name, truncate(view.about, ABOUT_CHARS))
    };
    let head = format!("⎿ {name} ");
    let mut wrapped: Vec<String> = wrap_plain(&format!("{head}{body}"), width.saturating_sub(3), 2)
        .into_iter()
        .map(|l| format!("  {l}"))
        .collect();
    let head = format!("  {head}");
    let mut folded = false;
    if wrapped.len() > REASON_LINES {
        wrapped.truncate(REASON_LINES);
        if let Some(last) = wrapped.last_mut() {
            *last = format!(
                "{}…",
                fold_words(last, width.saturating_sub(2)).trim_end_matches('…')
            );
        }
        folded = true;
    }
    let mut lines = Vec::new();
    for (i, line) in wrapped.iter().enumerate() {
        if i == 0 && line.starts_with(&head) {
            let rest = &line[head.len()..];
            lines.push(format!(
                "  {} {} {}",
                style.dim("⎿"),
                name,
                paint(style, rest)
            ));
        } else {
            lines.push(paint(style, line));
        }
    }
    let output: Vec<&str> = match view.output {
        Some(text) => text.lines().collect(),
        None if view.status == ToolStatus::Failed => detail_lines.collect(),
        None => Vec::new(),
    };
    let output: Vec<&str> = output
        .into_iter()
        .skip_while(|l| l.trim().is_empty())
        .collect();
    for line in output.iter().take(PREVIEW_LINES) {
        lines.push(style.dim(&truncate(&format!("    {line}"), width.saturating_sub(1))));
    }
    let more = output.len().saturating_sub(PREVIEW_LINES);
    let expand = tr(lang, Msg::CtrlOExpand);
    if more > 0 {
        lines.push(style.dim(&format!(
            "    … {more} {} ({expand})",
            tr(
                lang,
                if more == 1 {
                    Msg::OneMoreLine
                } else {
                    Msg::MoreLines
                }
            )
        )));
    } else if folded {
        lines.push(style.dim(&format!("    ({expand})")));
    }
    lines
}

/// `⚠ 2 new problems in Hello.java`: what the model was shown after an edit, in one line.
pub fn diagnostics_line(
    files: &[DiagnosticsFile],
    lang: Lang,
    style: Style,
    width: usize,
) -> String {
    let parts: Vec<String> = files
        .iter()
        .map(|f| match lang {
            Lang::En if f.problems == 1 => format!("1 new problem in {}", f.path),
            Lang::En => format!("{} new problems in {}", f.problems, f.path),
            Lang::Zh => format!("{} 中有 {} 个新问题", f.path, f.problems),
        })
        .collect();
    let sep = if lang == Lang::Zh { "；" } else { "; " };
    let line = format!("  ⚠ {}", parts.join(sep));
    style.yellow(&fold_words(&line, width.saturating_sub(1)))
}

fn format_duration_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// A call's summary as the tool line shows it: on one line, at most `ARGS_COLUMNS` wide.
pub(super) fn shown_summary(summary: &str) -> String {
    fold_words(&one_line(&visible(summary)), ARGS_COLUMNS)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cuts `text` to `columns` display columns, marking the cut with `…`.
pub(super) fn truncate(text: &str, columns: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w > columns.saturating_sub(1) {
            out.push('…');
            return out;
        }
        used += w;
        out.push(ch);
    }
    out
}

/// A refusal as the person reads it: their own no in their language (the model's text says what to do next,
/// which is not for them), anything else as the gate worded it.
fn denial_for_person(reason: &str, lang: Lang) -> std::borrow::Cow<'_, str> {
    if reason.starts_with("USER_REJECTED") {
        tr(lang, Msg::ToolRejectedByYou).into()
    } else if reason.starts_with("USER_SKIPPED") {
        tr(lang, Msg::ToolSkippedByYou).into()
    } else {
        reason.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denied(detail: &str, lang: Lang) -> String {
        let view = ToolResultView {
            about: "",
            name: "execute_command",
            status: ToolStatus::Denied,
            detail,
            duration_ms: 0,
            output_chars: 0,
            output: None,
        };
        tool_result_lines(&view, lang, Style::new(false), 120).join("\n")
    }

    #[test]
    fn the_persons_own_no_is_worded_for_them_in_their_language() {
        let rejected = "USER_REJECTED: the user rejected this call. Do not retry it unchanged.";
        let zh = denied(rejected, Lang::Zh);
        assert!(zh.contains("你拒绝了这次调用"), "{zh}");
        assert!(
            !zh.contains("USER_REJECTED") && !zh.contains("retry"),
            "{zh}"
        );
        assert!(denied(rejected, Lang::En).contains("denied · you said no"));
        let skipped = denied("USER_SKIPPED: the user skipped this call", Lang::En);
        assert!(skipped.contains("you skipped it"), "{skipped}");
        // A gate's own refusal is the explanation: it stays.
        let guard = denied("PATH_OUT_OF_BOUNDS: outside the root", Lang::Zh);
        assert!(
            guard.contains("PATH_OUT_OF_BOUNDS: outside the root"),
            "{guard}"
        );
    }
}
