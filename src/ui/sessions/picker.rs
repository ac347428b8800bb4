//! The resume picker's list (date, first message, turns, model) and how a typed choice is read.

use crate::protocol::message::Role;
use crate::session::Conversation;
use crate::session::ledger::SessionSummary;
use crate::text::{Lang, Msg, trf};
use crate::ui::render::{Style, render_markdown};

/// Sessions the picker and `/sessions` show.
pub const PICKER_LIMIT: usize = 20;

/// Characters of the first message shown per line.
const FIRST_MESSAGE_CHARS: usize = 60;

/// One numbered line per session: `  1. 2026-12-01 10:00  3 turns  model  id  first message`; the running
/// session (`current`) is marked, and a fork names its original (`[fork of <id>]`).
pub fn summary_lines(
    lang: Lang,
    summaries: &[SessionSummary],
    current: Option<&str>,
) -> Vec<String> {
    summaries
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let date = s.started.get(..16).unwrap_or(&s.started).replace('T', " ");
            let first = s.first_input.as_deref().map(one_line).unwrap_or_default();
            let mark = if current == Some(s.id.as_str()) {
                "*"
            } else {
                " "
            };
            // Padded so the columns after it line up; "1 turn " keeps the width of "n turns".
            let msg = if s.turns == 1 {
                Msg::SessionTurnOne
            } else {
                Msg::SessionTurns
            };
            let turns = trf(lang, msg, &[("count", &format!("{:>3}", s.turns))]);
            // A fork starts with its original's history: without the mark the two read the same.
            let fork = s
                .forked_from
                .as_deref()
                .map(|from| format!("[{}]  ", trf(lang, Msg::SessionForkOf, &[("from", &from)])))
                .unwrap_or_default();
            format!(
                "{mark}{:>2}. {date}  {turns}  {}  {}  {fork}{first}",
                i + 1,
                s.model,
                s.id
            )
        })
        .collect()
}

/// The first line of `text`, cut to [`FIRST_MESSAGE_CHARS`].
fn one_line(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if line.chars().count() > FIRST_MESSAGE_CHARS {
        let cut: String = line.chars().take(FIRST_MESSAGE_CHARS - 1).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

/// Lines of an answer shown after resuming.
const ANSWER_LINES: usize = 4;

/// Where a resumed conversation left off: the last user input (`› …`) and the start of the answer after it,
/// rendered as the answer was shown (Markdown at `width`, in `style`). Text from the ledger is made visible.
pub fn last_exchange(conversation: &Conversation, width: usize, style: Style) -> Vec<String> {
    let messages = conversation.messages();
    let Some(&start) = conversation.turn_starts().last() else {
        return Vec::new();
    };
    let turn = &messages[start..];
    let mut lines = Vec::new();
    // The user's input is the turn's last user message before the model's first reply (a recall note comes first).
    let reply_at = turn
        .iter()
        .position(|m| m.role != Role::User)
        .unwrap_or(turn.len());
    if let Some(input) = turn[..reply_at].last() {
        let input = crate::text::visible(&one_line(&input.text())).into_owned();
        lines.push(format!("  › {input}"));
    }
    let answer = turn
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant && m.tool_calls.is_empty())
        .map(|m| m.text())
        .unwrap_or_default();
    let rendered = render_markdown(&answer, width.saturating_sub(4).max(20), style);
    let shown: Vec<&String> = rendered.iter().filter(|l| !l.trim().is_empty()).collect();
    lines.extend(shown.iter().take(ANSWER_LINES).map(|l| format!("    {l}")));
    if shown.len() > ANSWER_LINES {
        lines.push("    …".to_string());
    }
    lines
}

/// The 0-based index of the session chosen by typing its number (1..=`count`).
pub fn parse_choice(answer: &str, count: usize) -> Option<usize> {
    let n: usize = answer.trim().parse().ok()?;
    (1..=count).contains(&n).then(|| n - 1)
}
