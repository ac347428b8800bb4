//! A 60-request session in an 8k window: old results are cleared, then old turns summarized, at the thresholds;
//! every request fits, stays paired, and starts with the same system prompt bytes.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;
use paicli::agent::{AgentEvent, AgentOptions, CompactionStage, EventLog, Thresholds, TurnOutcome};
use paicli::llm::tokens::estimate_request;
use paicli::llm::{ChatResponse, Message, Role, Usage};

use super::{FnClient, Project, Request, assert_valid_pairing, calls};

const WINDOW: u64 = 8_000;
const TURNS: usize = 15;
const CALLS_PER_TURN: usize = 3;
/// Bulk for user messages and answers, so turns (not only tool results) fill the window.
const NOTES: &str = "Keep the public API stable, explain each change, and list the files touched with the \
reason for each one. Prefer small functions, add tests beside the code, and run the whole suite before \
reporting. Mention anything that looked risky or surprising, and anything left undone, with a short reason. \
Do not reformat unrelated code; keep the diff minimal and readable for the reviewer.";

fn is_summary_request(r: &Request) -> bool {
    r.tools.is_empty() && r.messages[0].text().starts_with("You compress")
}

fn summary() -> String {
    REQUIRED_HEADINGS
        .iter()
        .map(|h| format!("{h}\n- kept short for the test"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replies like a provider: usage computed from the request with the estimator.
fn with_usage(mut reply: ChatResponse, r: &Request) -> ChatResponse {
    reply.usage = Some(Usage {
        prompt_tokens: estimate_request(&r.messages, &r.tools),
        completion_tokens: 20,
        ..Usage::default()
    });
    reply
}

#[tokio::test]
async fn sixty_requests_in_a_small_window_compact_at_the_thresholds() {
    let project = Project::new();
    for i in 0..12 {
        let body: String = (0..40)
            .map(|l| format!("file {i} line {l}: some source text here\n"))
            .collect();
        project.write(&format!("f{i}.txt"), &body);
    }
    let agent_requests = AtomicUsize::new(0);
    let client = FnClient::new(move |r| {
        if is_summary_request(r) {
            return Ok(with_usage(
                ChatResponse {
                    content: summary(),
                    ..ChatResponse::default()
                },
                r,
            ));
        }
        let k = agent_requests.fetch_add(1, Ordering::SeqCst);
        let reply = if k % (CALLS_PER_TURN + 1) == CALLS_PER_TURN {
            super::answer(&format!("turn {} done. {NOTES}", k / (CALLS_PER_TURN + 1)))
        } else {
            let id = format!("call_{k}");
            calls(&[(
                id.as_str(),
                "read_file",
                json!({"path": format!("f{}.txt", k % 12)}),
            )])
        };
        Ok(with_usage(reply, r))
    });
    let options = AgentOptions {
        context_window: WINDOW,
        ..AgentOptions::default()
    };
    let mut agent = project.agent(client.clone(), options, Vec::new(), Vec::new());
    let thresholds = Thresholds::for_window(WINDOW);
    assert_eq!(agent.thresholds(), thresholds);
    let events = EventLog::default();
    for turn in 0..TURNS {
        let report = agent
            .run_turn(
                &format!("task {turn}: read the next files. {NOTES}"),
                &events,
                CancellationToken::new(),
            )
            .await;
        assert!(
            matches!(&report.outcome, TurnOutcome::Finished { text } if text.starts_with(&format!("turn {turn} done."))),
            "turn {turn}: {:?}",
            report.outcome
        );
    }

    let requests = client.requests();
    let agent_requests: Vec<&Request> =
        requests.iter().filter(|r| !is_summary_request(r)).collect();
    assert_eq!(agent_requests.len(), TURNS * (CALLS_PER_TURN + 1));
    let system = serde_json::to_vec(&Message::system("system prompt")).unwrap();
    for (i, r) in requests.iter().enumerate() {
        let tokens = estimate_request(&r.messages, &r.tools);
        assert!(tokens < WINDOW, "request {i} has {tokens} tokens");
        assert_valid_pairing(&r.messages);
    }
    for r in &agent_requests {
        assert_eq!(
            serde_json::to_vec(&r.messages[0]).unwrap(),
            system,
            "system prompt bytes changed"
        );
        assert_eq!(
            r.messages.iter().filter(|m| m.role == Role::System).count(),
            1
        );
    }

    let compactions: Vec<(CompactionStage, u64, u64)> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                ..
            } => Some((stage, tokens_before, tokens_after)),
            _ => None,
        })
        .collect();
    let first_clear = compactions
        .iter()
        .position(|c| c.0 == CompactionStage::ClearedToolResults)
        .expect("old results were cleared");
    let first_summary = compactions
        .iter()
        .position(|c| c.0 == CompactionStage::Summarized)
        .expect("old turns were summarized");
    assert!(
        first_clear < first_summary,
        "clearing comes first: {compactions:?}"
    );
    for (stage, before, after) in &compactions {
        let threshold = match stage {
            CompactionStage::ClearedToolResults => thresholds.clearing,
            CompactionStage::Summarized => thresholds.summary,
        };
        assert!(
            *before >= threshold,
            "{stage:?} fired below its threshold: {before} < {threshold}"
        );
        assert!(after < before);
    }
    // Nothing compacts below the clearing threshold: the first requests went out untouched.
    let first_cleared_request = agent_requests
        .iter()
        .position(|r| {
            r.messages
                .iter()
                .any(|m| m.text().starts_with("[old tool result cleared]"))
        })
        .unwrap();
    let before_clear = agent_requests[first_cleared_request - 1];
    assert!(
        estimate_request(&before_clear.messages, &before_clear.tools) < thresholds.clearing + 1_000
    );
    // The summary replaced old turns and kept the history paired and the system prompt first.
    let history = agent.history();
    assert_valid_pairing(history);
    assert!(
        history[1].text().starts_with("[conversation summary]"),
        "{}",
        history[1].text()
    );
    assert!(
        history
            .iter()
            .any(|m| m.text().starts_with("task 14: read the next files"))
    );
}

