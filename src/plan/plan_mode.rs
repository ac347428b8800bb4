//! The `plan` approval mode around any reviewer: approving a plan made in plan mode leaves plan mode for the mode
//! the session had before it, so the tasks run under that mode rather than read-only. `app::Session` puts it
//! around every front-end's reviewer; the front-end shows the `plan_mode_left` notice as it shows any other.

use std::sync::{Mutex, PoisonError};

use async_trait::async_trait;

use crate::config::ApprovalMode;
use crate::policy::approval::ApprovalHook;
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};
use crate::protocol::{AgentEvent, EventSink, Notice};

/// Asks `inner`; on [`PlanDecision::Run`] leaves plan mode and says so with a `plan_mode_left` notice.
pub struct LeavesPlanMode<'a> {
    pub inner: &'a dyn PlanReviewer,
    pub approval: &'a ApprovalHook,
    pub events: &'a dyn EventSink,
    left: Mutex<Option<ApprovalMode>>,
}

impl<'a> LeavesPlanMode<'a> {
    pub fn new(
        inner: &'a dyn PlanReviewer,
        approval: &'a ApprovalHook,
        events: &'a dyn EventSink,
    ) -> Self {
        LeavesPlanMode {
            inner,
            approval,
            events,
            left: Mutex::new(None),
        }
    }

    /// The mode an approval switched to, if one did (for the session's ledger).
    pub fn left_for(&self) -> Option<ApprovalMode> {
        *self.left.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait]
impl PlanReviewer for LeavesPlanMode<'_> {
    async fn review(&self, plan: &Plan, revision: u32) -> PlanDecision {
        let decision = self.inner.review(plan, revision).await;
        if decision == PlanDecision::Run
            && let Some(mode) = self.approval.leave_plan_mode()
        {
            *self.left.lock().unwrap_or_else(PoisonError::into_inner) = Some(mode);
            self.events.emit(AgentEvent::Notice {
                notice: Notice::PlanModeLeft {
                    mode: mode.name().to_string(),
                },
            });
        }
        decision
    }
}
