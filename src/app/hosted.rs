//! A session driven by another program instead of a terminal (`paicli serve` threads, `paicli acp` sessions,
//! background tasks): built for its config and approver, started in the ledger (new or resumed), its turns run
//! with `@file` mentions and MCP prompts expanded, and shut down with its servers.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::sessions::{ResumeFrom, StartError, StartNotice, StartOptions, start_session};
use super::{Services, SetupError, build_approval_hook, build_session, prepare_first_input};
use crate::agent::{Agent, TurnReport};
use crate::app::mentions::expand_mentions;
use crate::config::Config;
use crate::guard::path_guard::PathGuard;
use crate::protocol::message::Message;
use crate::protocol::{AgentEvent, Approver, EventSink, FileAccess};

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
}

impl HostedSession {
    /// Builds the session for `config` whose questions go to `approver`. Must be called inside the Tokio runtime.
    pub fn start(
        config: Config,
        approver: Arc<dyn Approver>,
        options: HostOptions,
    ) -> Result<HostedSession, HostError> {
        let hook = build_approval_hook(&config, approver)?;
        let (mut agent, services) = build_session(&config, hook)?;
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
        })
    }

    /// Runs one turn with the user's `text`, its events (and any notice about the input) going to `sink`.
    pub async fn run_turn(
        &self,
        text: &str,
        sink: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        let mut agent = self.agent.lock().await;
        let with_files = match PathGuard::new(&self.config.project_root) {
            Ok(guard) => expand_mentions(text, &guard).text,
            Err(_) => text.to_string(),
        };
        let (input, notices) =
            prepare_first_input(&self.config, &self.services.mcp, &with_files, &cancel).await;
        for notice in notices {
            sink.emit(AgentEvent::Notice { notice });
        }
        agent.run_expanded_turn(text, &input, sink, cancel).await
    }

    /// The history as the model sees it (system prompt first); waits for a running turn to end.
    pub async fn history(&self) -> Vec<Message> {
        self.agent.lock().await.history().to_vec()
    }

    /// Waits for a running turn to end (cancel it first), so its tool results reach the ledger, then stops the
    /// session's MCP and language servers.
    pub async fn shutdown(&self) {
        let _agent = self.agent.lock().await;
        self.services.shutdown().await;
    }
}
