//! Each budget exit ends with one tool-less report call; the runaway guard reminds once.

use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::{AgentEvent, AgentOptions, EventLog, ExitReason, Notice, TurnOutcome};
use paicli::llm::{Message, Role};

use super::{FnClient, Project, answer, assert_valid_pairing, calls};

const REPORT: &str = "Done: read files. Verified: nothing. Not done: the fix. Next steps: rerun.";

async fn run(
    options: AgentOptions,
    replies: Vec<paicli::llm::ChatResponse>,
) -> (TurnOutcome, Arc<FnClient>) {
    let project = Project::new();
    project.write("a.txt", "alpha\n");
    project.write("b.txt", "beta\n");
    let client = FnClient::script(replies);
    let mut agent = project.agent(client.clone(), options, Vec::new(), Vec::new());
    let report = agent
        .run_turn("fix it", &EventLog::default(), CancellationToken::new())
        .await;
    assert_valid_pairing(agent.history());
    (report.outcome, client)
}

/// The last request had no tools and asked for the four-part report; the outcome is prefixed.
fn assert_finalized(outcome: &TurnOutcome, client: &FnClient, want: ExitReason) {
    match outcome {
        TurnOutcome::Partial { reason, text } => {
            assert_eq!(*reason, want);
            assert_eq!(text, &format!("⚠️ partial completion ({want})\n\n{REPORT}"));
        }
        other => panic!("expected a partial outcome, got {other:?}"),
    }
    let requests = client.requests();
    let last = requests.last().unwrap();
    assert!(last.tools.is_empty(), "the report call offers no tools");
    let instruction = last.messages.last().unwrap();
    assert_eq!(instruction.role, Role::User);
    let text = instruction.text();
    assert!(text.contains(want.as_str()), "{text}");
    for part in [
        "Do not call any tools",
        "Done",
        "Verified",
        "Not done or blocked",
        "Next steps",
    ] {
        assert!(text.contains(part), "{part} missing: {text}");
    }
    assert!(
        requests[..requests.len() - 1]
            .iter()
            .all(|r| !r.tools.is_empty())
    );
}

#[tokio::test]
async fn stagnation_stops_after_five_identical_replies() {
    let same = || calls(&[("c", "read_file", json!({"path": "a.txt"}))]);
    let mut replies: Vec<_> = (0..5).map(|_| same()).collect();
    replies.push(answer(REPORT));
    let (outcome, client) = run(AgentOptions::default(), replies).await;
    assert_finalized(&outcome, &client, ExitReason::StagnationDetected);
    assert_eq!(client.requests().len(), 6);
}

#[tokio::test]
async fn a_different_reply_resets_stagnation() {
    let a = || calls(&[("c", "read_file", json!({"path": "a.txt"}))]);
    let b = || calls(&[("c", "read_file", json!({"path": "b.txt"}))]);
    let replies = vec![
        a(),
        a(),
        a(),
        a(),
        b(),
        a(),
        a(),
        a(),
        a(),
        answer("all good"),
    ];
    let (outcome, _) = run(AgentOptions::default(), replies).await;
    assert!(
        matches!(&outcome, TurnOutcome::Finished { text } if text == "all good"),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn token_budget_stops_and_reports() {
    // Each reply reports 110 tokens: the budget of 300 is reached after three.
    let replies = vec![
        calls(&[("c1", "read_file", json!({"path": "a.txt"}))]),
        calls(&[("c2", "read_file", json!({"path": "b.txt"}))]),
        calls(&[("c3", "list_dir", json!({"path": "."}))]),
        answer(REPORT),
    ];
    let options = AgentOptions {
        token_budget: Some(300),
        ..AgentOptions::default()
    };
    let (outcome, client) = run(options, replies).await;
    assert_finalized(&outcome, &client, ExitReason::TokenBudgetExceeded);
    assert_eq!(client.requests().len(), 4);
}

#[tokio::test]
async fn hard_iteration_limit_stops_and_reports() {
    let replies = vec![
        calls(&[("c1", "read_file", json!({"path": "a.txt"}))]),
        calls(&[("c2", "read_file", json!({"path": "b.txt"}))]),
        answer(REPORT),
    ];
    let options = AgentOptions {
        max_iterations: Some(2),
        ..AgentOptions::default()
    };
    let (outcome, client) = run(options, replies).await;
    assert_finalized(&outcome, &client, ExitReason::HardIterationLimit);
}

fn reminders(messages: &[Message]) -> usize {
    messages
        .iter()
        .filter(|m| m.role == Role::User && m.text().starts_with("[runaway guard]"))
        .count()
}

#[tokio::test]
async fn runaway_reminder_comes_once_after_three_repeats() {
    let same = || calls(&[("c", "read_file", json!({"path": "a.txt"}))]);
    let replies = vec![same(), same(), same(), same(), answer("ok")];
    let project = Project::new();
    project.write("a.txt", "alpha\n");
    let client = FnClient::script(replies);
    let mut agent = project.agent(
        client.clone(),
        AgentOptions::default(),
        Vec::new(),
        Vec::new(),
    );
    let events = EventLog::default();
    let report = agent
        .run_turn("read it", &events, CancellationToken::new())
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    let requests = client.requests();
    assert_eq!(
        reminders(&requests[2].messages),
        0,
        "two repeats: no reminder yet"
    );
    let third = &requests[3].messages;
    assert_eq!(reminders(third), 1);
    let last = third.last().unwrap();
    assert!(
        last.text().contains("do not save it to memory"),
        "{}",
        last.text()
    );
    assert_eq!(
        third[third.len() - 2].role,
        Role::Tool,
        "the reminder follows the tool results"
    );
    assert_eq!(reminders(agent.history()), 1, "only once per task");
    assert_valid_pairing(agent.history());
    assert!(
        events.events().iter().any(
            |e| matches!(e, AgentEvent::Notice { notice } if *notice == Notice::RunawayReminder)
        )
    );
}

#[tokio::test]
async fn ping_pong_between_two_calls_is_reminded() {
    let a = || calls(&[("c", "read_file", json!({"path": "a.txt"}))]);
    let b = || calls(&[("c", "read_file", json!({"path": "b.txt"}))]);
    let (_, client) = run(
        AgentOptions::default(),
        vec![a(), b(), a(), b(), answer("ok")],
    )
    .await;
    let requests = client.requests();
    assert_eq!(reminders(&requests[3].messages), 0);
    let last = requests[4].messages.last().unwrap();
    assert!(last.text().contains("alternating"), "{}", last.text());
}

#[tokio::test]
async fn denied_repeats_do_not_remind() {
    // Reading outside the project is denied by the path guard every time: not the model looping on a result.
    let out = || calls(&[("c", "read_file", json!({"path": "/etc/passwd"}))]);
    let (_, client) = run(
        AgentOptions::default(),
        vec![out(), out(), out(), out(), answer("ok")],
    )
    .await;
    for r in client.requests() {
        assert_eq!(reminders(&r.messages), 0);
    }
}
