//! ESC mid-plan: every running sub-agent stops, and every tool call any of them made got exactly one result.

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Map;
use tokio::sync::watch;

use paicli::agent::ToolStatus;
use paicli::tools::{ToolContext, ToolOutcome, ToolTraits};

use super::*;

/// Runs until the turn is cancelled; tells the test how many calls have started.
struct UntilCancelled {
    started: watch::Sender<usize>,
}

#[async_trait]
impl Tool for UntilCancelled {
    fn name(&self) -> &str {
        "long_job"
    }
    fn description(&self) -> &str {
        "runs until stopped"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits::side_effect(paicli::protocol::Risk::None)
    }
    async fn execute(&self, _args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        self.started.send_modify(|n| *n += 1);
        ctx.cancel.cancelled().await;
        ToolOutcome::Cancelled {
            partial: "stopped".into(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_stops_every_sub_agent_and_each_call_has_one_result() {
    let setup = Setup::planned(&[("B", &[]), ("C", &[]), ("D", &["B"])]);
    let server = &setup.server;
    // B asks for two calls in one reply: the second never starts, and still gets its result.
    server.route_task(
        task("B"),
        [Reply::tool_calls([
            ("b1", "long_job", json!({})),
            ("b2", "long_job", json!({})),
        ])],
    );
    server.route_task(
        task("C"),
        [Reply::tool_calls([("c1", "long_job", json!({}))])],
    );
    let (started, mut seen) = watch::channel(0);
    let mut agent = setup.agent(vec![Arc::new(UntilCancelled { started })]);
    let events = EventLog::default();
    let cancel = CancellationToken::new();
    let request = PlanRequest {
        goal: "Do B and C, then D".into(),
        mode: PlanMode::Plan,
        settings: PlanSettings::default(),
    };

    let (report, ()) = tokio::join!(
        run_plan(
            &mut agent,
            request,
            &RunWithoutReview,
            &events,
            cancel.clone()
        ),
        async {
            seen.wait_for(|n| *n >= 2).await.unwrap();
            cancel.cancel();
        }
    );

    let report = report.unwrap();
    assert!(report.cancelled);
    assert_eq!(
        states(&report),
        vec![
            s("B", TaskState::Failed),
            s("C", TaskState::Failed),
            s("D", TaskState::Skipped)
        ]
    );
    let mut started: HashMap<String, usize> = HashMap::new();
    let mut finished: HashMap<String, Vec<ToolStatus>> = HashMap::new();
    for event in events.events() {
        if let AgentEvent::PlanTaskEvent { event, .. } = event {
            match *event {
                AgentEvent::ToolCallStarted { id, .. } => *started.entry(id).or_default() += 1,
                AgentEvent::ToolCallFinished { id, status, .. } => {
                    finished.entry(id).or_default().push(status)
                }
                _ => {}
            }
        }
    }
    for id in ["b1", "b2", "c1"] {
        assert_eq!(started.get(id), Some(&1), "{id} started once");
        assert_eq!(
            finished.get(id),
            Some(&vec![ToolStatus::Cancelled]),
            "{id} has exactly one result"
        );
    }
    // No request went out after the cancel: D never ran, no task asked the model again.
    assert!(setup.requests_for(&task("D")).is_empty());
    assert_eq!(setup.server.chat_requests().len(), 3);
}
