//! Issue 21: a 30-step task in a 16k window, whatever the summarizing model answers (prose without the
//! headings, nothing, an HTTP error, or a well-formed summary), finishes with every request inside the window,
//! every call paired, the system message byte-identical, and at most three summary calls when summaries fail.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;
use paicli::agent::{AgentEvent, AgentOptions, EventLog, Notice, TurnOutcome};
use paicli::llm::client::{ClientOptions, OpenAiClient};
use paicli::llm::retry::RetryPolicy;
use paicli::llm::tokens::estimate_request;
use paicli::llm::{Message, ToolCall, ToolSpec};

use super::Project;
use crate::support::{RecordedRequest, Reply, ScriptedServer, provider_for};

const WINDOW: u64 = 16_000;
/// `Thresholds::for_window(16_000).fit`: the window less the answer's share.
const FIT: u64 = 12_000;
const STEPS: usize = 30;
/// The scripted provider's tokenizer: one token per four bytes of request body, a little denser than paicli's
/// estimate (which counts content, not JSON), as real tokenizers are on code and schemas.
const BODY_BYTES_PER_TOKEN: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Summarizer {
    Prose,
    Empty,
    HttpError,
    WellFormed,
}

fn is_summary(r: &RecordedRequest) -> bool {
    r.body["messages"][0]["content"]
        .as_str()
        .is_some_and(|s| s.starts_with("You compress"))
}

/// 1.7k characters of assistant notes for step `k`.
fn notes(k: usize) -> String {
    let line =
        format!("Step {k}: checked the module, noted the callers and the edge cases to revisit. ");
    line.repeat(1_700 / line.len() + 1)[..1_700].to_string()
}

/// The provider's count of a request, at `bytes_per_token`.
fn provider_tokens(r: &RecordedRequest, bytes_per_token: usize) -> u64 {
    (r.raw_body.len() / bytes_per_token) as u64
}

