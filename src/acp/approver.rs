//! Approvals through the editor: a question becomes the client's `session/request_permission`, with allow once,
//! allow for this session and reject as its options. A plan made in plan mode is shown as a `think` tool call
//! holding the tasks and asked about the same way: run it, or not.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest,
    SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, ToolKind,
};
use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::plan::plan_markdown;
use crate::plan::CallTasks;
use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};
use crate::text::{Lang, Msg, task_count, tr, trf};

const ALLOW_ONCE: &str = "allow_once";
const ALLOW_SESSION: &str = "allow_session";
const REJECT: &str = "reject";
const RUN_PLAN: &str = "run_plan";
const DONT_RUN_PLAN: &str = "dont_run_plan";

/// The approver of one ACP session.
pub struct AcpApprover {
    connection: ConnectionTo<Client>,
    lang: Lang,
    session: Mutex<String>,
    /// Cancelled (and replaced) when the turn is cancelled: every open question then counts as rejected.
    withdraw: Mutex<CancellationToken>,
    /// Plans reviewed so far, for the ids of their tool calls.
    plans: AtomicU64,
    /// Which plan task made each running call, to name it in the question.
    tasks: CallTasks,
}

impl AcpApprover {
    /// An approver that asks through `connection`, with option names in `lang`; `tasks` names the plan task a
    /// question comes from.
    pub fn new(connection: ConnectionTo<Client>, lang: Lang, tasks: CallTasks) -> Self {
        AcpApprover {
            connection,
            lang,
            session: Mutex::default(),
            withdraw: Mutex::default(),
            plans: AtomicU64::new(0),
            tasks,
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

    fn option(&self, id: &str, msg: Msg, kind: PermissionOptionKind) -> PermissionOption {
        PermissionOption::new(id.to_string(), tr(self.lang, msg), kind)
    }

    /// Asks the client about `call` and returns the option chosen; `None` when the question was withdrawn or
    /// the client cancelled it or went away.
    async fn request(
        &self,
        call: ToolCallUpdate,
        options: Vec<PermissionOption>,
    ) -> Option<String> {
        let question = RequestPermissionRequest::new(lock(&self.session).clone(), call, options);
        let withdrawn = lock(&self.withdraw).clone();
        let sent = self.connection.send_request(question);
        let outcome = tokio::select! {
            response = sent.block_task() => response.map(|r| r.outcome).ok(),
            () = withdrawn.cancelled() => None,
        };
        match outcome {
            Some(RequestPermissionOutcome::Selected(selected)) => {
                Some(selected.option_id.0.to_string())
            }
            _ => None,
        }
    }
}

#[async_trait]
impl Approver for AcpApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let call = ToolCallUpdate::new(
            request.call_id.clone(),
            ToolCallUpdateFields::new()
                .title(self.tasks.titled(&request.call_id, &request.tool))
                .raw_input(Value::Object(request.args.clone())),
        );
        let options = vec![
            self.option(
                ALLOW_ONCE,
                Msg::AcpAllowOnce,
                PermissionOptionKind::AllowOnce,
            ),
            self.option(
                ALLOW_SESSION,
                Msg::AcpAllowSession,
                PermissionOptionKind::AllowAlways,
            ),
            self.option(REJECT, Msg::AcpReject, PermissionOptionKind::RejectOnce),
        ];
        match self.request(call, options).await.as_deref() {
            Some(ALLOW_ONCE) => ApprovalAnswer::Approve,
            Some(ALLOW_SESSION) => ApprovalAnswer::ApproveForSession,
            _ => ApprovalAnswer::Reject { reason: None },
        }
    }
}

#[async_trait]
impl PlanReviewer for AcpApprover {
    async fn review(&self, plan: &Plan, _revision: u32) -> PlanDecision {
        let id = format!("plan_{}", self.plans.fetch_add(1, Ordering::Relaxed) + 1);
        let count = task_count(self.lang, plan.tasks.len());
        let title = trf(self.lang, Msg::AcpPlanCall, &[("count", &count)]);
        let session = lock(&self.session).clone();
        // Editors show a permission request on the call it is about: the plan is that call.
        let shown = ToolCall::new(id.clone(), title.clone())
            .kind(ToolKind::Think)
            .status(ToolCallStatus::Pending)
            .content(vec![plan_markdown(self.lang, plan).into()]);
        super::updates::send(&self.connection, &session, SessionUpdate::ToolCall(shown));
        let options = vec![
            self.option(RUN_PLAN, Msg::AcpRunPlan, PermissionOptionKind::AllowOnce),
            self.option(
                DONT_RUN_PLAN,
                Msg::AcpDontRunPlan,
                PermissionOptionKind::RejectOnce,
            ),
        ];
        let asked = ToolCallUpdate::new(id.clone(), ToolCallUpdateFields::new().title(title));
        let decision = match self.request(asked, options).await.as_deref() {
            Some(RUN_PLAN) => PlanDecision::Run,
            _ => PlanDecision::Cancel,
        };
        let status = match decision {
            PlanDecision::Run => ToolCallStatus::Completed,
            _ => ToolCallStatus::Failed,
        };
        let decided = ToolCallUpdate::new(id, ToolCallUpdateFields::new().status(status));
        super::updates::send(
            &self.connection,
            &session,
            SessionUpdate::ToolCallUpdate(decided),
        );
        decision
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
