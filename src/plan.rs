//! Plan-and-execute and team mode: a planner call turns a goal into a dependency graph of tasks, a reviewer
//! decides, and each task runs as a sub-agent forked from the lead on the one ReAct loop (never a copy of it).

mod call_tasks;
mod changes;
mod execute;
mod parse;
mod plan_mode;
mod planner;
mod prompts;
mod sinks;
mod sub_agent;
pub mod team;
pub mod tool_access;
mod validate;

use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::llm::LlmError;
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer, PlanTaskOutcome, TaskState};
use crate::protocol::{AgentEvent, EventSink, Notice};
use execute::{Ended, TaskRunner};
use tool_access::ToolAccess;

pub use call_tasks::CallTasks;
pub use parse::extract_tasks;
pub use plan_mode::LeavesPlanMode;
pub use validate::{batches, validate};

/// Which engine runs the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanMode {
    /// One planner, then every task as a sub-agent with the lead's tools.
    Plan,
    /// Planner, two workers (the only ones with tools) and a reviewer that passes each step.
    Team,
}

/// The `[plan]` settings (sub-agents at once, re-plans after failures), as the config resolved them.
pub type PlanSettings = crate::config::PlanLimits;

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
    /// The plan the reviewer declined (nothing of it ran): kept so the lead's conversation, and a front-end
    /// that only proposes (a background task in plan mode), can say what it was.
    pub declined: Option<Plan>,
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
    #[error("task #{index} is malformed: {reason}")]
    Malformed { index: usize, reason: String },
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
    lead.begin_forked_turn(&request.goal, events);
    let result = plan_and_run(lead, &request, reviewer, events, &cancel).await;
    let answer = match &result {
        Ok(report) => summary(report),
        Err(error) => format!("No plan: {error}"),
    };
    let spent = lead.end_forked_turn(&request.goal, &answer);
    events.emit(AgentEvent::Usage {
        response: spent,
        session: lead.session_usage(),
        // The plan's tasks may have run on several models: the sum has none of its own.
        model: String::new(),
        provider: String::new(),
    });
    let report = result?;
    events.emit(AgentEvent::PlanFinished {
        outcomes: report.outcomes.clone(),
    });
    Ok(report)
}

/// The plan's result as the lead's answer: one line per task (a declined plan: its tasks, none run).
pub fn summary(report: &PlanReport) -> String {
    if let Some(plan) = &report.declined {
        let mut text = String::from("Plan proposed, not run:");
        for (n, task) in plan.tasks.iter().enumerate() {
            text.push_str(&format!("\n{}. [{}] {}", n + 1, task.id, task.title));
            if !task.depends_on.is_empty() {
                text.push_str(&format!(" (after {})", task.depends_on.join(", ")));
            }
            if !task.description.trim().is_empty() {
                text.push_str(&format!(": {}", task.description.trim()));
            }
        }
        return text;
    }
    let mut text = String::from("Plan results:");
    if report.cancelled {
        text.push_str(" (cancelled)");
    }
    for o in &report.outcomes {
        let state = match o.state {
            TaskState::Done => "done",
            TaskState::Failed => "failed",
            TaskState::Skipped => "skipped",
            TaskState::Pending => "pending",
            TaskState::Running => "running",
        };
        text.push_str(&format!(
            "\n- [{state}] {} ({}): {}",
            o.title,
            o.task_id,
            o.summary.trim()
        ));
    }
    text
}

async fn plan_and_run(
    lead: &Agent,
    request: &PlanRequest,
    reviewer: &dyn PlanReviewer,
    events: &dyn EventSink,
    cancel: &CancellationToken,
) -> Result<PlanReport, PlanError> {
    let goal = request.goal.trim();
    let (access, parallel) = match request.mode {
        PlanMode::Plan => (ToolAccess::ReadOnly, request.settings.max_parallel),
        PlanMode::Team => (
            ToolAccess::NoTools,
            request.settings.max_parallel.min(team::WORKERS),
        ),
    };
    let mut report = PlanReport {
        outcomes: Vec::new(),
        cancelled: false,
        replans: 0,
        declined: None,
    };
    let cancelled = |mut report: PlanReport| {
        report.cancelled = true;
        Ok(report)
    };
    // Whoever asks for a plan asked for the planner: no word count tells a one-step goal from a large one, and
    // the planner may answer with a single task.
    let ask = prompts::plan_request(goal, &[]);
    let mut plan = match planner::make_plan(lead, access, goal, ask, events, cancel).await? {
        Some(plan) => plan,
        None => return cancelled(report),
    };
    let runner: Box<dyn TaskRunner + '_> = match request.mode {
        PlanMode::Plan => Box::new(sub_agent::SubAgents { lead }),
        PlanMode::Team => Box::new(team::Team { lead }),
    };
    let mut instructions: Vec<String> = Vec::new();
    let mut failure_replans = 0;
    let mut revision = 0;
    // Tasks finished under earlier revisions; a re-plan covers only what remains.
    let mut finished: Vec<PlanTaskOutcome> = Vec::new();
    // What the last execution ended with, reported should its re-plan fail.
    let mut last: Vec<PlanTaskOutcome> = Vec::new();
    loop {
        events.emit(AgentEvent::PlanProposed {
            plan: plan.clone(),
            revision,
        });
        let next_request = match reviewer.review(&plan, revision).await {
            PlanDecision::Cancel => {
                report.declined = Some(plan);
                return cancelled(report);
            }
            PlanDecision::Replan {
                instructions: added,
            } => {
                instructions.push(added);
                prompts::plan_request(goal, &instructions)
            }
            PlanDecision::Run => {
                let may_replan = failure_replans < request.settings.max_replans;
                let ended =
                    execute::execute(&plan, runner.as_ref(), parallel, may_replan, events, cancel)
                        .await;
                match ended {
                    Ended::Finished(outcomes) => {
                        report.outcomes = [finished, outcomes].concat();
                        return Ok(report);
                    }
                    Ended::Cancelled(outcomes) => {
                        report.outcomes = [finished, outcomes].concat();
                        return cancelled(report);
                    }
                    Ended::NeedsReplan(outcomes) => {
                        failure_replans += 1;
                        let count = |state| outcomes.iter().filter(|o| o.state == state).count();
                        events.emit(AgentEvent::Notice {
                            notice: Notice::PlanReplanning {
                                failed: count(TaskState::Failed),
                                total: outcomes.len(),
                            },
                        });
                        let ask = prompts::replan_request(goal, &finished, &outcomes);
                        let (done, rest) = outcomes
                            .into_iter()
                            .partition::<Vec<_>, _>(|o| o.state == TaskState::Done);
                        finished.extend(done);
                        last = rest;
                        ask
                    }
                }
            }
        };
        report.replans += 1;
        revision += 1;
        plan = match planner::make_plan(lead, access, goal, next_request, events, cancel).await {
            Ok(Some(plan)) => plan,
            Ok(None) => {
                report.outcomes = finished;
                return cancelled(report);
            }
            // After a run, what it did is reported, not lost, when the new plan cannot be made.
            Err(error) if !last.is_empty() || !finished.is_empty() => {
                events.emit(AgentEvent::Notice {
                    notice: Notice::PlanReplanFailed {
                        error: error.to_string(),
                    },
                });
                report.outcomes = [finished, last].concat();
                return Ok(report);
            }
            Err(error) => return Err(error),
        };
    }
}