fn summary_reply(kind: Summarizer, prompt: u64) -> Reply {
    let prose = "The user asked for a review of thirty modules. The assistant read f0.txt onwards one by one, \
noting callers and edge cases; nothing was changed yet and the review continues with the next file.";
    match kind {
        Summarizer::Prose => Reply::text(prose).usage(prompt, 60),
        Summarizer::Empty => Reply::text(" \n").usage(prompt, 0),
        Summarizer::HttpError => Reply::status(500, r#"{"error":{"message":"summarizer down"}}"#),
        Summarizer::WellFormed => Reply::text(
            REQUIRED_HEADINGS
                .iter()
                .map(|h| format!("{h}\n- {prose}"))
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .usage(prompt, 200),
    }
}

/// The request as paicli's own types, to measure it with the same estimate the agent uses.
fn parse(r: &RecordedRequest) -> (Vec<Message>, Vec<ToolSpec>) {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let messages = r.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| match m["role"].as_str().unwrap() {
            "system" => Message::system(text(&m["content"])),
            "user" => Message::user(text(&m["content"])),
            "tool" => Message::tool(text(&m["tool_call_id"]), text(&m["content"])),
            _ => {
                let calls: Vec<ToolCall> = m["tool_calls"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .map(|c| ToolCall {
                        id: text(&c["id"]),
                        name: text(&c["function"]["name"]),
                        arguments: text(&c["function"]["arguments"]),
                    })
                    .collect();
                Message::assistant_tool_calls(text(&m["content"]), None, calls)
            }
        })
        .collect();
    let tools = r.body["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|t| ToolSpec {
            name: text(&t["function"]["name"]),
            description: text(&t["function"]["description"]),
            parameters: t["function"]["parameters"].clone(),
        })
        .collect();
    (messages, tools)
}

/// Every call answered by one tool message right after it, and no tool message elsewhere.
fn assert_paired(i: usize, messages: &[Value]) {
    let mut at = 0;
    while at < messages.len() {
        assert_ne!(
            messages[at]["role"], "tool",
            "request {i}: orphan result at {at}"
        );
        let calls = messages[at]["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        at += 1;
        for call in calls {
            assert_eq!(
                messages[at]["role"], "tool",
                "request {i}: call without result"
            );
            assert_eq!(messages[at]["tool_call_id"], call["id"], "request {i}");
            at += 1;
        }
    }
}

/// What one run measured.
#[derive(Debug)]
struct Run {
    summary_calls: usize,
    agent_requests: usize,
    /// Largest request: characters of its `messages` array, paicli's estimate, the provider's count.
    max_message_chars: usize,
    max_estimate: u64,
    max_provider_tokens: u64,
    trims: usize,
    requests: Vec<RecordedRequest>,
}

async fn thirty_steps(kind: Summarizer, bytes_per_token: usize) -> Run {
    let project = Project::new();
    for k in 0..STEPS {
        let body: String = (0..30)
            .map(|l| format!("module {k} line {l}: fn item_{l}() {{}}\n"))
            .collect();
        project.write(&format!("f{k}.txt"), &body);
    }
    let step = Arc::new(AtomicUsize::new(0));
    let server = ScriptedServer::with_responder(move |r| {
        let prompt = provider_tokens(r, bytes_per_token);
        if is_summary(r) {
            return summary_reply(kind, prompt);
        }
        let k = step.fetch_add(1, Ordering::SeqCst);
        if k < STEPS {
            Reply::tool_calls([(
                format!("call_{k}"),
                "read_file",
                json!({"path": format!("f{k}.txt")}),
            )])
            .content(notes(k))
            .usage(prompt, 450)
            // Large frames: the stream's framing is tested elsewhere, this suite is about sizes.
            .chunk_chars(500)
        } else {
            Reply::text("All thirty modules reviewed.").usage(prompt, 10)
        }
    });
    let options = ClientOptions {
        connect_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(10),
        // One attempt: a failing summarizer is one summary call, so the count below is the number of asks.
        retry: RetryPolicy {
            max_attempts: 1,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(1),
        },
    };
    let client = OpenAiClient::new(provider_for(&server, "custom", "m", None), options).unwrap();
    let mut agent = project.agent(
        Arc::new(client),
        AgentOptions {
            context_window: WINDOW,
            ..AgentOptions::default()
        },
        Vec::new(),
        Vec::new(),
    );
    let events = EventLog::default();
    let report = agent
        .run_turn(
            "Review modules f0.txt to f29.txt one by one.",
            &events,
            CancellationToken::new(),
        )
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "All thirty modules reviewed."),
        "{kind:?}: {:?}",
        report.outcome
    );

    let requests = server.chat_requests();
    let (summaries, work): (Vec<&RecordedRequest>, Vec<&RecordedRequest>) =
        requests.iter().partition(|r| is_summary(r));
    let system = serde_json::to_string(&work[0].body["messages"][0]).unwrap();
    for (i, r) in requests.iter().enumerate() {
        assert_paired(i, r.body["messages"].as_array().unwrap());
        let (messages, tools) = parse(r);
        let estimate = estimate_request(&messages, &tools);
        assert!(
            estimate <= FIT,
            "{kind:?}: request {i} is estimated at {estimate} tokens"
        );
        let counted = provider_tokens(r, bytes_per_token);
        assert!(
            counted <= WINDOW,
            "{kind:?}: request {i} has {counted} provider tokens"
        );
    }
    for r in &work {
        assert_eq!(
            serde_json::to_string(&r.body["messages"][0]).unwrap(),
            system,
            "{kind:?}: the system message changed"
        );
    }
    // Every summary call is billed to the turn: each reply above reports `prompt` tokens.
    let billed: u64 = requests
        .iter()
        .filter(|r| !(kind == Summarizer::HttpError && is_summary(r)))
        .map(|r| provider_tokens(r, bytes_per_token))
        .sum();
    assert_eq!(report.usage.prompt_tokens, billed, "{kind:?}");
    if std::env::var_os("PAICLI_TRACE_WINDOW").is_some() {
        for r in &requests {
            let (m, t) = parse(r);
            eprintln!(
                "{kind:?} {} msgs={} est={} provider={}",
                if is_summary(r) { "SUMMARY" } else { "agent" },
                m.len(),
                estimate_request(&m, &t),
                provider_tokens(r, bytes_per_token)
            );
        }
    }
    let trims = events
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e,
                AgentEvent::Notice {
                    notice: Notice::ContextTrimmed { .. }
                }
            )
        })
        .count();
    let run = Run {
        summary_calls: summaries.len(),
        agent_requests: work.len(),
        max_message_chars: work
            .iter()
            .map(|r| serde_json::to_string(&r.body["messages"]).unwrap().len())
            .max()
            .unwrap(),
        max_estimate: requests
            .iter()
            .map(|r| {
                let (m, t) = parse(r);
                estimate_request(&m, &t)
            })
            .max()
            .unwrap(),
        max_provider_tokens: requests
            .iter()
            .map(|r| provider_tokens(r, bytes_per_token))
            .max()
            .unwrap(),
        trims,
        requests,
    };
    eprintln!(
        "{kind:?}: {} summary calls, {} agent requests, largest request {} chars of messages / {} estimated / \
{} provider tokens, {} trims",
        run.summary_calls,
        run.agent_requests,
        run.max_message_chars,
        run.max_estimate,
        run.max_provider_tokens,
        run.trims
    );
    run
}

