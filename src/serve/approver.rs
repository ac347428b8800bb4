//! Approvals over HTTP: a question becomes an `approval_requested` event (a plan made in plan mode a
//! `plan_review_requested` one) and waits until a client answers it with
//! `POST /v1/threads/{id}/approvals/{request_id}` (or the turn is cancelled, which rejects it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::event_log::EventLog;
use crate::plan::CallTasks;
use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};

/// The approver (and plan reviewer) of one thread.
pub struct HttpApprover {
    events: Arc<EventLog>,
    /// Which plan task made each running call, to name it in `approval_requested`.
    tasks: CallTasks,
    pending: Mutex<HashMap<String, Waiting>>,
    next: AtomicU64,
}

/// A question waiting for its answer.
enum Waiting {
    Call(oneshot::Sender<ApprovalAnswer>),
    Plan(oneshot::Sender<PlanDecision>),
}

/// Why an answer was not taken.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("no approval request `{0}` is waiting")]
    Unknown(String),
    /// The body does not fit the question (a plan review takes approve, reject or replan).
    #[error("{0}")]
    Invalid(String),
}

/// The body of `POST …/approvals/{request_id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    pub decision: Decision,
    /// With `reject`: told to the model.
    #[serde(default)]
    pub reason: Option<String>,
    /// With `modify`: the arguments to run with instead.
    #[serde(default)]
    pub arguments: Option<Map<String, Value>>,
    /// With `replan` (a plan review): what the new plan should take into account.
    #[serde(default)]
    pub instructions: Option<String>,
}

/// What the client decided.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Approve,
    ApproveForSession,
    /// Run this one command outside the OS sandbox (only when the request offered it).
    ApproveUnsandboxed,
    Reject,
    Skip,
    Modify,
    /// A plan review only: make a new plan with `instructions`.
    Replan,
}

impl AnswerBody {
    /// The answer for the approval hook.
    fn call_answer(self) -> Result<ApprovalAnswer, AnswerError> {
        Ok(match self.decision {
            Decision::Approve => ApprovalAnswer::Approve,
            Decision::ApproveForSession => ApprovalAnswer::ApproveForSession,
            Decision::ApproveUnsandboxed => ApprovalAnswer::ApproveUnsandboxed,
            Decision::Reject => ApprovalAnswer::Reject {
                reason: self.reason,
            },
            Decision::Skip => ApprovalAnswer::Skip,
            Decision::Modify => ApprovalAnswer::Modify(
                self.arguments
                    .ok_or_else(|| AnswerError::Invalid("`modify` needs `arguments`".into()))?,
            ),
            Decision::Replan => {
                return Err(AnswerError::Invalid(
                    "`replan` answers a plan review, not a tool call".into(),
                ));
            }
        })
    }

    /// The decision on a proposed plan: approve runs it, reject runs nothing, replan makes a new one.
    fn plan_decision(self) -> Result<PlanDecision, AnswerError> {
        match self.decision {
            Decision::Approve => Ok(PlanDecision::Run),
            Decision::Reject => Ok(PlanDecision::Cancel),
            Decision::Replan => match self.instructions {
                Some(instructions) if !instructions.trim().is_empty() => {
                    Ok(PlanDecision::Replan { instructions })
                }
                _ => Err(AnswerError::Invalid(
                    "`replan` needs non-empty `instructions`".into(),
                )),
            },
            _ => Err(AnswerError::Invalid(
                "a plan review takes `approve`, `reject` or `replan`".into(),
            )),
        }
    }
}

