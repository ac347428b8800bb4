//! Plan mode's task runner: each task is a fresh sub-agent forked from the lead, with the lead's tools.

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::execute::{TaskResult, TaskRunner};
use super::prompts;
use super::sinks::TaskSink;
use crate::agent::delegation::PlanRole;
use crate::agent::{Agent, TurnOutcome};
use crate::protocol::EventSink;
use crate::protocol::plan::{PlanTask, TaskState};

/// Forks one sub-agent per task.
pub struct SubAgents<'a> {
    pub lead: &'a Agent,
}

#[async_trait]
impl TaskRunner for SubAgents<'_> {
    async fn run(
        &self,
        _slot: usize,
        task: &PlanTask,
        request: String,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TaskResult {
        let mut agent = self.lead.fork_as(
            PlanRole::Worker,
            format!("{}\n\n{}", self.lead.system_prompt(), prompts::TASK_ROLE),
            events,
        );
        let sink = TaskSink {
            task_id: task.id.clone(),
            inner: events,
        };
        record_in_sidechain(self.lead, &mut agent, &task.id, &sink);
        let report = agent.run_subagent_turn(&request, &sink, cancel).await;
        result_of(report.outcome)
    }
}

/// Gives `sub_agent` a ledger of its own beside the lead's (when the lead keeps one), named by its start time
/// and `task_id`, so what a task did survives the session (`/export` includes it). Failing to open it costs
/// only the record: the task runs, and `events` hears why.
pub fn record_in_sidechain(
    lead: &Agent,
    sub_agent: &mut Agent,
    task_id: &str,
    events: &dyn EventSink,
) {
    if let Some(ledger) = lead.ledger() {
        sub_agent.record_in_sidechain(ledger, task_id, events);
    }
}

/// A task is done only when its sub-agent answered; everything else is a failure with the reason.
pub fn result_of(outcome: TurnOutcome) -> TaskResult {
    let (state, summary) = match outcome {
        TurnOutcome::Finished { text } => (TaskState::Done, text),
        TurnOutcome::CutOff { text } => (TaskState::Done, text),
        TurnOutcome::Empty { .. } => (TaskState::Failed, "the sub-agent gave no answer".into()),
        TurnOutcome::Partial { reason, text } => (
            TaskState::Failed,
            format!("stopped early ({reason}): {text}"),
        ),
        TurnOutcome::Cancelled => (TaskState::Failed, "cancelled".into()),
        TurnOutcome::Failed(e) => (TaskState::Failed, e.to_string()),
    };
    TaskResult { state, summary }
}
