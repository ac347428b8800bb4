//! Approvals over HTTP: a question becomes an `approval_requested` event and waits until a client answers it with
//! `POST /v1/threads/{id}/approvals/{request_id}` (or the turn is cancelled, which rejects it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::event_log::EventLog;
use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};

/// The approver of one thread.
pub struct HttpApprover {
    events: Arc<EventLog>,
    pending: Mutex<HashMap<String, oneshot::Sender<ApprovalAnswer>>>,
    next: AtomicU64,
}

/// Why an answer was not taken.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("no approval request `{0}` is waiting")]
    Unknown(String),
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
}

impl AnswerBody {
    /// The answer for the approval hook; `None` when `modify` came without `arguments`.
    pub fn answer(self) -> Option<ApprovalAnswer> {
        Some(match self.decision {
            Decision::Approve => ApprovalAnswer::Approve,
            Decision::ApproveForSession => ApprovalAnswer::ApproveForSession,
            Decision::ApproveUnsandboxed => ApprovalAnswer::ApproveUnsandboxed,
            Decision::Reject => ApprovalAnswer::Reject {
                reason: self.reason,
            },
            Decision::Skip => ApprovalAnswer::Skip,
            Decision::Modify => ApprovalAnswer::Modify(self.arguments?),
        })
    }
}

impl HttpApprover {
    /// An approver that announces its questions in `events`.
    pub fn new(events: Arc<EventLog>) -> Self {
        HttpApprover {
            events,
            pending: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        }
    }

    /// Hands `answer` to the question `request_id`.
    pub fn answer(&self, request_id: &str, answer: ApprovalAnswer) -> Result<(), AnswerError> {
        let sender = self.lock().remove(request_id);
        let decision = decision_label(&answer);
        match sender.map(|s| s.send(answer)) {
            Some(Ok(())) => {
                self.events.push(&json!({
                    "type": "approval_resolved",
                    "request_id": request_id,
                    "decision": decision,
                }));
                Ok(())
            }
            // The asking call went away (cancelled) after the question was sent.
            Some(Err(_)) | None => Err(AnswerError::Unknown(request_id.to_string())),
        }
    }

    /// Drops every open question: each waiting call is rejected (the turn was cancelled).
    pub fn withdraw_all(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, oneshot::Sender<ApprovalAnswer>>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn decision_label(answer: &ApprovalAnswer) -> &'static str {
    match answer {
        ApprovalAnswer::Approve => "approve",
        ApprovalAnswer::ApproveForSession => "approve_for_session",
        ApprovalAnswer::ApproveForProject => "approve_for_project",
        ApprovalAnswer::ApproveUnsandboxed => "approve_unsandboxed",
        ApprovalAnswer::Reject { .. } => "reject",
        ApprovalAnswer::Skip => "skip",
        ApprovalAnswer::Modify(_) => "modify",
    }
}

#[async_trait]
impl Approver for HttpApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let request_id = format!("apr_{}", self.next.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        self.lock().insert(request_id.clone(), tx);
        self.events.push(&json!({
            "type": "approval_requested",
            "request_id": request_id,
            "call_id": request.call_id,
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::protocol::Risk;

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

    #[tokio::test]
    async fn a_question_is_an_event_and_waits_for_its_answer() {
        let events = Arc::new(EventLog::default());
        let approver = Arc::new(HttpApprover::new(Arc::clone(&events)));
        let asking = {
            let approver = Arc::clone(&approver);
            tokio::spawn(async move { approver.ask(&request()).await })
        };
        let mut rx = events.subscribe();
        while events.after(0).is_empty() {
            rx.changed().await.unwrap();
        }
        let asked: Value = serde_json::from_str(&events.after(0)[0].data).unwrap();
        assert_eq!(asked["type"], "approval_requested");
        assert_eq!(asked["tool"], "write_file");
        assert_eq!(asked["call_id"], "call_1");
        assert_eq!(
            approver.answer("apr_9", ApprovalAnswer::Approve),
            Err(AnswerError::Unknown("apr_9".into()))
        );
        approver.answer("apr_1", ApprovalAnswer::Approve).unwrap();
        assert_eq!(asking.await.unwrap(), ApprovalAnswer::Approve);
        assert_eq!(events.after(1)[0].kind, "approval_resolved");
    }

    #[tokio::test]
    async fn withdrawing_rejects_the_waiting_call() {
        let events = Arc::new(EventLog::default());
        let approver = Arc::new(HttpApprover::new(Arc::clone(&events)));
        let asking = {
            let approver = Arc::clone(&approver);
            tokio::spawn(async move { approver.ask(&request()).await })
        };
        let mut rx = events.subscribe();
        while events.after(0).is_empty() {
            rx.changed().await.unwrap();
        }
        approver.withdraw_all();
        assert!(matches!(
            asking.await.unwrap(),
            ApprovalAnswer::Reject { .. }
        ));
    }
}
