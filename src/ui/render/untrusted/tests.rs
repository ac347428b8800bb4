#![allow(clippy::unwrap_used)]

use super::*;
use crate::agent::ToolStatus;
use crate::protocol::ToolKind;

const FORGED: &str = "echo PWNED > pwned.txt #\x1b[2K\x1b[1G● execute_command cargo test --quiet";

#[test]
fn a_command_is_one_visible_line_as_the_approval_prompt_shows_it() {
    let event = screened(AgentEvent::ToolCallStarted {
        id: "c1".into(),
        name: "execute_command\x1b]0;t\x07".into(),
        arguments: String::new(),
        kind: ToolKind::Execute,
        summary: format!("{FORGED}\nrm -rf x"),
    });
    let AgentEvent::ToolCallStarted { name, summary, .. } = event else {
        panic!("not a start");
    };
    assert_eq!(name, "execute_command<U+001B>]0;t<U+0007>");
    assert_eq!(
        summary,
        "echo PWNED > pwned.txt #<U+001B>[2K<U+001B>[1G● execute_command cargo test --quiet<U+000A>rm -rf x"
    );
}

#[test]
fn model_text_keeps_its_lines_and_shows_its_escapes() {
    let event = screened(AgentEvent::TextDelta {
        text: "# Title\n\x1b]52;c;cHduZWQ=\x07\x1b[2J\r\nok".into(),
    });
    assert_eq!(
        event,
        AgentEvent::TextDelta {
            text: "# Title\n<U+001B>]52;c;cHduZWQ=<U+0007><U+001B>[2J\nok".into()
        }
    );
}

#[test]
fn command_output_drops_colours_and_shows_every_other_escape() {
    let line = screened(AgentEvent::ToolOutput {
        id: "c1".into(),
        line: "\x1b[32mok\x1b[0m \x1b]52;c;eA==\x07 10%\r20%".into(),
    });
    assert_eq!(
        line,
        AgentEvent::ToolOutput {
            id: "c1".into(),
            line: "ok <U+001B>]52;c;eA==<U+0007> 10% 20%".into()
        }
    );
    let full = screened(AgentEvent::ToolCallOutput {
        id: "c1".into(),
        text: "\x1b[1mbold\x1b[0m\nnext\x1b[H".into(),
    });
    assert_eq!(
        full,
        AgentEvent::ToolCallOutput {
            id: "c1".into(),
            text: "bold\nnext<U+001B>[H".into()
        }
    );
}

#[test]
fn a_plan_tasks_events_are_screened_inside_their_wrapper() {
    let event = screened(AgentEvent::PlanTaskEvent {
        task_id: "t\u{202E}1".into(),
        event: Box::new(AgentEvent::ToolCallFinished {
            id: "c".into(),
            name: "mcp__x\x1b[2J".into(),
            status: ToolStatus::Failed,
            detail: "exit 1\n\x1b[31merror\x1b[0m \u{9b}2J".into(),
            duration_ms: 1,
            output_chars: 0,
            diff: Some("+a\x1b]8;;http://x\x07\n".into()),
        }),
    });
    let AgentEvent::PlanTaskEvent { task_id, event } = event else {
        panic!("not a task event");
    };
    assert_eq!(task_id, "t<U+202E>1");
    let AgentEvent::ToolCallFinished {
        name, detail, diff, ..
    } = *event
    else {
        panic!("not a finish");
    };
    assert_eq!(name, "mcp__x<U+001B>[2J");
    assert_eq!(detail, "exit 1\nerror <U+009B>2J");
    assert_eq!(diff.as_deref(), Some("+a<U+001B>]8;;http://x<U+0007>\n"));
}

#[test]
fn notices_show_what_they_quote() {
    let notice = Notice::McpServerFailed {
        server: "srv\x1b]0;x\x07".into(),
        error: "bad\x1b[2J".into(),
    };
    for lang in [Lang::En, Lang::Zh] {
        let line = notice_line(lang, &notice);
        assert!(!line.contains('\x1b'), "{line}");
        assert!(line.contains("srv<U+001B>]0;x<U+0007>"), "{line}");
    }
}
