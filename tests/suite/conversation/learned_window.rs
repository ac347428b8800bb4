//! A context window the server reports after the first request is out: the agent plans with it from its next
//! decision on, and a model switch in the meantime discards it (it was the old model's).

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::{AgentOptions, EventLog, Thresholds, TurnOutcome};
use paicli::llm::{ChatResponse, ToolCall};

use super::project_with_files;
use crate::support::agent_harness::FnClient;

const TABLE_WINDOW: u64 = 128_000;
const SERVED_WINDOW: u64 = 8_192;

/// A model that reads one file, then answers; the window "arrives" while its first request is being answered.
fn model_answering_the_window(tx: tokio::sync::oneshot::Sender<u64>) -> Arc<FnClient> {
    let tx = Mutex::new(Some(tx));
    FnClient::new(move |_| {
        // The first request takes the sender; the second finds it gone.
        let first = match tx.lock().unwrap().take() {
            Some(tx) => {
                // The receiver may be gone already (a model switch dropped it).
                let _ = tx.send(SERVED_WINDOW);
                true
            }
            None => false,
        };
        Ok(if !first {
            ChatResponse {
                content: "done".into(),
                finish_reason: Some("stop".into()),
                ..ChatResponse::default()
            }
        } else {
            ChatResponse {
                tool_calls: vec![ToolCall {
                    id: "call_0".into(),
                    name: "read_file".into(),
                    arguments: json!({"path": "f0.txt"}).to_string(),
                }],
                finish_reason: Some("tool_calls".into()),
                ..ChatResponse::default()
            }
        })
    })
}

fn options() -> AgentOptions {
    AgentOptions {
        context_window: TABLE_WINDOW,
        ..AgentOptions::default()
    }
}

#[tokio::test]
async fn a_window_learned_after_the_first_request_is_used_from_the_next_decision() {
    let project = project_with_files(1, 100);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut agent = project.agent(model_answering_the_window(tx), options(), vec![], vec![]);
    agent.learn_window(rx);
    assert_eq!(agent.context_window(), TABLE_WINDOW);
    let events = EventLog::default();
    let report = agent
        .run_turn("read f0.txt", &events, CancellationToken::new())
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    assert_eq!(agent.context_window(), SERVED_WINDOW);
    assert_eq!(agent.thresholds(), Thresholds::for_window(SERVED_WINDOW));
}

#[tokio::test]
async fn a_model_switch_discards_the_window_still_awaited_for_the_old_model() {
    let project = project_with_files(1, 100);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let client = model_answering_the_window(tx);
    let mut agent = project.agent(client.clone(), options(), vec![], vec![]);
    agent.learn_window(rx);
    agent.set_model(client, 64_000);
    let events = EventLog::default();
    agent
        .run_turn("read f0.txt", &events, CancellationToken::new())
        .await;
    assert_eq!(agent.context_window(), 64_000);
}
