//! Plans: the tasks of a goal as a dependency graph, their states while they run, and the [`PlanReviewer`] a
//! front-end plugs in to let a person run, cancel or re-plan a proposed plan.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// One task of a plan, as the planner wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanTask {
    /// Unique within the plan, non-blank.
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// Ids of tasks that must be done before this one starts.
    #[serde(default)]
    pub depends_on: Vec<String>,
}

/// A validated plan for one goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub goal: String,
    pub tasks: Vec<PlanTask>,
}

/// Where a plan task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    Pending,
    Running,
    Done,
    Failed,
    /// Not run: a task it depends on failed (or the plan was cancelled first).
    Skipped,
}

impl TaskState {
    /// Whether the task will not change state again.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            TaskState::Done | TaskState::Failed | TaskState::Skipped
        )
    }
}

/// How one task of a finished plan ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanTaskOutcome {
    pub task_id: String,
    pub title: String,
    pub state: TaskState,
    /// The sub-agent's final answer, or why the task failed or was skipped.
    pub summary: String,
}

/// What a person decided about a proposed plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanDecision {
    /// Enter: run it as it is.
    Run,
    /// ESC: run nothing.
    Cancel,
    /// `i`: make a new plan with these added instructions.
    Replan { instructions: String },
}

/// Shows a proposed plan to a person and returns their decision.
#[async_trait]
pub trait PlanReviewer: Send + Sync {
    /// Decides about `plan`, the `revision`th made for this goal (0 the first; each re-plan adds one).
    async fn review(&self, plan: &Plan, revision: u32) -> PlanDecision;
}

/// The reviewer of runs nobody reviews (`paicli -p --plan`, background tasks): every plan runs as proposed.
pub struct RunWithoutReview;

#[async_trait]
impl PlanReviewer for RunWithoutReview {
    async fn review(&self, _plan: &Plan, _revision: u32) -> PlanDecision {
        PlanDecision::Run
    }
}

/// The reviewer of runs nobody may approve (a background task in the `plan` approval mode): the proposed plan is
/// the result and nothing of it runs.
pub struct ProposeOnly;

#[async_trait]
impl PlanReviewer for ProposeOnly {
    async fn review(&self, _plan: &Plan, _revision: u32) -> PlanDecision {
        PlanDecision::Cancel
    }
}