impl HttpApprover {
    /// An approver that announces its questions in `events`; `tasks` names the plan task a question comes from.
    pub fn new(events: Arc<EventLog>, tasks: CallTasks) -> Self {
        HttpApprover {
            events,
            tasks,
            pending: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Hands the answer `body` to the question `request_id`; a body that does not fit it leaves it waiting.
    pub fn answer(&self, request_id: &str, body: AnswerBody) -> Result<(), AnswerError> {
        let mut pending = self.lock();
        let unknown = || AnswerError::Unknown(request_id.to_string());
        let decision = match pending.get(request_id).ok_or_else(unknown)? {
            Waiting::Call(_) => Decided::Call(body.call_answer()?),
            Waiting::Plan(_) => Decided::Plan(body.plan_decision()?),
        };
        let label = decision.label();
        let sent = match (pending.remove(request_id), decision) {
            (Some(Waiting::Call(tx)), Decided::Call(answer)) => tx.send(answer).is_ok(),
            (Some(Waiting::Plan(tx)), Decided::Plan(decision)) => tx.send(decision).is_ok(),
            _ => false,
        };
        drop(pending);
        // Not sent: the asking turn went away (cancelled) after the question was sent.
        if !sent {
            return Err(unknown());
        }
        self.events.push(&json!({
            "type": "approval_resolved",
            "request_id": request_id,
            "decision": label,
        }));
        Ok(())
    }

    fn ask_id(&self, waiting: Waiting) -> String {
        let request_id = format!("apr_{}", self.next.fetch_add(1, Ordering::Relaxed));
        self.lock().insert(request_id.clone(), waiting);
        request_id
    }

    /// Drops every open question: each waiting call is rejected (the turn was cancelled).
    pub fn withdraw_all(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Waiting>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// An answer that fits its question.
enum Decided {
    Call(ApprovalAnswer),
    Plan(PlanDecision),
}

impl Decided {
    /// The `decision` of the `approval_resolved` event.
    fn label(&self) -> &'static str {
        match self {
            Decided::Call(ApprovalAnswer::Approve) | Decided::Plan(PlanDecision::Run) => "approve",
            Decided::Call(ApprovalAnswer::ApproveForSession) => "approve_for_session",
            Decided::Call(ApprovalAnswer::ApproveForProject) => "approve_for_project",
            Decided::Call(ApprovalAnswer::ApproveUnsandboxed) => "approve_unsandboxed",
            Decided::Call(ApprovalAnswer::Reject { .. }) | Decided::Plan(PlanDecision::Cancel) => {
                "reject"
            }
            Decided::Call(ApprovalAnswer::Skip) => "skip",
            Decided::Call(ApprovalAnswer::Modify(_)) => "modify",
            Decided::Plan(PlanDecision::Replan { .. }) => "replan",
        }
    }
}

#[async_trait]
impl Approver for HttpApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let (tx, rx) = oneshot::channel();
        let request_id = self.ask_id(Waiting::Call(tx));
        self.events.push(&json!({
            "type": "approval_requested",
            "request_id": request_id,
            "call_id": request.call_id,
            "task_id": self.tasks.task_of(&request.call_id),
            "tool": request.tool,
            "risk": request.risk.label(),
            "arguments": request.args,
            "session_rule": request.session_rule.as_ref().map(ToString::to_string),
            "unsandboxed_offered": request.unsandboxed,
            "note": request.note,
        }));
        let answer = rx.await;
        // Whatever happened, the question is closed (a cancelled turn drops the sender).
        self.lock().remove(&request_id);
        answer.unwrap_or(ApprovalAnswer::Reject {
            reason: Some("the turn was cancelled before the call was approved".to_string()),
        })
    }
}

#[async_trait]
impl PlanReviewer for HttpApprover {
    async fn review(&self, plan: &Plan, _revision: u32) -> PlanDecision {
        let (tx, rx) = oneshot::channel();
        let request_id = self.ask_id(Waiting::Plan(tx));
        self.events.push(&json!({
            "type": "plan_review_requested",
            "request_id": request_id,
            "plan": plan,
        }));
        let decision = rx.await;
        self.lock().remove(&request_id);
        // A cancelled turn drops the question: nothing of the plan runs.
        decision.unwrap_or(PlanDecision::Cancel)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::protocol::Risk;
    use crate::protocol::plan::PlanTask;

    fn request() -> ApprovalRequest {
        ApprovalRequest {
            call_id: "call_1".into(),
            tool: "write_file".into(),
            risk: Risk::Medium,
            args: Map::new(),
            session_rule: None,
            project_rule: None,
            unsandboxed: false,
            note: None,
        }
    }

    fn body(value: Value) -> AnswerBody {
        serde_json::from_value(value).unwrap()
    }

    /// An approver whose question `ask` is already out: the task waiting for the answer, and the event.
    async fn question_out<T: Send + 'static>(
        ask: impl FnOnce(Arc<HttpApprover>) -> tokio::task::JoinHandle<T>,
    ) -> (
        Arc<HttpApprover>,
        Arc<EventLog>,
        tokio::task::JoinHandle<T>,
        Value,
    ) {
        let events = Arc::new(EventLog::default());
        let approver = Arc::new(HttpApprover::new(Arc::clone(&events), CallTasks::default()));
        let mut rx = events.subscribe();
        let waiting = ask(Arc::clone(&approver));
        while events.after(0).is_empty() {
            rx.changed().await.unwrap();
        }
        let asked = serde_json::from_str(&events.after(0)[0].data).unwrap();
        (approver, events, waiting, asked)
    }

