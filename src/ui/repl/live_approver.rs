//! The approval prompt and the working line share the screen: the line is cleared before the prompt is shown
//! and comes back after the answer.

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use crate::policy::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::ui::approval_prompt::TerminalApprover;
use crate::ui::render::LiveHandle;

/// The running turn's working line, if any (set by the session for the length of a turn).
pub type LiveSlot = Arc<Mutex<Option<LiveHandle>>>;

/// Wraps the terminal approver: suspends the working line while the person answers, and names the plan task
/// whose sub-agent asks (the working line's sink knows which task made each running call).
pub struct LiveAwareApprover {
    pub inner: TerminalApprover,
    pub live: LiveSlot,
}

impl LiveAwareApprover {
    fn handle(&self) -> Option<LiveHandle> {
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[async_trait]
impl Approver for LiveAwareApprover {
    fn is_interactive(&self) -> bool {
        self.inner.is_interactive()
    }

    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let live = self.handle();
        if let Some(live) = &live {
            live.suspend();
        }
        let task = live.as_ref().and_then(|l| l.task_of(&request.call_id));
        let answer = self.inner.ask_for_task(request, task).await;
        if let Some(live) = &live {
            live.resume();
        }
        answer
    }

    fn rule_not_saved(&self, error: &str) {
        self.inner.rule_not_saved(error);
    }
}
