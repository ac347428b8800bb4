//! One thread of the runtime API: a session (agent, services, ledger) with its event log, its approver and at
//! most one running turn.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::api_error::ApiError;
use super::approver::HttpApprover;
use super::event_log::EventLog;
use crate::app::session::{HostError, HostOptions, Input, Session};
use crate::app::sessions::StartError;
use crate::app::sessions::{ResumeFrom, StartOptions};
use crate::config::{ApprovalMode, Config, Overrides};
use crate::plan::CallTasks;
use crate::protocol::{AgentEvent, EventSink};
use crate::session::ledger::{FindError, LedgerError};
use crate::text::Lang;

/// A running thread.
pub struct Thread {
    /// The session id: the ledger's, so `--resume` (and a later `POST /v1/threads` with `resume`) finds it.
    pub id: String,
    pub project: PathBuf,
    pub model: String,
    hosted: Session,
    pub events: Arc<EventLog>,
    pub approver: Arc<HttpApprover>,
    tasks: CallTasks,
    running: Mutex<Option<RunningTurn>>,
    turns: AtomicU64,
}

struct RunningTurn {
    id: String,
    cancel: CancellationToken,
}

impl Thread {
    /// Builds the session for `config` (a new one, or the ledger `resume` names) with nobody at a terminal:
    /// questions go out as events. Must be called inside the Tokio runtime.
    pub fn start(config: Config, resume: Option<String>) -> Result<Thread, ApiError> {
        let events = Arc::new(EventLog::default());
        let tasks = CallTasks::default();
        let approver = Arc::new(HttpApprover::new(Arc::clone(&events), tasks.clone()));
        let options = HostOptions {
            start: StartOptions {
                resume: resume.map(ResumeFrom::Id),
                fork: false,
                id: None,
            },
            ..HostOptions::default()
        };
        let hosted =
            Session::start(config, Arc::clone(&approver) as _, options).map_err(host_error)?;
        let lang = Lang::resolve(hosted.config.ui_language, &hosted.config.env);
        for notice in &hosted.started().notices {
            events.push(&json!({
                "type": "session_notice",
                "text": crate::text::start_notice_text(lang, notice),
            }));
        }
        Ok(Thread {
            id: hosted.id().to_string(),
            project: hosted.config.project_root.clone(),
            model: hosted.model.clone(),
            hosted,
            events,
            approver,
            tasks,
            running: Mutex::new(None),
            turns: AtomicU64::new(0),
        })
    }

    /// Starts a turn with the user's `text` in the background and returns its id; refused while one runs.
    pub fn start_turn(self: &Arc<Self>, text: String) -> Result<String, ApiError> {
        let mut running = self.lock_running();
        if let Some(turn) = running.as_ref() {
            return Err(ApiError::TurnRunning(turn.id.clone()));
        }
        let turn_id = format!("turn_{}", self.turns.fetch_add(1, Ordering::Relaxed) + 1);
        let cancel = CancellationToken::new();
        *running = Some(RunningTurn {
            id: turn_id.clone(),
            cancel: cancel.clone(),
        });
        drop(running);
        self.events
            .push(&json!({"type": "turn_started", "turn_id": turn_id, "text": text}));
        let thread = Arc::clone(self);
        let id = turn_id.clone();
        tokio::spawn(async move { thread.run_turn(id, text, cancel).await });
        Ok(turn_id)
    }

    /// Cancels the running turn (its waiting approvals are rejected) and returns its id.
    pub fn cancel(&self) -> Result<String, ApiError> {
        let running = self.lock_running();
        let turn = running.as_ref().ok_or(ApiError::NoTurnRunning)?;
        turn.cancel.cancel();
        self.approver.withdraw_all();
        Ok(turn.id.clone())
    }

    /// The approval mode now (approving a plan made in plan mode changes it).
    pub fn approval_mode(&self) -> ApprovalMode {
        self.hosted.approval_mode()
    }

    /// Switches the approval mode.
    pub fn set_approval_mode(&self, mode: ApprovalMode) {
        self.hosted.set_approval_mode(mode);
    }

    /// The id of the running turn, if any.
    pub fn running_turn(&self) -> Option<String> {
        self.lock_running().as_ref().map(|t| t.id.clone())
    }

    /// Cancels any running turn and stops the thread's MCP and language servers.
    pub async fn shutdown(&self) {
        let _ = self.cancel();
        self.hosted.shutdown().await;
    }

    async fn run_turn(&self, turn_id: String, text: String, cancel: CancellationToken) {
        let sink = TurnSink {
            events: Arc::clone(&self.events),
            turn_id: turn_id.clone(),
            tasks: self.tasks.clone(),
            last: Mutex::new(None),
        };
        self.hosted
            .run_input(Input::typed(text), &sink, cancel, self.approver.as_ref())
            .await;
        // The turn's last event goes out only once the thread is free, so a client that sees it may send the
        // next turn at once.
        *self.lock_running() = None;
        let last = sink
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(last) = last {
            self.events.push(&last);
        }
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, Option<RunningTurn>> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// How a failed session start reads as an API error.
fn host_error(e: HostError) -> ApiError {
    let e = match e {
        HostError::Setup(e) => return ApiError::BadRequest(e.to_string()),
        HostError::Start(e) => e,
    };
    match e {
        StartError::Find(FindError::Unknown { .. }) | StartError::NothingToContinue { .. } => {
            ApiError::UnknownSession(e.to_string())
        }
        StartError::Find(FindError::Ambiguous { .. }) => ApiError::BadRequest(e.to_string()),
        StartError::Ledger(LedgerError::InUse { .. }) | StartError::AlreadyRunning { .. } => {
            ApiError::Conflict(e.to_string())
        }
        other => ApiError::Internal(other.to_string()),
    }
}

/// The thread's config: the server's flags with the thread's own model and approval mode on top.
pub fn thread_config(
    project: &std::path::Path,
    base: &Overrides,
    model: Option<String>,
    approval: Option<&str>,
) -> Result<Config, ApiError> {
    let approval = approval
        .map(str::parse)
        .transpose()
        .map_err(ApiError::BadRequest)?;
    let overrides = Overrides {
        model: model.or_else(|| base.model.clone()),
        approval: approval.or(base.approval),
        ..base.clone()
    };
    Config::load(project, &overrides).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// Sends a turn's events to the log, each tagged with the turn; holds back the final one (see `run_turn`).
struct TurnSink {
    events: Arc<EventLog>,
    turn_id: String,
    tasks: CallTasks,
    last: Mutex<Option<Value>>,
}

impl EventSink for TurnSink {
    fn emit(&self, event: AgentEvent) {
        if let AgentEvent::PlanTaskEvent { task_id, event } = &event {
            self.tasks.observe(task_id, event);
        }
        let last = matches!(
            event,
            AgentEvent::TurnFinished { .. }
                | AgentEvent::TurnPartial { .. }
                | AgentEvent::TurnCancelled
                | AgentEvent::TurnFailed { .. }
        );
        let mut value = serde_json::to_value(&event).unwrap_or_else(|_| json!({"type": "event"}));
        if let Some(object) = value.as_object_mut() {
            object.insert("turn_id".into(), Value::String(self.turn_id.clone()));
        }
        if last {
            *self
                .last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(value);
        } else {
            self.events.push(&value);
        }
    }
}
