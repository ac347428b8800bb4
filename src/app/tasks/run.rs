//! Running one background task: a new session with nobody to ask, its events written to the task's log.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{Inner, TaskRecord, TaskState};
use crate::agent::TurnOutcome;
use crate::app::mentions::expand_mentions;
use crate::app::sessions::{StartOptions, start_session};
use crate::guard::path_guard::PathGuard;
use crate::policy::approval::NonInteractiveApprover;
use crate::protocol::{AgentEvent, EventSink};

/// Runs `task` to its end and returns its final state and result text.
pub(super) async fn run_task(
    inner: &Inner,
    task: &TaskRecord,
    cancel: CancellationToken,
) -> (TaskState, Option<String>) {
    let mut config = inner.config.clone();
    config.approval = task.approval;
    let config = &config;
    let sink = LogSink { inner, id: task.id };
    let built = crate::app::build_approval_hook(config, Arc::new(NonInteractiveApprover))
        .and_then(|hook| crate::app::build_session(config, hook));
    let (mut agent, services) = match built {
        Ok(built) => built,
        Err(e) => return (TaskState::Failed, Some(e.to_string())),
    };
    match start_session(config, &mut agent, &StartOptions::default()) {
        Ok(started) => {
            services.snapshots.set_session(&started.id);
            inner.set_session(task.id, &started.id);
        }
        Err(e) => {
            services.shutdown().await;
            return (TaskState::Failed, Some(e.to_string()));
        }
    }
    let with_files = match PathGuard::new(&config.project_root) {
        Ok(guard) => expand_mentions(&task.text, &guard).text,
        Err(_) => task.text.clone(),
    };
    let (input, notices) =
        crate::app::prepare_first_input(config, &services.mcp, &with_files, &cancel).await;
    for notice in notices {
        sink.emit(AgentEvent::Notice { notice });
    }
    let report = agent
        .run_expanded_turn(&task.text, &input, &sink, cancel)
        .await;
    services.shutdown().await;
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
