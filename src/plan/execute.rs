//! Running a plan: dependency batches, at most `max_parallel` tasks at once, a task whose dependency did not
//! finish is skipped, and a batch whose failures leave completion under 50% stops the plan for a re-plan.

use async_trait::async_trait;
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use tokio_util::sync::CancellationToken;

use super::{prompts, validate};
use crate::protocol::plan::{Plan, PlanTask, PlanTaskOutcome, TaskState};
use crate::protocol::{AgentEvent, EventSink};

/// How one task's run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskResult {
    /// `Done` or `Failed`.
    pub state: TaskState,
    pub summary: String,
}

/// Runs one task (a sub-agent in plan mode, a worker and the reviewer in team mode).
#[async_trait]
pub trait TaskRunner: Send + Sync {
    /// Runs `task` with the instructions `request`; `slot` (below the parallelism) tells concurrent runs apart.
    async fn run(
        &self,
        slot: usize,
        task: &PlanTask,
        request: String,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TaskResult;
}

/// How a plan's execution ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every task is final.
    Finished(Vec<PlanTaskOutcome>),
    /// Failures left completion under 50%: what ran, and the rest skipped.
    NeedsReplan(Vec<PlanTaskOutcome>),
    /// The user cancelled: running tasks failed, the rest skipped.
    Cancelled(Vec<PlanTaskOutcome>),
}

/// Runs `plan`'s tasks with `runner`; `may_replan` says whether a re-plan is still allowed.
pub async fn execute(
    plan: &Plan,
    runner: &dyn TaskRunner,
    max_parallel: usize,
    may_replan: bool,
    events: &dyn EventSink,
    cancel: &CancellationToken,
) -> Ended {
    let tasks = &plan.tasks;
    let mut results: Vec<Option<PlanTaskOutcome>> = vec![None; tasks.len()];
    let parallel = max_parallel.max(1);
    for batch in validate::batches(tasks) {
        if cancel.is_cancelled() {
            break;
        }
        let mut queue = Vec::new();
        for i in batch {
            match failed_dependency(&tasks[i], tasks, &results) {
                Some(dep) => {
                    let reason = format!("skipped: `{dep}` did not finish");
                    results[i] = Some(finish(&tasks[i], TaskState::Skipped, reason, events));
                }
                None => queue.push(i),
            }
        }
        let mut queue = queue.into_iter();
        let mut free: Vec<usize> = (0..parallel).rev().collect();
        let mut running = FuturesUnordered::new();
        let mut failed = false;
        loop {
            while !cancel.is_cancelled()
                && let Some(slot) = free.pop()
            {
                let Some(i) = queue.next() else {
                    free.push(slot);
                    break;
                };
                let task = &tasks[i];
                let inputs: Vec<&PlanTaskOutcome> = task
                    .depends_on
                    .iter()
                    .filter_map(|d| results.iter().flatten().find(|o| o.task_id == *d))
                    .collect();
                let request = prompts::task_request(&plan.goal, task, &inputs);
                events.emit(AgentEvent::PlanTaskStarted {
                    task_id: task.id.clone(),
                    title: task.title.clone(),
                });
                let cancel = cancel.clone();
                running.push(async move {
                    let result = runner.run(slot, task, request, events, cancel).await;
                    (i, slot, result)
                });
            }
            let Some((i, slot, result)) = running.next().await else {
                break;
            };
            free.push(slot);
            failed |= result.state != TaskState::Done;
            results[i] = Some(finish(&tasks[i], result.state, result.summary, events));
        }
        if cancel.is_cancelled() {
            break;
        }
        if failed && may_replan && completion(&results) < 0.5 {
            return Ended::NeedsReplan(close(tasks, results, "not run: re-planning", events));
        }
    }
    if cancel.is_cancelled() {
        return Ended::Cancelled(close(tasks, results, "not run: cancelled", events));
    }
    Ended::Finished(close(tasks, results, "not run", events))
}

/// Share of the plan's tasks that are done.
fn completion(results: &[Option<PlanTaskOutcome>]) -> f64 {
    let done = results
        .iter()
        .flatten()
        .filter(|o| o.state == TaskState::Done)
        .count();
    done as f64 / results.len().max(1) as f64
}

/// The first dependency of `task` that is final but not done.
fn failed_dependency<'a>(
    task: &'a PlanTask,
    tasks: &[PlanTask],
    results: &[Option<PlanTaskOutcome>],
) -> Option<&'a str> {
    task.depends_on
        .iter()
        .find(|dep| {
            let index = tasks.iter().position(|t| t.id == **dep);
            !matches!(index.and_then(|i| results[i].as_ref()), Some(o) if o.state == TaskState::Done)
        })
        .map(String::as_str)
}

fn finish(
    task: &PlanTask,
    state: TaskState,
    summary: String,
    events: &dyn EventSink,
) -> PlanTaskOutcome {
    events.emit(AgentEvent::PlanTaskFinished {
        task_id: task.id.clone(),
        state,
        summary: summary.clone(),
    });
    PlanTaskOutcome {
        task_id: task.id.clone(),
        title: task.title.clone(),
        state,
        summary,
    }
}

/// Every task's outcome in plan order; tasks that never ran are skipped with `reason`.
fn close(
    tasks: &[PlanTask],
    results: Vec<Option<PlanTaskOutcome>>,
    reason: &str,
    events: &dyn EventSink,
) -> Vec<PlanTaskOutcome> {
    tasks
        .iter()
        .zip(results)
        .map(|(task, result)| {
            result.unwrap_or_else(|| finish(task, TaskState::Skipped, reason.to_string(), events))
        })
        .collect()
}
