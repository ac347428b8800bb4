//! The ReAct loop driven by an in-process scripted model, with the real core tools in a temp project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::agent_harness::{
    self as harness, FnClient, Project, Request, Step, assert_valid_pairing,
};
use paicli::agent::{
    AgentEvent, AgentOptions, EventLog, EventSink, ExitReason, Notice, TurnOutcome,
};
use paicli::llm::{ChatResponse, LlmError, Message, Role, ToolSpec};

const HELLO: &str = "public class Hello {\n    public static void main(String[] a) {\n        System.out.println(\"Hello World\");\n    }\n}\n";

/// A temp project holding `Hello.java`.
fn hello_project() -> Project {
    let project = Project::new();
    project.write("Hello.java", HELLO);
    project
}

fn answer(text: &str) -> Step {
    Step::Reply(harness::answer(text))
}

/// Tool calls, with reasoning (kept on the assistant message for providers that echo it).
fn calls(list: &[(&str, &str, serde_json::Value)]) -> Step {
    Step::Reply(ChatResponse {
        reasoning: "let me look".into(),
        ..harness::calls(list)
    })
}

#[tokio::test]
async fn read_edit_answer_round_trip_keeps_history_paired() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        calls(&[("call_1", "read_file", json!({"path": "Hello.java"}))]),
        calls(&[(
            "call_2",
            "edit_file",
            json!({"path": "Hello.java", "old_text": "Hello World", "new_text": "Hello PaiCLI"}),
        )]),
        answer("Changed the greeting to Hello PaiCLI."),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let events = EventLog::default();
    let report = agent
        .run_turn("change the greeting", &events, CancellationToken::new())
        .await;

    match &report.outcome {
        TurnOutcome::Finished { text } => assert_eq!(text, "Changed the greeting to Hello PaiCLI."),
        other => panic!("unexpected outcome {other:?}"),
    }
    assert_eq!(report.requests, 3);
    assert_eq!(report.usage.prompt_tokens, 300);
    let source = std::fs::read_to_string(project.root.join("Hello.java")).unwrap();
    assert!(
        source.contains("System.out.println(\"Hello PaiCLI\");"),
        "{source}"
    );

    let requests = client.requests();
    let second = &requests[1].messages;
    assert_eq!(second.len(), 4, "system, user, assistant call, tool result");
    assert_eq!(second[2].tool_calls[0].id, "call_1");
    assert_eq!(second[2].reasoning_content.as_deref(), Some("let me look"));
    assert_eq!(second[3].tool_call_id.as_deref(), Some("call_1"));
    let wrapped = second[3].text();
    assert!(
        wrapped.starts_with("<tool_result tool=\"read_file\" trust=\"untrusted-data\">\n"),
        "{wrapped}"
    );
    assert!(wrapped.ends_with("\n</tool_result>"), "{wrapped}");
    assert!(wrapped.contains("Hello World"), "{wrapped}");
    assert_valid_pairing(&requests[2].messages);

    // Final answers keep content only; the reasoning stays out of history.
    let last = agent.history().last().unwrap();
    assert_eq!(
        (last.role, last.reasoning_content.clone()),
        (Role::Assistant, None)
    );

    // Tool definitions are sorted and identical in every request.
    let names: Vec<&str> = requests[0].tools.iter().map(|t| t.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    for r in &requests {
        assert_eq!(
            serde_json::to_string(&r.tools).unwrap(),
            serde_json::to_string(&requests[0].tools).unwrap()
        );
    }

    let evs = events.events();
    let started: Vec<&str> = evs
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ToolCallStarted { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(started, ["read_file", "edit_file"]);
    assert!(evs.iter().any(|e| matches!(e, AgentEvent::ToolCallFinished { diff: Some(d), .. } if d.contains("+        System.out.println(\"Hello PaiCLI\");"))));
    assert!(matches!(evs.last(), Some(AgentEvent::TurnFinished { .. })));
}

#[tokio::test]
async fn parallel_calls_unknown_tools_and_bad_arguments_answer_in_call_order() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        calls(&[
            ("a", "list_dir", json!({"path": "."})),
            ("b", "no_such_tool", json!({})),
            ("c", "read_file", json!({"wrong": 1})),
            ("d", "glob_files", json!({"pattern": "*.java"})),
        ]),
        answer("done"),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let report = agent
        .run_turn(
            "look around",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    let second = &client.requests()[1].messages;
    assert_valid_pairing(second);
    let results: Vec<String> = second[3..7].iter().map(Message::text).collect();
    assert!(results[0].contains("Hello.java"), "{}", results[0]);
    assert!(results[1].contains("no_such_tool"), "{}", results[1]);
    assert!(
        results[2].contains("path"),
        "missing parameter named: {}",
        results[2]
    );
    assert!(results[3].contains("Hello.java"), "{}", results[3]);
}

/// Cancels the turn as soon as a tool call starts.
struct CancelOnToolStart {
    log: EventLog,
    cancel: CancellationToken,
}

impl EventSink for CancelOnToolStart {
    fn emit(&self, event: AgentEvent) {
        if matches!(event, AgentEvent::ToolCallStarted { .. }) {
            self.cancel.cancel();
        }
        self.log.emit(event);
    }
}

#[tokio::test]
async fn cancelling_a_running_command_leaves_a_valid_history() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        calls(&[
            (
                "call_1",
                "execute_command",
                json!({"command": "echo started; sleep 30"}),
            ),
            ("call_2", "read_file", json!({"path": "Hello.java"})),
        ]),
        answer("next turn works"),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let cancel = CancellationToken::new();
    let sink = CancelOnToolStart {
        log: EventLog::default(),
        cancel: cancel.clone(),
    };
    let started = std::time::Instant::now();
    let report = agent.run_turn("run it", &sink, cancel).await;
    assert!(
        matches!(report.outcome, TurnOutcome::Cancelled),
        "{:?}",
        report.outcome
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "cancel did not stop the command"
    );
    assert_valid_pairing(agent.history());
    let tool_texts: Vec<String> = agent
        .history()
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(Message::text)
        .collect();
    assert_eq!(tool_texts.len(), 2, "every call gets exactly one result");
    assert!(
        tool_texts.iter().all(|t| t.contains("aborted by user")),
        "{tool_texts:?}"
    );

    // The next turn sends a valid request and the model sees what happened.
    let report = agent
        .run_turn("continue", &EventLog::default(), CancellationToken::new())
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    assert_valid_pairing(&client.requests()[1].messages);
}

