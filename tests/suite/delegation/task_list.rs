//! The task list outlives compaction: the summary that replaces the old turns repeats the model's latest list,
//! so the model still sees it on the next request.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;
use paicli::agent::{AgentOptions, EventLog};
use paicli::llm::ChatResponse;
use paicli::tools::task_list::UpdatePlan;

use crate::support::agent_harness::{FnClient, Project, answer, calls};

#[tokio::test]
async fn the_latest_task_list_is_repeated_after_a_compaction() {
    let lead_requests = AtomicUsize::new(0);
    let client = FnClient::new(move |r| {
        if r.tools.is_empty() && r.messages[0].text().starts_with("You compress") {
            let summary: Vec<String> = REQUIRED_HEADINGS
                .iter()
                .map(|h| format!("{h}\n- short"))
                .collect();
            return Ok(ChatResponse {
                content: summary.join("\n"),
                ..ChatResponse::default()
            });
        }
        Ok(match lead_requests.fetch_add(1, Ordering::SeqCst) {
            0 => calls(&[(
                "call_plan",
                "update_plan",
                json!({"plan": [
                    {"step": "Map the PARSER-MODULE", "status": "completed"},
                    {"step": "Fix the OFF-BY-ONE", "status": "in_progress"}
                ]}),
            )]),
            n => answer(&format!(
                "answer {n}: {}",
                "the details of the work so far. ".repeat(40)
            )),
        })
    });
    let project = Project::new();
    let mut agent = project.agent(
        client.clone(),
        AgentOptions::default(),
        vec![Arc::new(UpdatePlan)],
        Vec::new(),
    );
    for turn in ["plan the fix", "go on", "and then?"] {
        let asked = format!(
            "{turn} {}",
            "Keep the diff small and explain it. ".repeat(40)
        );
        agent
            .run_turn(&asked, &EventLog::default(), CancellationToken::new())
            .await;
    }
    agent
        .compact_now(None, &EventLog::default(), CancellationToken::new())
        .await
        .unwrap();
    // The call that made the list was summarized away; the list itself was not.
    assert!(
        !agent
            .history()
            .iter()
            .any(|m| m.tool_calls.iter().any(|c| c.id == "call_plan")),
        "the turn with the call was compacted"
    );
    agent
        .run_turn(
            "where are we?",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    let last = client.requests().pop().unwrap();
    let sent: String = last.messages.iter().map(|m| m.text()).collect();
    assert!(
        sent.contains("Map the PARSER-MODULE") && sent.contains("Fix the OFF-BY-ONE"),
        "{sent}"
    );
}
