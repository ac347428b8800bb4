//! One ACP session: the app's session (agent, services, ledger) whose turns stream to the editor, whose
//! questions (and plans, in plan mode) go to its permission requests, whose approval modes are the editor's
//! session modes and, when the editor serves its buffers, whose file tools read and write through it.

use std::path::Path;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{SessionMode, SessionModeState, SessionUpdate, StopReason};
use agent_client_protocol::{Client, Error};
use tokio_util::sync::CancellationToken;

use super::approver::AcpApprover;
use super::files::ClientFiles;
use super::updates::{CallTools, UpdateSink};
use crate::app::session::{HostOptions, Input, Session};
use crate::app::sessions::{ResumeFrom, StartOptions};
use crate::config::{ApprovalMode, Config, Overrides};
use crate::plan::CallTasks;
use crate::protocol::FileAccess;
use crate::text::{Lang, mode_help, mode_label, tr};

/// A session the editor opened (new, or loaded from the ledger).
pub struct AcpSession {
    /// The ledger's session id: `session/load` (and `paicli --resume`) finds it by this.
    pub id: String,
    hosted: Session,
    connection: ConnectionTo<Client>,
    approver: Arc<AcpApprover>,
    running: Mutex<Option<CancellationToken>>,
    lang: Lang,
    tasks: CallTasks,
}

impl AcpSession {
    /// Builds the session for the project `cwd` (a new one, or the ledger session `resume`); `client_files`
    /// when the editor serves reads and writes of its buffers.
    pub fn start(
        overrides: &Overrides,
        cwd: &Path,
        resume: Option<String>,
        client_files: bool,
        connection: ConnectionTo<Client>,
    ) -> Result<AcpSession, Error> {
        let config = Config::load(cwd, overrides).map_err(invalid)?;
        let lang = Lang::resolve(config.ui_language, &config.env);
        let tasks = CallTasks::default();
        let approver = Arc::new(AcpApprover::new(connection.clone(), lang, tasks.clone()));
        let files = client_files.then(|| Arc::new(ClientFiles::new(connection.clone())));
        let options = HostOptions {
            start: StartOptions {
                resume: resume.map(ResumeFrom::Id),
                fork: false,
                id: None,
            },
            files: files.clone().map(|f| f as Arc<dyn FileAccess>),
            ..HostOptions::default()
        };
        let hosted =
            Session::start(config, Arc::clone(&approver) as _, options).map_err(invalid)?;
        approver.set_session(hosted.id());
        if let Some(files) = &files {
            files.set_session(hosted.id());
        }
        Ok(AcpSession {
            id: hosted.id().to_string(),
            hosted,
            connection,
            approver,
            running: Mutex::new(None),
            lang,
            tasks,
        })
    }

    /// The approval modes as the editor's session modes, the current one selected.
    pub fn modes(&self) -> SessionModeState {
        let modes = ApprovalMode::ALL
            .iter()
            .map(|&mode| {
                SessionMode::new(mode.name(), tr(self.lang, mode_label(mode)))
                    .description(tr(self.lang, mode_help(mode)).to_string())
            })
            .collect();
        SessionModeState::new(self.hosted.approval_mode().name(), modes)
    }

    /// Switches the approval mode to the session mode `id` (the editor's mode picker).
    pub fn set_mode(&self, id: &str) -> Result<(), Error> {
        let mode: ApprovalMode = id
            .parse()
            .map_err(|why: String| Error::invalid_params().data(serde_json::Value::String(why)))?;
        self.hosted.set_approval_mode(mode);
        Ok(())
    }

    /// The updates that show the stored history (for `session/load`).
    pub async fn replay(&self) -> Vec<SessionUpdate> {
        let calls = self.call_tools().await;
        super::replay::replay(&self.hosted.history().await, &calls)
    }

    /// The session's tools and root, for how each call reads in the editor.
    async fn call_tools(&self) -> CallTools {
        CallTools {
            tools: self.hosted.tools().await,
            root: self.hosted.config.project_root.clone(),
        }
    }

    /// Runs the user's `text` (a turn, or a plan in plan mode), streaming its events; refused while another runs.
    pub async fn prompt(&self, text: String) -> Result<StopReason, Error> {
        let cancel = CancellationToken::new();
        {
            let mut running = self.lock_running();
            if running.is_some() {
                return Err(Error::invalid_request().data(serde_json::Value::String(
                    "a prompt is already running in this session".into(),
                )));
            }
            *running = Some(cancel.clone());
        }
        let sink = UpdateSink::new(
            self.id.clone(),
            self.connection.clone(),
            self.call_tools().await,
            self.tasks.clone(),
        );
        self.hosted
            .run_input(
                Input::typed(text),
                &sink,
                cancel.clone(),
                self.approver.as_ref(),
            )
            .await;
        *self.lock_running() = None;
        Ok(super::stop_reason(cancel.is_cancelled()))
    }

    /// Cancels the running turn; its open permission requests are answered as rejected.
    pub fn cancel(&self) {
        if let Some(cancel) = self.lock_running().as_ref() {
            cancel.cancel();
        }
        self.approver.withdraw_all();
    }

    /// Cancels any running turn and stops the session's MCP and language servers.
    pub async fn shutdown(&self) {
        self.cancel();
        self.hosted.shutdown().await;
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, Option<CancellationToken>> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Any start failure reads as invalid params, with our message (already worded for people) as its data.
pub(super) fn invalid(e: impl std::fmt::Display) -> Error {
    Error::invalid_params().data(serde_json::Value::String(e.to_string()))
}