#[tokio::test]
async fn cancelling_mid_stream_keeps_the_partial_answer_marked() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        Step::StreamThenHang("Half an ans".into()),
        answer("ok"),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    struct CancelOnText(CancellationToken);
    impl EventSink for CancelOnText {
        fn emit(&self, event: AgentEvent) {
            if matches!(event, AgentEvent::TextDelta { .. }) {
                self.0.cancel();
            }
        }
    }
    let report = agent
        .run_turn("explain", &CancelOnText(trigger), cancel)
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Cancelled));
    let last = agent.history().last().unwrap();
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(last.text(), "Half an ans\n\n[interrupted by user]");
}

#[tokio::test]
async fn iteration_limit_ends_with_a_tool_less_partial_report() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        calls(&[("c1", "list_dir", json!({"path": "."}))]),
        calls(&[("c2", "list_dir", json!({"path": "."}))]),
        answer("Done: listed files. Verified: nothing. Not done: the edit. Next steps: rerun."),
    ]);
    let options = AgentOptions {
        max_iterations: Some(2),
        token_budget: None,
        ..AgentOptions::default()
    };
    let mut agent = project.agent(client.clone(), options, vec![], vec![]);
    let report = agent
        .run_turn("do a lot", &EventLog::default(), CancellationToken::new())
        .await;
    match &report.outcome {
        TurnOutcome::Partial { reason, text } => {
            assert_eq!(*reason, ExitReason::HardIterationLimit);
            assert!(
                text.starts_with("⚠️ partial completion (HARD_ITERATION_LIMIT)"),
                "{text}"
            );
            assert!(text.contains("Next steps: rerun."), "{text}");
        }
        other => panic!("unexpected outcome {other:?}"),
    }
    let requests = client.requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests[2].tools.is_empty(),
        "the report call offers no tools"
    );
    let instruction = requests[2].messages.last().unwrap();
    assert_eq!(instruction.role, Role::User);
    assert!(instruction.text().contains("Do not call any tools"));
    assert_valid_pairing(&requests[2].messages);
}

#[tokio::test]
async fn a_model_error_fails_the_turn_and_keeps_the_session() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        Step::Fail(LlmError::Auth {
            status: 401,
            message: "bad key".into(),
        }),
        answer("second try"),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let events = EventLog::default();
    let report = agent
        .run_turn("hi", &events, CancellationToken::new())
        .await;
    assert!(matches!(
        report.outcome,
        TurnOutcome::Failed(LlmError::Auth { .. })
    ));
    assert!(matches!(
        events.events().last(),
        Some(AgentEvent::TurnFailed { .. })
    ));
    let report = agent
        .run_turn("hi again", &EventLog::default(), CancellationToken::new())
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
}

/// Hides `execute_command` and denies `list_dir` for turns that mention "offline".
struct OfflineHook;

struct HideCommands;

