//! `paicli acp`: the Agent Client Protocol over stdio, so editors (Zed, JetBrains, Neovim clients) drive the
//! agent with no plugin of their own. Built on the official `agent-client-protocol` crate; each ACP session is one
//! of our sessions (in the ledger, loadable after a restart), its turns stream as `session/update` notifications
//! and its approvals go to the client's `session/request_permission`.

mod approver;
mod files;
mod list;
mod plan;
mod replay;
mod session;
mod updates;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::schema::{
    AgentCapabilities, CancelNotification, ContentBlock, InitializeRequest, InitializeResponse,
    ListSessionsRequest, LoadSessionRequest, LoadSessionResponse, NewSessionRequest,
    NewSessionResponse, PromptRequest, PromptResponse, SessionCapabilities,
    SessionListCapabilities, SetSessionModeRequest, SetSessionModeResponse, StopReason,
};
use agent_client_protocol::{Agent, Stdio};

use crate::config::Overrides;
use session::AcpSession;

/// The sessions this connection opened, by id.
#[derive(Default)]
struct State {
    overrides: Overrides,
    sessions: Mutex<HashMap<String, Arc<AcpSession>>>,
    /// The client offered both `fs/read_text_file` and `fs/write_text_file` in `initialize`.
    client_files: AtomicBool,
}

impl State {
    fn get(&self, id: &str) -> Option<Arc<AcpSession>> {
        self.lock().get(id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<AcpSession>>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Serves ACP on stdin/stdout until the client closes it. Must run inside the Tokio runtime.
pub async fn run(overrides: Overrides) -> Result<(), agent_client_protocol::Error> {
    let state = Arc::new(State {
        overrides,
        ..State::default()
    });
    let on_initialize = Arc::clone(&state);
    let on_new = Arc::clone(&state);
    let on_load = Arc::clone(&state);
    let on_prompt = Arc::clone(&state);
    let on_cancel = Arc::clone(&state);
    let on_mode = Arc::clone(&state);
    let on_list = Arc::clone(&state);
    let result = Agent
        .v1()
        .name("paicli")
        .on_receive_request(
            async move |request: InitializeRequest, responder, _cx| {
                let fs = &request.client_capabilities.fs;
                on_initialize
                    .client_files
                    .store(fs.read_text_file && fs.write_text_file, Ordering::Relaxed);
                let capabilities = AgentCapabilities::new()
                    .load_session(true)
                    .session_capabilities(
                        SessionCapabilities::new().list(SessionListCapabilities::new()),
                    );
                responder.respond(
                    InitializeResponse::new(request.protocol_version)
                        .agent_capabilities(capabilities),
                )
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: NewSessionRequest, responder, cx| match AcpSession::start(
                &on_new.overrides,
                &request.cwd,
                None,
                on_new.client_files.load(Ordering::Relaxed),
                cx,
            ) {
                Ok(session) => {
                    let id = session.id.clone();
                    let modes = session.modes();
                    on_new.lock().insert(id.clone(), Arc::new(session));
                    responder.respond(NewSessionResponse::new(id).modes(modes))
                }
                Err(e) => responder.respond_with_error(e),
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: LoadSessionRequest, responder, cx| {
                let id = request.session_id.0.to_string();
                let client_files = on_load.client_files.load(Ordering::Relaxed);
                let session = match AcpSession::start(
                    &on_load.overrides,
                    &request.cwd,
                    Some(id),
                    client_files,
                    cx.clone(),
                ) {
                    Ok(session) => Arc::new(session),
                    Err(e) => return responder.respond_with_error(e),
                };
                on_load
                    .lock()
                    .insert(session.id.clone(), Arc::clone(&session));
                // The protocol wants the whole history streamed before the answer.
                for update in session.replay().await {
                    updates::send(&cx, &session.id, update);
                }
                responder.respond(LoadSessionResponse::new().modes(session.modes()))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: PromptRequest, responder, _cx| {
                let Some(session) = on_prompt.get(&request.session_id.0) else {
                    return responder.respond_with_error(unknown_session(&request.session_id.0));
                };
                let text = prompt_text(&request.prompt);
                // The turn runs off the dispatch loop: it sends updates and waits for permission answers, which
                // only arrive while the loop keeps reading.
                tokio::spawn(async move {
                    let stop = match session.prompt(text).await {
                        Ok(stop) => stop,
                        Err(e) => return responder.respond_with_error(e),
                    };
                    responder.respond(PromptResponse::new(stop))
                });
                Ok(())
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: ListSessionsRequest, responder, _cx| match list::list(
                &on_list.overrides,
                request.cwd.as_deref(),
            ) {
                Ok(listed) => responder.respond(listed),
                Err(e) => responder.respond_with_error(e),
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: SetSessionModeRequest, responder, _cx| {
                let Some(session) = on_mode.get(&request.session_id.0) else {
                    return responder.respond_with_error(unknown_session(&request.session_id.0));
                };
                match session.set_mode(&request.mode_id.0) {
                    Ok(()) => responder.respond(SetSessionModeResponse::new()),
                    Err(e) => responder.respond_with_error(e),
                }
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_notification(
            async move |notification: CancelNotification, _cx| {
                if let Some(session) = on_cancel.get(&notification.session_id.0) {
                    session.cancel();
                }
                Ok(())
            },
            agent_client_protocol::on_receive_notification!(),
        )
        .connect_to(Stdio::new())
        .await;
    let sessions: Vec<_> = state.lock().drain().map(|(_, s)| s).collect();
    for session in sessions {
        session.shutdown().await;
    }
    result
}

fn unknown_session(id: &str) -> agent_client_protocol::Error {
    agent_client_protocol::Error::invalid_params()
        .data(serde_json::Value::String(format!("unknown session `{id}`")))
}

/// The user's text: the prompt's text blocks, and the links of resources it points at (as `@path` mentions).
fn prompt_text(blocks: &[ContentBlock]) -> String {
    let mut parts = Vec::new();
    for block in blocks {
        match block {
            ContentBlock::Text(text) => parts.push(text.text.clone()),
            ContentBlock::ResourceLink(link) => parts.push(format!("@{}", link.uri)),
            _ => {}
        }
    }
    parts.join("\n")
}

/// How a finished turn reads as an ACP stop reason.
fn stop_reason(cancelled: bool) -> StopReason {
    if cancelled {
        StopReason::Cancelled
    } else {
        StopReason::EndTurn
    }
}
