//! The approval prompt and the working line share the screen: the line is cleared before the prompt is shown
//! and comes back after the answer.

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use crate::policy::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::ui::approval_prompt::TerminalApprover;
use crate::ui::render::LiveHandle;

/// The running turn's working line, if any (set by the session for the length of a turn).
pub type LiveSlot = Arc<Mutex<Option<LiveHandle>>>;

/// The working line of a slot, hidden while a prompt, form or review has the screen; it comes back when this
/// is dropped.
pub struct HiddenLive(Option<LiveHandle>);

impl HiddenLive {
    /// Hides the working line in `slot`, if a turn has one.
    pub fn hide(slot: &LiveSlot) -> HiddenLive {
        let live = slot.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(live) = &live {
            live.suspend();
        }
        HiddenLive(live)
    }

    /// The hidden line's handle.
    pub fn handle(&self) -> Option<&LiveHandle> {
        self.0.as_ref()
    }
}

impl Drop for HiddenLive {
    fn drop(&mut self) {
        if let Some(live) = &self.0 {
            live.resume();
        }
    }
}

/// Wraps the terminal approver: suspends the working line while the person answers, and names the plan task
/// whose sub-agent asks (the working line's sink knows which task made each running call).
pub struct LiveAwareApprover {
    pub inner: TerminalApprover,
    pub live: LiveSlot,
}

#[async_trait]
impl Approver for LiveAwareApprover {
    fn is_interactive(&self) -> bool {
        self.inner.is_interactive()
    }

    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let hidden = HiddenLive::hide(&self.live);
        let task = hidden.handle().and_then(|l| l.task_of(&request.call_id));
        self.inner.ask_for_task(request, task).await
    }

    fn rule_not_saved(&self, error: &str) {
        self.inner.rule_not_saved(error);
    }
}
