//! The agent's live progress for terminals: a command's output lines as `ToolOutput` events before its result,
//! the full text as `ToolCallOutput`, and none of it for sinks that do not ask (`-p`, JSON).

#![allow(clippy::unwrap_used)]

use std::sync::Mutex;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::{AgentEvent, AgentOptions, EventLog, EventSink};

use crate::support::agent_harness::{FnClient, Project, answer, calls};

/// Records events and asks for live tool output, as the REPL's terminal sink does.
#[derive(Default)]
struct LiveSink(Mutex<Vec<AgentEvent>>);

impl EventSink for LiveSink {
    fn emit(&self, event: AgentEvent) {
        self.0.lock().unwrap().push(event);
    }

    fn wants_tool_output(&self) -> bool {
        true
    }
}

fn script() -> std::sync::Arc<FnClient> {
    FnClient::script(vec![
        calls(&[(
            "call_1",
            "execute_command",
            json!({"command": "printf 'one\\ntwo\\r\\nthree'"}),
        )]),
        answer("done"),
    ])
}

#[tokio::test]
async fn command_output_lines_arrive_in_order_before_the_result() {
    let project = Project::new();
    let mut agent = project.agent(script(), AgentOptions::default(), vec![], vec![]);
    let sink = LiveSink::default();
    agent
        .run_turn("run it", &sink, CancellationToken::new())
        .await;
    let events = sink.0.into_inner().unwrap();
    let progress: Vec<(usize, &AgentEvent)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e,
                AgentEvent::ToolOutput { .. }
                    | AgentEvent::ToolCallOutput { .. }
                    | AgentEvent::ToolCallFinished { .. }
            )
        })
        .collect();
    let shown: Vec<AgentEvent> = progress.iter().map(|(_, e)| (*e).clone()).collect();
    let line = |l: &str| AgentEvent::ToolOutput {
        id: "call_1".into(),
        line: l.into(),
    };
    // The last line has no newline: it is in the result, not in the live view.
    assert_eq!(&shown[..2], &[line("one"), line("two")]);
    assert_eq!(
        shown[2],
        AgentEvent::ToolCallOutput {
            id: "call_1".into(),
            text: "one\ntwo\r\nthree".into()
        }
    );
    assert!(matches!(shown[3], AgentEvent::ToolCallFinished { .. }));
}

#[tokio::test]
async fn sinks_that_do_not_ask_get_no_live_output() {
    let project = Project::new();
    let mut agent = project.agent(script(), AgentOptions::default(), vec![], vec![]);
    let log = EventLog::default();
    agent
        .run_turn("run it", &log, CancellationToken::new())
        .await;
    let events = log.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, AgentEvent::ToolCallFinished { .. })),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| matches!(
            e,
            AgentEvent::ToolOutput { .. } | AgentEvent::ToolCallOutput { .. }
        )),
        "{events:?}"
    );
}
