//! Malformed tool-call arguments and repeated call ids from the provider never reach the next request (vLLM
//! answers 400 to either); the model still sees what it sent, in the tool result's error.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::agent::{AgentOptions, EventLog, TurnOutcome};

use super::{assert_request_valid, client_for, messages};
use crate::support::agent_harness::Project;
use crate::support::{Reply, ScriptedServer};

/// A streamed reply whose tool calls carry these raw argument strings, ending with `finish_reason`.
fn raw_tool_calls(calls: &[(&str, &str, &str)], finish_reason: &str) -> Reply {
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-raw",
            "object": "chat.completion.chunk",
            "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })
        .to_string()
    };
    let mut events = vec![chunk(json!({"role": "assistant"}), Value::Null)];
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        events.push(chunk(
            json!({"tool_calls": [{"index": index, "id": id, "type": "function",
                "function": {"name": name, "arguments": ""}}]}),
            Value::Null,
        ));
        // Split like a real stream: the argument text arrives in two fragments.
        let (head, tail) = arguments.split_at(arguments.len() / 2);
        for fragment in [head, tail] {
            events.push(chunk(
                json!({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}),
                Value::Null,
            ));
        }
    }
    events.push(chunk(json!({}), json!(finish_reason)));
    events.push("[DONE]".to_string());
    Reply::sse_events(events)
}

/// Runs one turn against `server` in a project holding `a.txt` and `b.txt`.
async fn run_turn(server: &ScriptedServer) -> Project {
    let project = Project::new();
    project.write("a.txt", "alpha\n");
    project.write("b.txt", "bravo\n");
    let mut agent = project.agent(client_for(server), AgentOptions::default(), vec![], vec![]);
    let report = agent
        .run_turn(
            "read the files",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "done"),
        "{:?}",
        report.outcome
    );
    project
}

#[tokio::test]
async fn malformed_arguments_and_a_repeated_id_leave_the_next_request_valid() {
    let server = ScriptedServer::with_replies([
        raw_tool_calls(
            &[
                ("dup", "read_file", r#"{"path": "a.txt""#),
                ("dup", "read_file", r#"{"path": "b.txt"}"#),
            ],
            "tool_calls",
        ),
        Reply::text("done"),
    ]);
    run_turn(&server).await;
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    assert_request_valid(&requests[1]);
    let sent = messages(&requests[1]);
    let calls = sent[2]["tool_calls"].as_array().unwrap();
    assert_eq!(calls[0]["id"], "dup");
    assert_eq!(calls[1]["id"], "dup_2");
    assert_eq!(calls[0]["function"]["arguments"], "{}");
    assert_eq!(calls[1]["function"]["arguments"], r#"{"path": "b.txt"}"#);
    // The model still sees what it sent, and why it was refused; the good call ran.
    let refused = sent[3]["content"].as_str().unwrap();
    assert!(
        refused.contains("not valid JSON") && refused.contains(r#"{"path": "a.txt""#),
        "{refused}"
    );
    assert!(sent[4]["content"].as_str().unwrap().contains("bravo"));
}

#[tokio::test]
async fn arguments_cut_by_the_output_limit_are_recorded_as_an_empty_object() {
    let server = ScriptedServer::with_replies([
        raw_tool_calls(
            &[(
                "w1",
                "write_file",
                r#"{"path": "c.txt", "content": "the start of a long fi"#,
            )],
            "length",
        ),
        Reply::text("done"),
    ]);
    let project = run_turn(&server).await;
    let requests = server.chat_requests();
    assert_request_valid(&requests[1]);
    let sent = messages(&requests[1]);
    assert_eq!(sent[2]["tool_calls"][0]["function"]["arguments"], "{}");
    // Nothing of a cut-off reply runs (issue 25): the model is told why and asked for a shorter step.
    assert!(
        sent[3]["content"]
            .as_str()
            .unwrap()
            .contains("the reply was cut off before this call was complete; make a shorter step"),
        "{}",
        sent[3]["content"]
    );
    assert!(
        !project.root.join("c.txt").exists(),
        "the cut call did not run"
    );
}
