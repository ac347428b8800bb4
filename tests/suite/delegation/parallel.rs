//! Several `agent` calls in one reply: their sub-agents run at the same time (each holds its request open until
//! the other's has arrived, so a serial run could never finish), the results come back in call order, each
//! sub-agent's events carry its parent call's id, and one cancel stops both with one result per call.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;
use tokio::sync::{Barrier, Notify};
use tokio_util::sync::CancellationToken;

use paicli::agent::delegation::{DelegationSetup, ModelRefused, ModelSource, PickedModel};
use paicli::agent::{AgentEvent, AgentOptions, TurnOutcome};
use paicli::agents::{AgentCatalog, AgentDef};
use paicli::llm::{ChatResponse, DeltaSink, LlmClient, LlmError, Message, Role, ToolSpec};
use paicli::protocol::EventLog;
use paicli::tools::delegate::AgentTool;

use crate::support::agent_harness::{Project, answer, calls};

/// How the sub-agents' requests are answered.
#[derive(Clone, Copy)]
enum SubAgents {
    /// Each waits until both have arrived, then reports.
    MeetThenReport,
    /// Each waits for the turn's cancel.
    Hang,
}

/// The lead delegates two tasks at once, then answers; the sub-agents' requests start with "task ".
struct Model {
    mode: SubAgents,
    barrier: Barrier,
    arrived: AtomicUsize,
    both_arrived: Notify,
    lead_requests: Mutex<Vec<Vec<Message>>>,
}

impl Model {
    fn new(mode: SubAgents) -> Arc<Self> {
        Arc::new(Model {
            mode,
            barrier: Barrier::new(2),
            arrived: AtomicUsize::new(0),
            both_arrived: Notify::new(),
            lead_requests: Mutex::default(),
        })
    }
}

fn first_user_text(messages: &[Message]) -> String {
    messages
        .iter()
        .find(|m| m.role == Role::User)
        .map(Message::text)
        .unwrap_or_default()
}

#[async_trait]
impl LlmClient for Model {
    async fn chat(
        &self,
        messages: &[Message],
        _tools: &[ToolSpec],
        _sink: &dyn DeltaSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let task = first_user_text(messages);
        if let Some(name) = task.strip_prefix("task ") {
            if self.arrived.fetch_add(1, Ordering::SeqCst) == 1 {
                self.both_arrived.notify_one();
            }
            return match self.mode {
                SubAgents::MeetThenReport => {
                    tokio::time::timeout(Duration::from_secs(10), self.barrier.wait())
                        .await
                        .map_err(|_| {
                            LlmError::InvalidResponse("sub-agents ran one after the other".into())
                        })?;
                    Ok(answer(&format!("report {name}")))
                }
                SubAgents::Hang => {
                    cancel.cancelled().await;
                    Err(LlmError::Cancelled)
                }
            };
        }
        self.lead_requests.lock().unwrap().push(messages.to_vec());
        if messages.iter().any(|m| m.role == Role::Tool) {
            return Ok(answer("both done"));
        }
        Ok(calls(&[
            (
                "call_a",
                "agent",
                json!({"agent": "explore", "prompt": "task A"}),
            ),
            (
                "call_b",
                "agent",
                json!({"agent": "explore", "prompt": "task B"}),
            ),
        ]))
    }

    fn model(&self) -> &str {
        "lead-model"
    }
}

/// Every definition runs on the lead's model.
struct LeadOnly;

impl ModelSource for LeadOnly {
    fn pick(&self, _def: &AgentDef) -> Result<PickedModel, ModelRefused> {
        Ok(PickedModel::Lead)
    }
}

fn agent_with(model: Arc<Model>, project: &Project) -> paicli::agent::Agent {
    let catalog = Arc::new(AgentCatalog::built_in());
    let tool = AgentTool::new(
        catalog
            .agents
            .iter()
            .map(|a| (a.name.as_str(), a.description.as_str())),
    );
    let mut agent = project.agent(model, AgentOptions::default(), vec![Arc::new(tool)], vec![]);
    agent.set_delegation(DelegationSetup {
        catalog,
        models: Arc::new(LeadOnly),
        roles: Default::default(),
    });
    agent
}

fn tool_results(messages: &[Message]) -> Vec<(String, String)> {
    messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| (m.tool_call_id.clone().unwrap_or_default(), m.text()))
        .collect()
}

#[tokio::test]
async fn two_agent_calls_run_together_and_answer_in_call_order() {
    let project = Project::new();
    let model = Model::new(SubAgents::MeetThenReport);
    let mut agent = agent_with(Arc::clone(&model), &project);
    let events = EventLog::default();
    let report = agent
        .run_turn("delegate", &events, CancellationToken::new())
        .await;
    assert!(
        matches!(&report.outcome, TurnOutcome::Finished { text } if text == "both done"),
        "{:?}",
        report.outcome
    );
    let lead = model.lead_requests.lock().unwrap().clone();
    let results = tool_results(&lead[1]);
    let ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["call_a", "call_b"]);
    assert!(
        results[0].1.contains("report A") && results[1].1.contains("report B"),
        "{results:?}"
    );
    // Each sub-agent's events arrive wrapped with the call that started it.
    let parents: Vec<(String, String)> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::SubAgent {
                parent_call_id,
                agent,
                event,
            } if matches!(*event, AgentEvent::TurnFinished { .. }) => Some((parent_call_id, agent)),
            _ => None,
        })
        .collect();
    let mut parents = parents;
    parents.sort();
    assert_eq!(
        parents,
        [
            ("call_a".to_string(), "explore".to_string()),
            ("call_b".to_string(), "explore".to_string())
        ]
    );
}

#[tokio::test]
async fn one_cancel_stops_both_sub_agents_with_one_result_per_call() {
    let project = Project::new();
    let model = Model::new(SubAgents::Hang);
    let mut agent = agent_with(Arc::clone(&model), &project);
    let cancel = CancellationToken::new();
    let stopper = {
        let model = Arc::clone(&model);
        let cancel = cancel.clone();
        tokio::spawn(async move {
            model.both_arrived.notified().await;
            cancel.cancel();
        })
    };
    let events = EventLog::default();
    let report = tokio::time::timeout(
        Duration::from_secs(20),
        agent.run_turn("delegate", &events, cancel),
    )
    .await
    .expect("the cancel reached both sub-agents");
    stopper.await.unwrap();
    assert!(
        matches!(report.outcome, TurnOutcome::Cancelled),
        "{:?}",
        report.outcome
    );
    assert_eq!(model.arrived.load(Ordering::SeqCst), 2);
    let results = tool_results(agent.history());
    let ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["call_a", "call_b"]);
    for (_, text) in &results {
        assert!(
            text.contains("aborted") || text.contains("cancel"),
            "{text}"
        );
    }
}
