//! A provider 400 "context length exceeded" mid-task: the agent compacts and the retried request succeeds.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;
use paicli::agent::{AgentEvent, AgentOptions, CompactionStage, EventLog, Notice, TurnOutcome};
use paicli::llm::client::{ClientOptions, OpenAiClient};
use paicli::llm::retry::RetryPolicy;

use super::Project;
use crate::support::{Reply, ScriptedServer, provider_for};

/// Checks pairing on a recorded request body.
fn assert_body_paired(messages: &[Value]) {
    let mut i = 0;
    while i < messages.len() {
        assert_ne!(messages[i]["role"], "tool", "orphan tool message at {i}");
        let calls = messages[i]["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        i += 1;
        for call in calls {
            assert_eq!(messages[i]["role"], "tool");
            assert_eq!(messages[i]["tool_call_id"], call["id"]);
            i += 1;
        }
    }
}

#[tokio::test]
async fn context_length_error_compacts_and_retries_once() {
    let project = Project::new();
    let big: String = (0..120)
        .map(|l| format!("line {l} of a long source file\n"))
        .collect();
    project.write("big.txt", &big);
    project.write("small.txt", "small\n");
    let summary = REQUIRED_HEADINGS
        .iter()
        .map(|h| format!("{h}\n- read big.txt"))
        .collect::<Vec<_>>()
        .join("\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "read_file", json!({"path": "big.txt"}))]),
        Reply::tool_calls([("call_2", "read_file", json!({"path": "small.txt"}))]),
        Reply::status(
            400,
            r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
        ),
        Reply::text(summary),
        Reply::text("finished after compaction"),
    ]);
    let options = ClientOptions {
        connect_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(50),
        },
    };
    let client = OpenAiClient::new(provider_for(&server, "custom", "m", None), options).unwrap();
    let mut agent = project.agent(
        Arc::new(client),
        AgentOptions::default(),
        Vec::new(),
        Vec::new(),
    );
    let events = EventLog::default();
    let report = agent
        .run_turn("summarize the files", &events, CancellationToken::new())
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "finished after compaction"),
        "{:?}",
        report.outcome
    );

    let requests = server.chat_requests();
    assert_eq!(
        requests.len(),
        5,
        "one failed request, one summary, one retry"
    );
    let overflowed = requests[2].body["messages"].as_array().unwrap().clone();
    let summary_request = requests[3].body["messages"].as_array().unwrap().clone();
    assert!(
        summary_request[0]["content"]
            .as_str()
            .unwrap()
            .starts_with("You compress")
    );
    assert!(
        requests[3]
            .body
            .get("tools")
            .is_none_or(|t| t.as_array().is_none_or(Vec::is_empty))
    );
    let retried = requests[4].body["messages"].as_array().unwrap().clone();
    assert_eq!(retried[0], overflowed[0], "the system prompt is unchanged");
    assert!(
        retried[1]["content"]
            .as_str()
            .unwrap()
            .starts_with("[conversation summary]")
    );
    assert!(retried.len() < overflowed.len());
    assert!(requests[4].raw_body.len() < requests[2].raw_body.len());
    assert_body_paired(&retried);
    assert!(events.events().iter().any(|e| matches!(
        e,
        AgentEvent::Compacted {
            stage: CompactionStage::Summarized,
            ..
        }
    )));
    // Four answered requests (two tool calls, the summary, the retry), each reporting 10 prompt tokens: the
    // summary's tokens count for the turn and the session like any other request's.
    assert_eq!(report.usage.prompt_tokens, 40, "{:?}", report.usage);
    assert_eq!(agent.session_usage().prompt_tokens, 40);
}

#[tokio::test]
async fn a_second_overflow_fails_the_turn_instead_of_looping() {
    let project = Project::new();
    let server = ScriptedServer::with_replies([Reply::status(
        400,
        r#"{"error":{"message":"context length exceeded"}}"#,
    )]);
    let client = OpenAiClient::new(
        provider_for(&server, "custom", "m", None),
        ClientOptions::default(),
    )
    .unwrap();
    let mut agent = project.agent(
        Arc::new(client),
        AgentOptions::default(),
        Vec::new(),
        Vec::new(),
    );
    let report = agent
        .run_turn("hi", &EventLog::default(), CancellationToken::new())
        .await;
    assert!(
        matches!(
            report.outcome,
            TurnOutcome::Failed(paicli::llm::LlmError::ContextLengthExceeded { .. })
        ),
        "{:?}",
        report.outcome
    );
    assert_eq!(
        server.chat_requests().len(),
        1,
        "nothing to compact: no retry"
    );
}

#[tokio::test]
async fn an_overflow_after_a_failed_summary_still_sends_a_request_that_fits() {
    let project = Project::new();
    for name in ["a", "b", "c"] {
        let body: String = (0..150)
            .map(|l| format!("{name} line {l}: part of a long source file\n"))
            .collect();
        project.write(&format!("{name}.txt"), &body);
    }
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "read_file", json!({"path": "a.txt"}))]),
        Reply::tool_calls([("call_2", "read_file", json!({"path": "b.txt"}))]),
        Reply::tool_calls([("call_3", "read_file", json!({"path": "c.txt"}))]),
        // paicli's estimate says this fits; the provider's tokenizer disagrees.
        Reply::status(
            400,
            r#"{"error":{"message":"maximum context length exceeded","code":"context_length_exceeded"}}"#,
        ),
        // The summarizer is down.
        Reply::status(500, r#"{"error":{"message":"summarizer down"}}"#),
        Reply::text("finished after trimming"),
    ]);
    let options = ClientOptions {
        connect_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_attempts: 1,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(1),
        },
    };
    let client = OpenAiClient::new(provider_for(&server, "custom", "m", None), options).unwrap();
    let window = 16_000;
    let mut agent = project.agent(
        Arc::new(client),
        AgentOptions {
            context_window: window,
            ..AgentOptions::default()
        },
        Vec::new(),
        Vec::new(),
    );
    let events = EventLog::default();
    let report = agent
        .run_turn("read the three files", &events, CancellationToken::new())
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "finished after trimming"),
        "{:?}",
        report.outcome
    );
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 6, "overflow, one summary call, one retry");
    let overflowed = requests[3].body["messages"].as_array().unwrap().clone();
    let retried = requests[5].body["messages"].as_array().unwrap().clone();
    assert_eq!(retried[0], overflowed[0], "the system prompt is unchanged");
    assert_eq!(retried[1], overflowed[1], "the user's message stays");
    assert_eq!(
        retried.last(),
        overflowed.last(),
        "the latest result stays whole"
    );
    assert_body_paired(&retried);
    // The provider said the first request passed 16k; the retry is sized as if the estimate were that far off,
    // down to the summary threshold (10k of 16k) or below.
    let ratio = window as f64 / requests[3].raw_body.len() as f64;
    assert!(
        (requests[5].raw_body.len() as f64) * ratio <= 10_000.0 * 1.1,
        "{} -> {} bytes",
        requests[3].raw_body.len(),
        requests[5].raw_body.len()
    );
    let notices: Vec<Notice> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::Notice { notice } => Some(notice),
            _ => None,
        })
        .collect();
    assert!(notices.contains(&Notice::ContextOverflow), "{notices:?}");
    assert!(
        notices
            .iter()
            .any(|n| matches!(n, Notice::CompactionSkipped { .. })),
        "{notices:?}"
    );
    assert_eq!(
        notices
            .iter()
            .filter(|n| matches!(n, Notice::ContextTrimmed { .. }))
            .count(),
        1,
        "said once: {notices:?}"
    );
}
