//! Plan-and-execute and team mode: a planner call turns a goal into a dependency graph of tasks, a reviewer
//! decides, and each task runs as a sub-agent forked from the lead on the one ReAct loop (never a copy of it).

use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::llm::LlmError;
use crate::protocol::EventSink;
use crate::protocol::plan::{PlanReviewer, PlanTaskOutcome};

/// Which engine runs the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanMode {
    /// One planner, then every task as a sub-agent with the lead's tools.
    Plan,
    /// Planner, two workers (the only ones with tools) and a reviewer that passes each step.
    Team,
}

/// The `[plan]` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanSettings {
    /// Sub-agents running at once (`[plan] max_parallel`).
    pub max_parallel: usize,
    /// Re-plans after too many failures (`[plan] max_replans`).
    pub max_replans: u32,
}

impl Default for PlanSettings {
    fn default() -> Self {
        PlanSettings {
            max_parallel: 2,
            max_replans: 2,
        }
    }
}

/// One goal to plan and run.
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub goal: String,
    pub mode: PlanMode,
    pub settings: PlanSettings,
}

/// How a plan run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanReport {
    /// Every task of the last plan, in plan order.
    pub outcomes: Vec<PlanTaskOutcome>,
    /// The reviewer or the user (ESC) stopped it.
    pub cancelled: bool,
    /// Plans made again after failures or on the reviewer's instructions.
    pub replans: u32,
}

/// Why no plan could run.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The planner's model call failed.
    #[error("the planner failed: {0}")]
    Planner(#[from] LlmError),
    /// The planner's answer stayed invalid after one repair round.
    #[error("the plan is invalid: {0}")]
    Invalid(#[from] PlanInvalid),
}

/// What is wrong with a proposed plan (told to the planner in the repair round).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanInvalid {
    #[error("the answer holds no JSON plan object with a `tasks` array")]
    NoJson,
    #[error("the plan has no tasks")]
    Empty,
    #[error("task #{index} has a blank id")]
    BlankId { index: usize },
    #[error("the id `{id}` is used by more than one task")]
    DuplicateId { id: String },
    #[error("task `{task}` depends on `{missing}`, which is not a task of the plan")]
    UnknownDependency { task: String, missing: String },
    #[error("the dependencies form a cycle: {}", cycle.join(" -> "))]
    Cycle { cycle: Vec<String> },
}

/// Plans `request.goal` with `lead`'s model and tools (read-only research), asks `reviewer`, runs the tasks as
/// sub-agents forked from `lead`, and records the outcome in `lead`'s conversation.
pub async fn run_plan(
    lead: &mut Agent,
    request: PlanRequest,
    reviewer: &dyn PlanReviewer,
    events: &dyn EventSink,
    cancel: CancellationToken,
) -> Result<PlanReport, PlanError> {
    let _ = (lead, request, reviewer, events, cancel);
    Ok(PlanReport {
        outcomes: Vec::new(),
        cancelled: true,
        replans: 0,
    })
}
