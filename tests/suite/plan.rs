//! Plan-and-execute and team mode against the scripted server: each sub-agent's requests are routed by the task
//! named in its first message, so parallel tasks each get their own script.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cancel;
mod cli;
mod engine;
mod hooks;
mod ledger;
mod path_lock;
mod team;

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::agent::{Agent, AgentEvent, AgentOptions, EventLog};
use paicli::llm::client::{ClientOptions, OpenAiClient};
use paicli::plan::{PlanError, PlanMode, PlanReport, PlanRequest, PlanSettings, run_plan};
use paicli::protocol::plan::{RunWithoutReview, TaskState};
use paicli::tools::Tool;

use crate::support::agent_harness::Project;
use crate::support::{RecordedRequest, Reply, ScriptedServer, provider_for};

/// The planner's first message starts with this.
pub(crate) const PLANNER: &str = "Make a plan for this goal";
/// A re-plan's first message starts with this.
const REPLANNER: &str = "Make a new plan for this goal";

/// The marker of task `id`'s sub-agent (or worker) requests.
pub(crate) fn task(id: &str) -> String {
    format!("Your task (id `{id}`)")
}

/// The marker of the team reviewer's requests about step `id`.
fn review(id: &str) -> String {
    format!("Review step `{id}`")
}

/// A planner answer with `tasks` as `(id, depends_on)`.
pub(crate) fn plan_reply(tasks: &[(&str, &[&str])]) -> Reply {
    let tasks: Vec<Value> = tasks
        .iter()
        .map(|(id, deps)| json!({"id": id, "title": format!("Task {id}"), "description": "", "depends_on": deps}))
        .collect();
    Reply::text(json!({ "tasks": tasks }).to_string())
}

/// A failed model call that is not retried (the task fails at once).
fn rejected() -> Reply {
    Reply::status(400, r#"{"error":{"message":"scripted failure"}}"#)
}

struct Setup {
    server: ScriptedServer,
    project: Project,
}

impl Setup {
    fn new() -> Self {
        Setup {
            server: ScriptedServer::start(),
            project: Project::new(),
        }
    }

    /// A setup whose planner answers once with `tasks` as `(id, depends_on)`.
    fn planned(tasks: &[(&str, &[&str])]) -> Self {
        let setup = Setup::new();
        setup.server.route_task(PLANNER, [plan_reply(tasks)]);
        setup
    }

    fn agent(&self, extra: Vec<Arc<dyn Tool>>) -> Agent {
        let client = Arc::new(
            OpenAiClient::new(
                provider_for(&self.server, "custom", "m", None),
                ClientOptions::default(),
            )
            .unwrap(),
        );
        self.project
            .agent(client, AgentOptions::default(), extra, vec![])
    }

    /// The chat requests whose first user message contains `marker`.
    fn requests_for(&self, marker: &str) -> Vec<RecordedRequest> {
        self.server
            .chat_requests()
            .into_iter()
            .filter(|r| first_user(r).contains(marker))
            .collect()
    }
}

fn first_user(request: &RecordedRequest) -> String {
    request.body["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// The text of a request's last message (what the model was told last).
fn last_message(request: &RecordedRequest) -> String {
    request.body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// The names of the tools a request offered.
fn offered_tools(request: &RecordedRequest) -> Vec<String> {
    request.body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

async fn run(
    agent: &mut Agent,
    goal: &str,
    mode: PlanMode,
    events: &EventLog,
) -> Result<PlanReport, PlanError> {
    run_with(agent, goal, mode, PlanSettings::default(), events).await
}

/// Runs `goal` in `mode` with the default settings and a fresh event log; the plan must finish (whatever its
/// tasks' states).
async fn run_ok(agent: &mut Agent, goal: &str, mode: PlanMode) -> (PlanReport, EventLog) {
    let events = EventLog::default();
    let report = run(agent, goal, mode, &events).await.unwrap();
    (report, events)
}

async fn run_with(
    agent: &mut Agent,
    goal: &str,
    mode: PlanMode,
    settings: PlanSettings,
    events: &EventLog,
) -> Result<PlanReport, PlanError> {
    let request = PlanRequest {
        goal: goal.into(),
        mode,
        settings,
    };
    run_plan(
        agent,
        request,
        &RunWithoutReview,
        events,
        CancellationToken::new(),
    )
    .await
}

/// Each task's final state, in report order.
fn states(report: &PlanReport) -> Vec<(String, TaskState)> {
    report
        .outcomes
        .iter()
        .map(|o| (o.task_id.clone(), o.state))
        .collect()
}

/// The plan-level events (task events unwrapped are left out), as short labels in order.
fn plan_timeline(events: &EventLog) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::PlanProposed { revision, .. } => Some(format!("proposed {revision}")),
            AgentEvent::PlanTaskStarted { task_id, .. } => Some(format!("start {task_id}")),
            AgentEvent::PlanTaskFinished { task_id, state, .. } => {
                Some(format!("{task_id} {state:?}"))
            }
            AgentEvent::PlanFinished { .. } => Some("finished".into()),
            _ => None,
        })
        .collect()
}

fn s(id: &str, state: TaskState) -> (String, TaskState) {
    (id.to_string(), state)
}

/// The states of a plan whose tasks `ids` (in report order) are all done.
fn all_done(ids: &[&str]) -> Vec<(String, TaskState)> {
    ids.iter().map(|id| s(id, TaskState::Done)).collect()
}
