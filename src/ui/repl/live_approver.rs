//! The approval prompt and the working line share the screen: the line is cleared before the prompt is shown
//! and comes back after the answer.

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use crate::policy::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::ui::render::LiveHandle;

/// The running turn's working line, if any (set by the session for the length of a turn).
pub type LiveSlot = Arc<Mutex<Option<LiveHandle>>>;

/// Wraps the terminal approver: suspends the working line while the person answers.
pub struct LiveAwareApprover<A> {
    pub inner: A,
    pub live: LiveSlot,
}

impl<A> LiveAwareApprover<A> {
    fn handle(&self) -> Option<LiveHandle> {
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[async_trait]
impl<A: Approver> Approver for LiveAwareApprover<A> {
    fn is_interactive(&self) -> bool {
        self.inner.is_interactive()
    }

    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let live = self.handle();
        if let Some(live) = &live {
            live.suspend();
        }
        let answer = self.inner.ask(request).await;
        if let Some(live) = &live {
            live.resume();
        }
        answer
    }

    fn rule_not_saved(&self, error: &str) {
        self.inner.rule_not_saved(error);
    }
}
