//! `/task [list|add <text>|log <id>|cancel <id>]`: this project's background tasks (`app::tasks`).

use serde_json::Value;

use super::Flow;
use crate::app::tasks::{TaskError, TaskRecord, TaskState};
use crate::text::{Msg, trf};
use crate::ui::repl::Session;

/// Characters of a task's text shown in `/task list`.
const LISTED_CHARS: usize = 60;

pub(super) fn task(session: &mut Session, args: &str) -> Flow {
    let (verb, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let rest = rest.trim();
    match verb {
        "" | "list" => list(session),
        "add" if !rest.is_empty() => add(session, rest),
        "log" => with_id(session, rest, log),
        "cancel" => with_id(session, rest, cancel),
        _ => session.say_error(session.tr(Msg::TaskUsage)),
    }
    Flow::Continue
}

fn with_id(session: &mut Session, arg: &str, f: fn(&mut Session, u64)) {
    match arg.trim_start_matches('#').parse::<u64>() {
        Ok(id) => f(session, id),
        Err(_) => session.say_error(session.tr(Msg::TaskUsage)),
    }
}

fn add(session: &mut Session, text: &str) {
    let mode = session.approval_mode();
    match session.tasks.add(text, mode) {
        Ok(id) => {
            session.say(&trf(session.lang, Msg::TaskQueued, &[("id", &id)]));
            if !session.tasks.runs_here() {
                session.say(session.tr(Msg::TaskRunsElsewhere));
            }
        }
        Err(e) => say_task_error(session, &e),
    }
}

fn list(session: &Session) {
    let tasks = session.tasks.list();
    if tasks.is_empty() {
        session.say(session.tr(Msg::TaskNone));
        return;
    }
    for task in &tasks {
        session.say(&task_line(session, task));
    }
}

/// `  3  running   fix the failing test (session 20260101-…)`.
fn task_line(session: &Session, task: &TaskRecord) -> String {
    let mut text: String = task.text.chars().take(LISTED_CHARS).collect();
    if task.text.chars().count() > LISTED_CHARS {
        text.push('…');
    }
    let mut line = format!(
        "  {:>3}  {:<10}  {}",
        task.id,
        session.tr(state_msg(task.state)),
        text.replace('\n', " ")
    );
    if let Some(id) = &task.session_id {
        line.push_str("  ");
        line.push_str(&trf(session.lang, Msg::TaskSession, &[("id", id)]));
    }
    line
}

fn state_msg(state: TaskState) -> Msg {
    match state {
        TaskState::Queued => Msg::TaskStateQueued,
        TaskState::Running => Msg::TaskStateRunning,
        TaskState::Finished => Msg::TaskStateFinished,
        TaskState::Partial => Msg::TaskStatePartial,
        TaskState::Failed => Msg::TaskStateFailed,
        TaskState::Cancelled => Msg::TaskStateCancelled,
    }
}

fn log(session: &mut Session, id: u64) {
    let lines = match session.tasks.log(id) {
        Ok(lines) => lines,
        Err(e) => return say_task_error(session, &e),
    };
    if let Some(task) = session.tasks.get(id) {
        session.say(&task_line(session, &task));
    }
    if lines.is_empty() {
        session.say(&trf(session.lang, Msg::TaskNoLog, &[("id", &id)]));
    }
    for line in lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        if let Some(text) = event_line(&line) {
            // The log holds the model's and the tools' words: shown without any escape of their own.
            session.say(&crate::text::visible_lines(&text));
        }
    }
}

/// One logged event as a line of `/task log`; `None` for events not worth a line (deltas, usage).
fn event_line(event: &Value) -> Option<String> {
    let field = |k: &str| event.get(k).and_then(Value::as_str).unwrap_or_default();
    let line = match field("type") {
        "tool_call_started" => format!("  → {} {}", field("name"), field("arguments")),
        "tool_call_finished" => {
            let detail = field("detail");
            let status = field("status");
            if detail.is_empty() {
                format!("  ← {} {status}", field("name"))
            } else {
                format!("  ← {} {status}: {detail}", field("name"))
            }
        }
        "turn_finished" | "turn_partial" => format!("  {}", field("text")),
        "turn_failed" => format!("  ✗ {}", field("error")),
        "turn_cancelled" => "  ✗ cancelled".to_string(),
        _ => return None,
    };
    Some(line)
}

fn cancel(session: &mut Session, id: u64) {
    match session.tasks.cancel(id) {
        Ok(()) => session.say(&trf(session.lang, Msg::TaskCancelling, &[("id", &id)])),
        Err(e) => say_task_error(session, &e),
    }
}

fn say_task_error(session: &Session, e: &TaskError) {
    let text = match e {
        TaskError::Unknown(id) => trf(session.lang, Msg::TaskUnknown, &[("id", id)]),
        TaskError::AlreadyDone(id) => trf(session.lang, Msg::TaskAlreadyDone, &[("id", id)]),
        TaskError::Io { .. } => trf(session.lang, Msg::TaskNotSaved, &[("error", e)]),
    };
    session.say_error(&text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn log_lines_show_calls_their_results_and_the_end() {
        let started = json!({"type": "tool_call_started", "name": "read_file", "arguments": "{\"path\":\"a\"}"});
        assert_eq!(
            event_line(&started).as_deref(),
            Some("  → read_file {\"path\":\"a\"}")
        );
        let denied = json!({"type": "tool_call_finished", "name": "write_file", "status": "denied", "detail": "nobody can approve"});
        assert_eq!(
            event_line(&denied).as_deref(),
            Some("  ← write_file denied: nobody can approve")
        );
        assert_eq!(
            event_line(&json!({"type": "turn_finished", "text": "done"})).as_deref(),
            Some("  done")
        );
        assert_eq!(
            event_line(&json!({"type": "text_delta", "text": "d"})),
            None
        );
    }
}
