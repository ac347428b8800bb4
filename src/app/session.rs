//! The one session host every front-end drives (the REPL, `-p`, `paicli serve`, `paicli acp`, background tasks):
//! built for its config and approver, started in the ledger (new, resumed or forked), its inputs run as a turn or
//! a plan with mentions read and notices sent as events, its approval mode switched, and shut down with its
//! servers. Front-ends differ only in the event sink they show events with, the `Approver` and the
//! `PlanReviewer` that ask the person.

mod hook_events;
mod input;
mod modes;
mod plan;
mod shell;
mod steering;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use super::sessions::{StartError, StartOptions, Started, fork_running, start_session};
use super::{Services, SetupError, build_approval_hook_with, build_session};
use crate::agent::{Agent, TurnReport};
use crate::config::safe_read::FileNotice;
use crate::config::{ApprovalMode, Config};
use crate::guard::path_guard::PathGuard;
use crate::plan::{PlanError, PlanReport};
use crate::policy::approval::ApprovalHook;
use crate::protocol::message::Message;
use crate::protocol::plan::PlanReviewer;
use crate::protocol::{Approver, EventSink, FileAccess};

pub use input::{Input, RunAs};
pub use shell::ShellRan;
pub use steering::{ContextUsage, SwitchModelError};

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Start(#[from] StartError),
}

/// What a session starts with besides its config and approver.
#[derive(Default)]
pub struct HostOptions {
    /// A new session, or the ledger session to resume (or fork).
    pub start: StartOptions,
    /// Where the file tools read and write text (an editor's buffers); `None` is the local disk.
    pub files: Option<Arc<dyn FileAccess>>,
    /// `auto` asks about every command instead of letting the classifier judge them (Claude's `acceptEdits`).
    pub no_classifier: bool,
    /// The served context window still being asked for: the agent uses it once it arrives.
    pub window: Option<super::WindowLookup>,
}

/// What one input ran as.
pub enum Ran {
    Turn(TurnReport),
    /// The input was planned, reviewed and (when approved) run.
    Plan(Result<PlanReport, PlanError>),
    /// A `UserPromptSubmit` hook blocked the input: nothing was sent to the model.
    Blocked {
        reason: String,
    },
}

/// One running session with at most one input at a time (a second waits for the first).
pub struct Session {
    /// The model its requests named at start.
    pub model: String,
    pub config: Config,
    /// MCP servers, language servers, snapshots, skills, the code index and the browser.
    pub services: Services,
    /// The ledger's session id: `paicli --resume` finds it by this.
    id: String,
    /// What the last start (or resume) found: notices, and the session loaded.
    started: Started,
    agent: tokio::sync::Mutex<Agent>,
    approval: ApprovalHook,
    /// Mentions of the inputs are read beneath the project root.
    guard: PathGuard,
    /// A mode switched to while an input held the agent: written to the ledger when the next input starts.
    unrecorded_mode: Mutex<Option<ApprovalMode>>,
    /// The first input waits for MCP servers still starting; later ones do not.
    mcp_waited: AtomicBool,
    /// The `source` of the `SessionStart` hooks the next input fires (`startup`, `resume`).
    pending_start: Mutex<Option<&'static str>>,
    /// The person's shell commands (`!command`) and their results since the last input: the next one carries them.
    shell_context: Mutex<Vec<String>>,
    /// Shell commands run so far, for their call ids.
    shell_runs: std::sync::atomic::AtomicU32,
}

impl Session {
    /// Builds the session for `config` whose questions go to `approver`. Must be called inside the Tokio runtime.
    pub fn start(
        config: Config,
        approver: Arc<dyn Approver>,
        options: HostOptions,
    ) -> Result<Session, HostError> {
        let guard = crate::app::project_guard(&config)?;
        let approval = build_approval_hook_with(&config, approver, !options.no_classifier)?;
        let (mut agent, services) = build_session(&config, approval.clone())?;
        if let Some(files) = options.files {
            agent.set_file_access(files);
        }
        if let Some(window) = options.window {
            agent.learn_window(window.into_receiver());
        }
        let started = match start_session(&config, &mut agent, &options.start) {
            Ok(started) => started,
            Err(e) => {
                // MCP servers may already be starting; stop them rather than leave them to the drop.
                tokio::spawn(async move { services.shutdown().await });
                return Err(e.into());
            }
        };
        services.snapshots.set_session(&started.id);
        note_resumed_reads(&services, &started);
        let start_source = if started.resumed.is_some() {
            "resume"
        } else {
            "startup"
        };
        let session = Session {
            model: agent.model().to_string(),
            config,
            services,
            id: started.id.clone(),
            started,
            agent: tokio::sync::Mutex::new(agent),
            approval,
            guard,
            unrecorded_mode: Mutex::new(None),
            mcp_waited: AtomicBool::new(false),
            pending_start: Mutex::new(Some(start_source)),
            shell_context: Mutex::default(),
            shell_runs: std::sync::atomic::AtomicU32::new(0),
        };
        if let Ok(agent) = session.agent.try_lock() {
            session.update_hook_facts(&agent);
        }
        Ok(session)
    }