    fn ask_call(approver: Arc<HttpApprover>) -> tokio::task::JoinHandle<ApprovalAnswer> {
        tokio::spawn(async move { approver.ask(&request()).await })
    }

    fn review(approver: Arc<HttpApprover>) -> tokio::task::JoinHandle<PlanDecision> {
        let plan = Plan {
            goal: "split the module".into(),
            tasks: vec![PlanTask {
                id: "A".into(),
                title: "Move the parser".into(),
                description: String::new(),
                depends_on: Vec::new(),
            }],
        };
        tokio::spawn(async move { approver.review(&plan, 0).await })
    }

    #[tokio::test]
    async fn a_question_is_an_event_and_waits_for_its_answer() {
        let (approver, events, asking, asked) = question_out(ask_call).await;
        assert_eq!(asked["type"], "approval_requested");
        assert_eq!(asked["tool"], "write_file");
        assert_eq!(asked["call_id"], "call_1");
        assert_eq!(
            approver.answer("apr_9", body(json!({"decision": "approve"}))),
            Err(AnswerError::Unknown("apr_9".into()))
        );
        approver
            .answer("apr_1", body(json!({"decision": "approve"})))
            .unwrap();
        assert_eq!(asking.await.unwrap(), ApprovalAnswer::Approve);
        assert_eq!(events.after(1)[0].kind, "approval_resolved");
    }

    #[tokio::test]
    async fn withdrawing_rejects_the_waiting_call() {
        let (approver, _events, asking, _) = question_out(ask_call).await;
        approver.withdraw_all();
        assert!(matches!(
            asking.await.unwrap(),
            ApprovalAnswer::Reject { .. }
        ));
    }

    #[tokio::test]
    async fn a_plan_review_is_an_event_and_takes_approve_reject_or_replan_only() {
        let (approver, events, reviewing, asked) = question_out(review).await;
        assert_eq!(asked["type"], "plan_review_requested");
        assert_eq!(asked["plan"]["tasks"][0]["id"], "A");
        // Answers that fit a tool call but not a plan leave the review waiting.
        for wrong in [
            json!({"decision": "approve_for_session"}),
            json!({"decision": "replan"}),
            json!({"decision": "replan", "instructions": "  "}),
        ] {
            assert!(matches!(
                approver.answer("apr_1", body(wrong)),
                Err(AnswerError::Invalid(_))
            ));
        }
        approver
            .answer(
                "apr_1",
                body(json!({"decision": "replan", "instructions": "keep the old API"})),
            )
            .unwrap();
        assert_eq!(
            reviewing.await.unwrap(),
            PlanDecision::Replan {
                instructions: "keep the old API".into()
            }
        );
        let resolved: Value = serde_json::from_str(&events.after(1)[0].data).unwrap();
        assert_eq!(resolved["decision"], "replan");
    }

    #[tokio::test]
    async fn a_tool_call_question_refuses_replan_and_a_withdrawn_review_runs_nothing() {
        let (approver, _events, asking, _) = question_out(ask_call).await;
        assert!(matches!(
            approver.answer(
                "apr_1",
                body(json!({"decision": "replan", "instructions": "x"}))
            ),
            Err(AnswerError::Invalid(_))
        ));
        assert!(matches!(
            approver.answer("apr_1", body(json!({"decision": "modify"}))),
            Err(AnswerError::Invalid(_))
        ));
        approver
            .answer("apr_1", body(json!({"decision": "skip"})))
            .unwrap();
        assert_eq!(asking.await.unwrap(), ApprovalAnswer::Skip);

        let (approver, _events, reviewing, _) = question_out(review).await;
        approver.withdraw_all();
        assert_eq!(reviewing.await.unwrap(), PlanDecision::Cancel);
    }
}