#[tokio::test]
async fn heading_less_summaries_are_kept_and_the_task_finishes_inside_the_window() {
    let run = thirty_steps(Summarizer::Prose, BODY_BYTES_PER_TOKEN).await;
    assert!(run.summary_calls <= 3, "{run:?}");
    assert_eq!(run.agent_requests, STEPS + 1);
    let last = run.requests.last().unwrap();
    let first_message = last.body["messages"][1]["content"].as_str().unwrap();
    assert!(
        first_message.contains("did not use the required headings")
            && first_message.contains("review of thirty modules"),
        "the prose is kept as the summary: {first_message}"
    );
}

#[tokio::test]
async fn empty_summaries_do_not_storm_and_the_window_holds() {
    let run = thirty_steps(Summarizer::Empty, BODY_BYTES_PER_TOKEN).await;
    assert!(run.summary_calls <= 3, "{run:?}");
    assert!(run.trims >= 1, "the guarantee trimmed instead: {run:?}");
}

#[tokio::test]
async fn a_failing_summarizer_does_not_storm_and_the_window_holds() {
    let run = thirty_steps(Summarizer::HttpError, BODY_BYTES_PER_TOKEN).await;
    assert!(run.summary_calls <= 3, "{run:?}");
    assert!(run.trims >= 1, "{run:?}");
}

#[tokio::test]
async fn well_formed_summaries_reach_the_later_requests() {
    let run = thirty_steps(Summarizer::WellFormed, BODY_BYTES_PER_TOKEN).await;
    let after_summary = run
        .requests
        .iter()
        .skip_while(|r| !is_summary(r))
        .find(|r| !is_summary(r))
        .expect("a request after the summary");
    let summary = after_summary.body["messages"][1]["content"]
        .as_str()
        .unwrap();
    assert!(summary.starts_with("[conversation summary]"), "{summary}");
    assert!(summary.contains(REQUIRED_HEADINGS[2]) && !summary.contains("did not use"));
}

#[tokio::test]
async fn the_providers_count_keeps_requests_inside_the_window_when_the_estimate_is_low() {
    // The provider counts twice what paicli estimates: without calibration the trimmed requests (estimated at
    // up to 12k) would be 24k tokens to it.
    let run = thirty_steps(Summarizer::HttpError, 2).await;
    assert!(run.max_provider_tokens <= FIT, "{run:?}");
    assert!(run.summary_calls <= 3, "{run:?}");
}
