//! A session driven by another program instead of a terminal (`paicli serve` threads, `paicli acp` sessions,
//! background tasks): built for its config and approver, started in the ledger (new or resumed), its inputs run
//! with `@file` mentions and MCP prompts expanded (as a plan in the `plan` approval mode), and shut down with
//! its servers.

use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

use super::sessions::{ResumeFrom, StartError, StartNotice, StartOptions, start_session};
use super::{Services, SetupError, build_approval_hook, build_session, prepare_first_input};
use crate::agent::{Agent, TurnReport};
use crate::app::mentions::expand_mentions;
use crate::config::{ApprovalMode, Config};
use crate::guard::path_guard::PathGuard;
use crate::plan::{LeavesPlanMode, PlanError, PlanMode, PlanReport, PlanRequest, run_plan};
use crate::policy::approval::ApprovalHook;
use crate::protocol::message::Message;
use crate::protocol::plan::PlanReviewer;
use crate::protocol::{AgentEvent, Approver, EventSink, FileAccess};
use crate::tools::ToolRegistry;

/// Why a hosted session could not start.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Start(#[from] StartError),
}

/// What a hosted session starts with besides its config and approver.
#[derive(Default)]
pub struct HostOptions {
    /// The ledger session to resume by id; `None` starts a new one.
    pub resume: Option<String>,
    /// Where the file tools read and write text (an editor's buffers); `None` is the local disk.
    pub files: Option<Arc<dyn FileAccess>>,
}

/// What one input ran as.
pub enum HostedRun {
    Turn(TurnReport),
    /// The session was in the `plan` approval mode: the input was planned, reviewed and (when approved) run.
    Plan(Result<PlanReport, PlanError>),
}

/// One running session with at most one turn at a time (a second waits for the first).
pub struct HostedSession {
    /// The ledger's session id: `paicli --resume` finds it by this.
    pub id: String,
    /// The model its requests name.
    pub model: String,
    pub config: Config,
    /// What starting it skipped or repaired, for the front-end to tell.
    pub notices: Vec<StartNotice>,
    agent: tokio::sync::Mutex<Agent>,
    services: Services,
    approval: ApprovalHook,
    /// A mode switched to while a turn held the agent: written to the ledger when the next input starts.
    unrecorded_mode: Mutex<Option<ApprovalMode>>,
}

impl HostedSession {
    /// Builds the session for `config` whose questions go to `approver`. Must be called inside the Tokio runtime.
    pub fn start(
        config: Config,
        approver: Arc<dyn Approver>,
        options: HostOptions,
    ) -> Result<HostedSession, HostError> {
        let approval = build_approval_hook(&config, approver)?;
        let (mut agent, services) = build_session(&config, approval.clone())?;
        if let Some(files) = options.files {
            agent.set_file_access(files);
        }
        let start = StartOptions {
            resume: options.resume.map(ResumeFrom::Id),
            fork: false,
        };
        let started = match start_session(&config, &mut agent, &start) {
            Ok(started) => started,
            Err(e) => {
                // MCP servers may already be starting; stop them rather than leave them to the drop.
                tokio::spawn(async move { services.shutdown().await });
                return Err(e.into());
            }
        };
        services.snapshots.set_session(&started.id);
        Ok(HostedSession {
            id: started.id,
            model: agent.model().to_string(),
            config,
            notices: started.notices,
            agent: tokio::sync::Mutex::new(agent),
            services,
            approval,
            unrecorded_mode: Mutex::new(None),
        })
    }

    /// The approval mode now (approving a plan made in plan mode changes it).
    pub fn approval_mode(&self) -> ApprovalMode {
        self.approval.mode()
    }

    /// Switches the approval mode (an editor's mode picker); a running turn's next calls are judged by it.
    pub fn set_approval_mode(&self, mode: ApprovalMode) {
        self.approval.set_mode(mode);
        match self.agent.try_lock() {
            Ok(agent) => agent.conversation().note_mode(mode.name()),
            Err(_) => *self.lock_unrecorded() = Some(mode),
        }
    }

    /// Runs what the user sent: a turn, or in the `plan` approval mode a plan that `reviewer` decides on (its
    /// events, and any notice about the input, going to `sink`). A plan ends with the turn events a turn ends
    /// with (`turn_finished` with the per-task summary, `turn_cancelled`, `turn_failed`), so a front-end waits
    /// for one thing either way.
    pub async fn run_input(
        &self,
        text: &str,
        sink: &dyn EventSink,
        cancel: CancellationToken,
        reviewer: &dyn PlanReviewer,
    ) -> HostedRun {
        let mut agent = self.agent.lock().await;
        if let Some(mode) = self.lock_unrecorded().take() {
            agent.conversation().note_mode(mode.name());
        }
        let with_files = match PathGuard::new(&self.config.project_root) {
            Ok(guard) => expand_mentions(text, &guard).text,
            Err(_) => text.to_string(),
        };
        if self.approval.mode() == ApprovalMode::Plan {
            return HostedRun::Plan(
                self.run_plan_mode(&mut agent, with_files, sink, cancel, reviewer)
                    .await,
            );
        }
        let (input, notices) =
            prepare_first_input(&self.config, &self.services.mcp, &with_files, &cancel).await;
        for notice in notices {
            sink.emit(AgentEvent::Notice { notice });
        }
        HostedRun::Turn(agent.run_expanded_turn(text, &input, sink, cancel).await)
    }

    async fn run_plan_mode(
        &self,
        agent: &mut Agent,
        goal: String,
        sink: &dyn EventSink,
        cancel: CancellationToken,
        reviewer: &dyn PlanReviewer,
    ) -> Result<PlanReport, PlanError> {
        let reviewer = LeavesPlanMode::new(reviewer, &self.approval, sink);
        let request = PlanRequest {
            goal,
            mode: PlanMode::Plan,
            settings: self.config.plan,
        };
        let result = run_plan(agent, request, &reviewer, sink, cancel.clone()).await;
        if let Some(mode) = reviewer.left_for() {
            agent.conversation().note_mode(mode.name());
        }
        sink.emit(match &result {
            Ok(_) if cancel.is_cancelled() => AgentEvent::TurnCancelled,
            Ok(report) => AgentEvent::TurnFinished {
                text: crate::plan::summary(report),
            },
            Err(e) => AgentEvent::TurnFailed {
                error: e.to_string(),
            },
        });
        result
    }

    /// The tools the session offers (MCP servers' join as they start): what front-ends ask how a call reads.
    pub async fn tools(&self) -> Arc<ToolRegistry> {
        Arc::clone(self.agent.lock().await.registry())
    }

    /// The history as the model sees it (system prompt first); waits for a running turn to end.
    pub async fn history(&self) -> Vec<Message> {
        self.agent.lock().await.history().to_vec()
    }

    /// Waits for a running turn to end (cancel it first), so its tool results reach the ledger, then stops the
    /// session's MCP and language servers.
    pub async fn shutdown(&self) {
        let agent = self.agent.lock().await;
        if let Some(mode) = self.lock_unrecorded().take() {
            agent.conversation().note_mode(mode.name());
        }
        self.services.shutdown().await;
    }

    fn lock_unrecorded(&self) -> std::sync::MutexGuard<'_, Option<ApprovalMode>> {
        self.unrecorded_mode
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
