//! `/clear` forgets the turn starts and the provider's count with the history; a model switch brings its own
//! window and compaction thresholds.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::{
    Agent, AgentEvent, AgentOptions, CompactionStage, EventLog, Thresholds, TurnOutcome,
};
use paicli::llm::{ChatResponse, ToolCall};

use super::{project_with_files, summary};
use crate::support::agent_harness::{FnClient, Request, assert_valid_pairing};

fn is_summary(r: &Request) -> bool {
    r.tools.is_empty() && r.messages[0].text().starts_with("You compress")
}

/// A model whose turns read `reads_per_turn[t]` files (`f0.txt`, `f1.txt`, … in order) and then answer
/// "done"; it reports no usage, so the agent measures with its estimate. Summary requests get a summary.
fn reading_model(reads_per_turn: &[usize], files: usize) -> Arc<FnClient> {
    let plan: Vec<bool> = reads_per_turn
        .iter()
        .flat_map(|&reads| std::iter::repeat_n(true, reads).chain([false]))
        .collect();
    let step = AtomicUsize::new(0);
    let read = AtomicUsize::new(0);
    FnClient::new(move |r| {
        if is_summary(r) {
            return Ok(ChatResponse {
                content: summary(),
                ..ChatResponse::default()
            });
        }
        let k = step.fetch_add(1, Ordering::SeqCst);
        if !plan.get(k).copied().unwrap_or(false) {
            return Ok(ChatResponse {
                content: "done".into(),
                finish_reason: Some("stop".into()),
                ..ChatResponse::default()
            });
        }
        let n = read.fetch_add(1, Ordering::SeqCst);
        Ok(ChatResponse {
            tool_calls: vec![ToolCall {
                id: format!("call_{n}"),
                name: "read_file".into(),
                arguments: json!({"path": format!("f{}.txt", n % files)}).to_string(),
            }],
            finish_reason: Some("tool_calls".into()),
            ..ChatResponse::default()
        })
    })
}

fn compactions(events: &EventLog) -> Vec<(CompactionStage, u64)> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::Compacted {
                stage,
                tokens_before,
                ..
            } => Some((stage, tokens_before)),
            _ => None,
        })
        .collect()
}

async fn run(agent: &mut Agent, task: &str) -> EventLog {
    let events = EventLog::default();
    let report = agent
        .run_turn(task, &events, CancellationToken::new())
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "done"),
        "{task}: {:?}",
        report.outcome
    );
    events
}

#[tokio::test]
async fn clear_then_a_compaction_inside_the_new_turn_sends_paired_requests() {
    let project = project_with_files(6, 8_000);
    // Three short turns (their starts, 1 3 5, outlived `/clear` before the fix), then six large reads in one
    // turn, which pass the summary threshold inside that turn.
    let client = reading_model(&[0, 0, 0, 6], 6);
    let options = AgentOptions {
        context_window: 8_000,
        ..AgentOptions::default()
    };
    let mut agent = project.agent(client.clone(), options, vec![], vec![]);
    for t in 0..3 {
        run(&mut agent, &format!("question {t}")).await;
    }
    agent.clear_history();
    assert_eq!(agent.history().len(), 1);
    assert!(agent.conversation().turn_starts().is_empty());

    let events = run(&mut agent, "read the six files").await;
    assert!(
        compactions(&events)
            .iter()
            .any(|(stage, _)| *stage == CompactionStage::Summarized),
        "the turn was summarized: {:?}",
        compactions(&events)
    );
    let requests = client.requests();
    assert_eq!(requests.iter().filter(|r| !is_summary(r)).count(), 3 + 7);
    for r in &requests {
        assert_valid_pairing(&r.messages);
    }
    for r in requests.iter().filter(|r| !is_summary(r)) {
        assert_eq!(r.messages[0].text(), "system prompt");
    }
    // The request after the summary carries the summary and the kept tail of the new turn, nothing older.
    let last = requests.last().unwrap();
    assert!(
        last.messages[1]
            .text()
            .starts_with("[conversation summary]")
    );
    assert!(
        !last
            .messages
            .iter()
            .any(|m| m.text().starts_with("question"))
    );
}

#[tokio::test]
async fn switching_to_a_model_with_a_smaller_window_lowers_the_thresholds() {
    let project = project_with_files(5, 4_000);
    let first = reading_model(&[5], 5);
    let mut agent = project.agent(first.clone(), AgentOptions::default(), vec![], vec![]);
    assert_eq!(agent.thresholds(), Thresholds::for_window(128_000));
    let events = run(&mut agent, "read five files").await;
    assert!(
        compactions(&events).is_empty(),
        "far below 128k: {:?}",
        compactions(&events)
    );
    let before = agent.context_tokens();

    let second = reading_model(&[0], 1);
    agent.set_model(second.clone(), 8_000);
    assert_eq!(agent.context_window(), 8_000);
    assert_eq!(agent.thresholds(), Thresholds::for_window(8_000));
    let events = run(&mut agent, "anything else?").await;
    let compacted = compactions(&events);
    let (stage, tokens_before) = compacted.first().copied().expect("compacted");
    assert_eq!(stage, CompactionStage::ClearedToolResults);
    assert!(
        tokens_before >= Thresholds::for_window(8_000).clearing
            && tokens_before < Thresholds::for_window(128_000).clearing,
        "{tokens_before} (history was {before})"
    );
    assert_eq!(
        first.requests().len(),
        6,
        "later requests go to the new model"
    );
    let sent = second.requests();
    assert!(!sent.is_empty());
    for r in &sent {
        assert_valid_pairing(&r.messages);
    }
    assert!(sent.last().unwrap().messages.iter().any(|m| {
        m.text()
            .starts_with(paicli::agent::context::compaction::CLEARED_MARKER)
            || m.text().starts_with("[conversation summary]")
    }));
}