/// Three answered turns, then `/compact` with the given summary replies.
async fn compact_after_three_turns(
    summaries: Vec<&'static str>,
) -> (
    paicli::agent::Agent,
    std::sync::Arc<FnClient>,
    Result<(), paicli::agent::CompactionError>,
    Vec<Message>,
) {
    let queue = std::sync::Mutex::new(std::collections::VecDeque::from(summaries));
    let client = FnClient::new(move |r| {
        if is_summary_request(r) {
            let text = queue.lock().unwrap().pop_front().unwrap_or("no headings");
            let text = if text == "GOOD" {
                summary()
            } else {
                text.to_string()
            };
            return Ok(ChatResponse {
                content: text,
                ..ChatResponse::default()
            });
        }
        Ok(super::answer(&format!("answer to: {NOTES}")))
    });
    let project = Project::new();
    let mut agent = project.agent(
        client.clone(),
        AgentOptions::default(),
        Vec::new(),
        Vec::new(),
    );
    for turn in 0..3 {
        agent
            .run_turn(
                &format!("question {turn}. {NOTES}"),
                &EventLog::default(),
                CancellationToken::new(),
            )
            .await;
    }
    let before = agent.history().to_vec();
    let result = agent
        .compact_now(
            Some("the parser bug"),
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    (agent, client, result, before)
}

#[tokio::test]
async fn compact_now_keeps_the_last_turn_and_passes_the_focus() {
    let (agent, client, result, before) = compact_after_three_turns(vec!["GOOD"]).await;
    result.unwrap();
    let history = agent.history();
    assert_eq!(history[0], before[0], "system prompt untouched");
    assert!(history[1].text().starts_with("[conversation summary]"));
    assert!(history[1].text().contains(REQUIRED_HEADINGS[3]));
    assert_eq!(history[2].role, Role::Assistant, "acknowledgement");
    assert_eq!(
        &history[3..],
        &before[before.len() - 2..],
        "the last turn stays verbatim"
    );
    let requests = client.requests();
    let summary_request = requests.iter().find(|r| is_summary_request(r)).unwrap();
    assert!(
        summary_request.messages[1]
            .text()
            .contains("the parser bug")
    );
}

#[tokio::test]
async fn a_summary_without_headings_is_retried_once_then_kept_as_prose() {
    let (agent, _, result, _) = compact_after_three_turns(vec!["no headings", "GOOD"]).await;
    result.unwrap();
    assert!(
        agent.history()[1]
            .text()
            .starts_with("[conversation summary]")
    );

    // Issue 21: prose without the headings is still a summary, kept under "Done work and evidence".
    let (agent, client, result, before) =
        compact_after_three_turns(vec!["no headings", "still none"]).await;
    result.unwrap();
    let kept = agent.history()[1].text();
    assert!(kept.starts_with("[conversation summary]"), "{kept}");
    assert!(kept.contains(paicli::agent::context::compaction::summarize::UNSTRUCTURED_NOTE));
    let done = kept.find(REQUIRED_HEADINGS[2]).unwrap();
    assert!(
        kept[done..].contains("still none"),
        "the repaired answer is kept"
    );
    assert!(agent.history().len() < before.len());
    assert!(
        !agent.summary_backoff().repair_allowed(),
        "not asked to repair again"
    );
    let summary_requests: Vec<Request> = client
        .requests()
        .into_iter()
        .filter(is_summary_request)
        .collect();
    assert_eq!(summary_requests.len(), 2, "one retry");
    assert!(
        summary_requests[1]
            .messages
            .last()
            .unwrap()
            .text()
            .contains("four headings")
    );

    // Only an empty answer fails, without a repair request, and the history is kept.
    let (agent, client, result, before) = compact_after_three_turns(vec!["  "]).await;
    assert!(
        matches!(result, Err(paicli::agent::CompactionError::Summary(_))),
        "{result:?}"
    );
    assert_eq!(agent.history(), &before[..], "the original history is kept");
    assert_eq!(
        client
            .requests()
            .iter()
            .filter(|r| is_summary_request(r))
            .count(),
        1
    );
}