    /// Settings and instruction files refused or cut by the safe reader at start-up (config files, `.env`,
    /// instruction files, mcp.json, SKILL.md): the front-ends say each once.
    pub fn file_notices(&self) -> Vec<FileNotice> {
        let mut all = self.config.file_notices.clone();
        all.extend(self.services.file_notices.iter().cloned());
        all.extend(self.services.skills.snapshot().file_notices);
        all
    }

    /// The ledger's session id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the last start or resume found (notices to tell, the session loaded).
    pub fn started(&self) -> &Started {
        &self.started
    }

    /// Runs what the person sent: a turn, or a plan that `reviewer` decides on (see [`RunAs`]). Its events, and
    /// notices about the input (mentions not attached, MCP servers), go to `sink`. A plan ends with the events a
    /// turn ends with (`turn_finished` with the per-task summary, `turn_cancelled`, `turn_failed`), so a
    /// front-end waits for one thing either way.
    pub async fn run_input(
        &self,
        input: Input,
        sink: &dyn EventSink,
        cancel: CancellationToken,
        reviewer: &dyn PlanReviewer,
    ) -> Ran {
        let hooks = &self.services.hooks;
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        hooks.watch(Some(tx));
        let ran = hook_events::relaying(
            self.run_input_watched(input, sink, cancel, reviewer),
            &mut rx,
            sink,
        )
        .await;
        hooks.watch(None);
        while let Ok(event) = rx.try_recv() {
            sink.emit(event);
        }
        ran
    }

    async fn run_input_watched(
        &self,
        input: Input,
        sink: &dyn EventSink,
        cancel: CancellationToken,
        reviewer: &dyn PlanReviewer,
    ) -> Ran {
        let mut agent = self.agent.lock().await;
        self.record_pending_mode(&agent);
        self.update_hook_facts(&agent);
        let mut context = self.session_start_context(sink).await;
        match self.prompt_hooks(&input.text, sink).await {
            Ok(more) => context.extend(more),
            Err(reason) => {
                sink.emit(crate::protocol::AgentEvent::Notice {
                    notice: crate::protocol::Notice::HookPromptBlocked {
                        reason: reason.clone(),
                    },
                });
                return Ran::Blocked { reason };
            }
        }
        let plan = input.plan_mode(self.approval_mode());
        let text = self
            .prepare(&mut agent, &input, plan.is_none(), sink, &cancel)
            .await;
        let text = hook_events::with_context(text, &context);
        match plan {
            Some(mode) => Ran::Plan(
                self.run_plan(&mut agent, text, mode, sink, cancel, reviewer)
                    .await,
            ),
            None => Ran::Turn(
                self.run_turn_with_stop_hooks(&mut agent, &input.text, &text, sink, cancel)
                    .await,
            ),
        }
    }

    /// The agent, for the one owner between inputs (the REPL's slash commands); no input can run meanwhile.
    pub fn agent_mut(&mut self) -> &mut Agent {
        self.agent.get_mut()
    }

    /// The tools the session offers (MCP servers' join as they start): what front-ends ask how a call reads.
    pub async fn tools(&self) -> Arc<crate::tools::ToolRegistry> {
        Arc::clone(self.agent.lock().await.registry())
    }

    /// The history as the model sees it (system prompt first); waits for a running input to end.
    pub async fn history(&self) -> Vec<Message> {
        self.agent.lock().await.history().to_vec()
    }

    /// Forgets the conversation (`/clear`): the conversation that ends fires `SessionEnd` with reason `clear`,
    /// and the next input fires `SessionStart` with source `clear`.
    pub async fn clear_history(&mut self) {
        self.end_hooks("clear").await;
        self.agent.get_mut().clear_history();
        *self
            .pending_start
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some("clear");
    }

    /// Continues another recorded session of this project in place of this one (`/resume`).
    pub fn resume(&mut self, options: &StartOptions) -> Result<&Started, StartError> {
        let started = start_session(&self.config, self.agent.get_mut(), options)?;
        note_resumed_reads(&self.services, &started);
        self.id.clone_from(&started.id);
        self.started = started;
        *self
            .pending_start
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some("resume");
        Ok(&self.started)
    }

    /// Continues this session's history under a new id, leaving its ledger as it is (`/fork`); returns the id.
    pub fn fork(&mut self) -> Result<&str, StartError> {
        self.id = fork_running(&self.config, self.agent.get_mut(), &self.id)?;
        Ok(&self.id)
    }

    /// Waits for a running input to end (cancel it first), so its tool results reach the ledger, fires the
    /// `SessionEnd` hooks (reason `other`), then stops the session's MCP and language servers.
    pub async fn shutdown(&self) {
        self.shutdown_for("other").await;
    }

    /// [`Session::shutdown`], with the `SessionEnd` reason the front-end knows (`prompt_input_exit` when the
    /// person left the REPL).
    pub async fn shutdown_for(&self, reason: &str) {
        let agent = self.agent.lock().await;
        self.record_pending_mode(&agent);
        self.end_hooks(reason).await;
        self.services.shutdown().await;
    }
}

/// A resumed history may hold what earlier turns read (a cloned repository's README saying "remember …"): the
/// session's memory taint counts it, so a global save still asks as it would have before the restart.
fn note_resumed_reads(services: &Services, started: &Started) {
    if started.resumed.is_some() {
        services.memory_taint.read("the resumed session's history");
    }
}
