//! One compact line per tool call: name and key arguments when it starts, outcome when it ends.

use serde_json::Value;
use unicode_width::UnicodeWidthChar;

use super::{Style, format_count};
use crate::agent::ToolStatus;

/// Longest argument summary shown, in display columns.
const ARGS_COLUMNS: usize = 100;

/// `● name key-args` for a call that is about to run.
pub fn tool_started_line(name: &str, arguments: &str, style: Style) -> String {
    let args = key_args(name, arguments);
    let head = format!("{} {}", style.green("●"), style.bold(name));
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
    let detail = truncate(&one_line(detail), ARGS_COLUMNS);
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

fn format_duration_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// The arguments a reader needs to recognise the call: the path, command, pattern or URL; otherwise compact JSON.
fn key_args(name: &str, arguments: &str) -> String {
    let Ok(Value::Object(args)) = serde_json::from_str::<Value>(arguments) else {
        return truncate(&one_line(arguments), ARGS_COLUMNS);
    };
    let get = |k: &str| args.get(k).and_then(Value::as_str);
    let summary = match name {
        "execute_command" => get("command").map(str::to_string),
        "grep_code" | "glob_files" => get("pattern").map(|p| match get("path") {
            Some(path) => format!("{p} in {path}"),
            None => p.to_string(),
        }),
        _ => ["path", "url", "query", "pattern", "command"]
            .iter()
            .find_map(|k| get(k))
            .map(str::to_string),
    };
    let summary = summary.unwrap_or_else(|| {
        if args.is_empty() {
            String::new()
        } else {
            Value::Object(args.clone()).to_string()
        }
    });
    truncate(&one_line(&summary), ARGS_COLUMNS)
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
