//! Approvals through the editor: a question becomes the client's `session/request_permission`, with allow once,
//! allow for this session and reject as its options.

use std::sync::Mutex;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest,
    ToolCallUpdate, ToolCallUpdateFields,
};
use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::ui::i18n::{Lang, Msg, tr};

const ALLOW_ONCE: &str = "allow_once";
const ALLOW_SESSION: &str = "allow_session";
const REJECT: &str = "reject";

/// The approver of one ACP session.
pub struct AcpApprover {
    connection: ConnectionTo<Client>,
    lang: Lang,
    session: Mutex<String>,
    /// Cancelled (and replaced) when the turn is cancelled: every open question then counts as rejected.
    withdraw: Mutex<CancellationToken>,
}

impl AcpApprover {
    /// An approver that asks through `connection`, with option names in `lang`.
    pub fn new(connection: ConnectionTo<Client>, lang: Lang) -> Self {
        AcpApprover {
            connection,
            lang,
            session: Mutex::default(),
            withdraw: Mutex::default(),
        }
    }

    /// Names the session the questions belong to (known once the ledger has started it).
    pub fn set_session(&self, id: &str) {
        *lock(&self.session) = id.to_string();
    }

    /// Rejects every open question (the turn was cancelled).
    pub fn withdraw_all(&self) {
        let old = std::mem::take(&mut *lock(&self.withdraw));
        old.cancel();
    }
}

#[async_trait]
impl Approver for AcpApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let option =
            |id: &str, msg, kind| PermissionOption::new(id.to_string(), tr(self.lang, msg), kind);
        let question = RequestPermissionRequest::new(
            lock(&self.session).clone(),
            ToolCallUpdate::new(
                request.call_id.clone(),
                ToolCallUpdateFields::new()
                    .title(request.tool.clone())
                    .raw_input(Value::Object(request.args.clone())),
            ),
            vec![
                option(
                    ALLOW_ONCE,
                    Msg::AcpAllowOnce,
                    PermissionOptionKind::AllowOnce,
                ),
                option(
                    ALLOW_SESSION,
                    Msg::AcpAllowSession,
                    PermissionOptionKind::AllowAlways,
                ),
                option(REJECT, Msg::AcpReject, PermissionOptionKind::RejectOnce),
            ],
        );
        let withdrawn = lock(&self.withdraw).clone();
        let sent = self.connection.send_request(question);
        let outcome = tokio::select! {
            response = sent.block_task() => response.map(|r| r.outcome).ok(),
            () = withdrawn.cancelled() => None,
        };
        match outcome {
            Some(RequestPermissionOutcome::Selected(selected)) => match &*selected.option_id.0 {
                ALLOW_ONCE => ApprovalAnswer::Approve,
                ALLOW_SESSION => ApprovalAnswer::ApproveForSession,
                _ => ApprovalAnswer::Reject { reason: None },
            },
            _ => ApprovalAnswer::Reject { reason: None },
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
