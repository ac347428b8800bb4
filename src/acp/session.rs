//! One ACP session: one of our sessions (agent, services, ledger) whose turns stream to the editor.

use std::path::Path;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::StopReason;
use agent_client_protocol::{Client, Error};
use tokio_util::sync::CancellationToken;

use super::approver::AcpApprover;
use super::updates::UpdateSink;
use crate::agent::Agent;
use crate::app::mentions::expand_mentions;
use crate::app::sessions::{ResumeFrom, StartOptions, start_session};
use crate::app::{self, Services};
use crate::config::{Config, Overrides};
use crate::guard::path_guard::PathGuard;
use crate::protocol::AgentEvent;

/// A session the editor opened (new, or loaded from the ledger).
pub struct AcpSession {
    /// The ledger's session id: `session/load` (and `paicli --resume`) finds it by this.
    pub id: String,
    config: Config,
    agent: tokio::sync::Mutex<Agent>,
    services: Services,
    connection: ConnectionTo<Client>,
    approver: Arc<AcpApprover>,
    running: Mutex<Option<CancellationToken>>,
}

impl AcpSession {
    /// Builds the session for the project `cwd` (a new one, or the ledger session `resume`).
    pub fn start(
        overrides: &Overrides,
        cwd: &Path,
        resume: Option<String>,
        connection: ConnectionTo<Client>,
    ) -> Result<AcpSession, Error> {
        let config = Config::load(cwd, overrides).map_err(invalid)?;
        let lang = crate::ui::i18n::Lang::resolve(config.ui_language, &config.env);
        let approver = Arc::new(AcpApprover::new(connection.clone(), lang));
        let hook =
            app::build_approval_hook(&config, Arc::clone(&approver) as _).map_err(invalid)?;
        let (mut agent, services) = app::build_session(&config, hook).map_err(invalid)?;
        let options = StartOptions {
            resume: resume.map(ResumeFrom::Id),
            fork: false,
        };
        let started = start_session(&config, &mut agent, &options).map_err(invalid)?;
        services.snapshots.set_session(&started.id);
        approver.set_session(&started.id);
        Ok(AcpSession {
            id: started.id,
            config,
            agent: tokio::sync::Mutex::new(agent),
            services,
            connection,
            approver,
            running: Mutex::new(None),
        })
    }

    /// Runs one turn with the user's `text`, streaming its events; refused while another runs.
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
            Arc::clone(&self.approver),
        );
        {
            let mut agent = self.agent.lock().await;
            let with_files = match PathGuard::new(&self.config.project_root) {
                Ok(guard) => expand_mentions(&text, &guard).text,
                Err(_) => text.clone(),
            };
            let (input, notices) =
                app::prepare_first_input(&self.config, &self.services.mcp, &with_files, &cancel)
                    .await;
            for notice in notices {
                crate::protocol::EventSink::emit(&sink, AgentEvent::Notice { notice });
            }
            agent
                .run_expanded_turn(&text, &input, &sink, cancel.clone())
                .await;
        }
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
        let _agent = self.agent.lock().await;
        self.services.shutdown().await;
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, Option<CancellationToken>> {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Any start failure reads as invalid params, with our message (already worded for people) as its data.
fn invalid(e: impl std::fmt::Display) -> Error {
    Error::invalid_params().data(serde_json::Value::String(e.to_string()))
}