impl paicli::agent::ToolFilter for HideCommands {
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec> {
        tools
            .iter()
            .filter(|t| t.name != "execute_command")
            .cloned()
            .collect()
    }
}

struct DenyListDir;

#[async_trait]
impl paicli::tools::CallGate for DenyListDir {
    async fn check(&self, call: paicli::tools::GateCall<'_>) -> paicli::tools::GateVerdict {
        if call.name == "list_dir" {
            paicli::tools::GateVerdict::deny("NO_LISTING", "not this turn")
        } else {
            paicli::tools::GateVerdict::Allow
        }
    }
}

impl paicli::agent::TurnHook for OfflineHook {
    fn begin_turn(&self, submitted: &str) -> paicli::agent::TurnScope {
        if !submitted.contains("offline") {
            return paicli::agent::TurnScope::default();
        }
        paicli::agent::TurnScope {
            gates: vec![Arc::new(DenyListDir)],
            filter: Some(Arc::new(HideCommands)),
            notices: vec![Notice::Note {
                text: "working offline".into(),
            }],
        }
    }
}

#[tokio::test]
async fn turn_hooks_filter_tools_gate_calls_and_notify_per_turn() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        calls(&[("c1", "list_dir", json!({"path": "."}))]),
        answer("ok"),
        answer("ok again"),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    agent.add_turn_hook(Arc::new(OfflineHook));
    let events = EventLog::default();
    agent
        .run_turn("stay offline please", &events, CancellationToken::new())
        .await;
    assert!(events.events().contains(&AgentEvent::Notice {
        notice: Notice::Note {
            text: "working offline".into()
        }
    }));
    let requests = client.requests();
    let names = |r: &Request| r.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    assert!(!names(&requests[0]).contains(&"execute_command".to_string()));
    assert_eq!(
        names(&requests[0]).len(),
        agent.tool_specs().len() - 1,
        "only the one tool is hidden"
    );
    assert!(
        requests[1].messages[3]
            .text()
            .contains("[denied: NO_LISTING] not this turn")
    );

    agent
        .run_turn("now online", &EventLog::default(), CancellationToken::new())
        .await;
    let requests = client.requests();
    assert_eq!(
        names(&requests[2]).len(),
        agent.tool_specs().len(),
        "the next turn has every tool again"
    );
}

fn dsml_block(tool: &str, param: &str, value: &str) -> String {
    format!(
        "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"{tool}\">\n<｜DSML｜parameter name=\"{param}\" string=\"true\">{value}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"
    )
}

fn shown_text(events: &EventLog) -> String {
    events
        .events()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn dsml_tool_calls_in_the_answer_text_run_as_real_calls() {
    let project = hello_project();
    let client = FnClient::steps(vec![
        answer(&format!(
            "Let me look.\n{}",
            dsml_block("list_dir", "path", ".")
        )),
        answer("It holds Hello.java."),
    ]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let events = EventLog::default();
    let report = agent
        .run_turn("what is here?", &events, CancellationToken::new())
        .await;
    match &report.outcome {
        TurnOutcome::Finished { text } => assert_eq!(text, "It holds Hello.java."),
        other => panic!("unexpected outcome {other:?}"),
    }
    assert!(
        !shown_text(&events).contains("DSML"),
        "markup never reaches the screen"
    );
    assert!(shown_text(&events).starts_with("Let me look."));
    let second = &client.requests()[1].messages;
    assert_valid_pairing(second);
    assert_eq!(second[2].text(), "Let me look.");
    assert_eq!(second[2].tool_calls[0].id, "dsml_call_0");
    assert_eq!(second[2].tool_calls[0].name, "list_dir");
    assert!(
        second[3].text().contains("Hello.java"),
        "{}",
        second[3].text()
    );
}

#[tokio::test]
async fn dsml_that_cannot_run_is_shown_with_a_notice() {
    let project = hello_project();
    let content = format!(
        "Trying.\n{}",
        dsml_block("format_disk", "device", "/dev/sda")
    );
    let client = FnClient::steps(vec![answer(&content)]);
    let mut agent = project.agent(client.clone(), AgentOptions::default(), vec![], vec![]);
    let events = EventLog::default();
    let report = agent
        .run_turn("go", &events, CancellationToken::new())
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    assert_eq!(
        shown_text(&events),
        content,
        "the held-back text is shown after all"
    );
    assert!(events.events().iter().any(|e| matches!(
        e,
        AgentEvent::Notice { notice: notice @ Notice::DsmlNotRun { .. } }
            if notice.to_string().starts_with("tool call not executed") && notice.to_string().contains("format_disk")
    )));
    assert_eq!(client.requests().len(), 1, "nothing ran, the turn ends");
}
