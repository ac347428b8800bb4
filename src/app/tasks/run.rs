//! Running one background task: a new session with nobody to ask, its events written to the task's log. In the
//! `plan` approval mode the task makes the plan and stops: nobody is there to approve it.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{Inner, TaskRecord, TaskState};
use crate::agent::TurnOutcome;
use crate::app::session::{HostOptions, Input, Ran, Session};
use crate::policy::approval::NonInteractiveApprover;
use crate::protocol::plan::ProposeOnly;
use crate::protocol::{AgentEvent, EventSink};

/// Runs `task` to its end and returns its final state and result text.
pub(super) async fn run_task(
    inner: &Inner,
    task: &TaskRecord,
    cancel: CancellationToken,
) -> (TaskState, Option<String>) {
    let mut config = inner.config.clone();
    config.approval = task.approval;
    let sink = LogSink { inner, id: task.id };
    let session = match Session::start(
        config,
        Arc::new(NonInteractiveApprover),
        HostOptions::default(),
    ) {
        Ok(session) => session,
        Err(e) => return (TaskState::Failed, Some(e.to_string())),
    };
    inner.set_session(task.id, session.id());
    let input = Input::typed(task.text.as_str());
    let ran = session
        .run_input(input, &sink, cancel.clone(), &ProposeOnly)
        .await;
    session.shutdown().await;
    let report = match ran {
        Ran::Turn(report) => report,
        Ran::Blocked { reason } => return (TaskState::Failed, Some(reason)),
        Ran::Plan(Err(e)) => return (TaskState::Failed, Some(e.to_string())),
        Ran::Plan(Ok(_)) if cancel.is_cancelled() => return (TaskState::Cancelled, None),
        // Nobody can approve the plan: it is the task's result.
        Ran::Plan(Ok(report)) => {
            return (TaskState::Finished, Some(crate::plan::summary(&report)));
        }
    };
    match report.outcome {
        TurnOutcome::Finished { text } => (TaskState::Finished, Some(text)),
        TurnOutcome::Partial { text, .. } | TurnOutcome::CutOff { text } => {
            (TaskState::Partial, Some(text))
        }
        TurnOutcome::Empty { .. } => (
            TaskState::Failed,
            Some("the model gave no answer".to_string()),
        ),
        TurnOutcome::Cancelled => (TaskState::Cancelled, None),
        TurnOutcome::Failed(e) => (TaskState::Failed, Some(e.to_string())),
    }
}

/// Writes each event as one JSON line to the task's log.
struct LogSink<'a> {
    inner: &'a Inner,
    id: u64,
}

impl EventSink for LogSink<'_> {
    fn emit(&self, event: AgentEvent) {
        if let Ok(line) = serde_json::to_string(&event) {
            self.inner.store.append_log(self.id, &line);
        }
    }
}
