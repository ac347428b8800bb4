//! The session's approval mode: read, switched (an editor's mode picker, `/mode`, Shift+Tab) and written to the
//! ledger, also when the switch comes while an input holds the agent.

use std::sync::{MutexGuard, PoisonError};

use super::Session;
use crate::agent::Agent;
use crate::config::ApprovalMode;

impl Session {
    /// The approval mode now (approving a plan made in plan mode changes it).
    pub fn approval_mode(&self) -> ApprovalMode {
        self.approval.mode()
    }

    /// Switches the approval mode; a running input's next calls are judged by it. The ledger records the switch
    /// now, or when the next input starts if one is running.
    pub fn set_approval_mode(&self, mode: ApprovalMode) {
        self.approval.set_mode(mode);
        match self.agent.try_lock() {
            Ok(agent) => agent.conversation().note_mode(mode.name()),
            Err(_) => *self.lock_unrecorded() = Some(mode),
        }
    }

    /// The approval rules the person saved for this session (answering `a`).
    pub fn approval_rules(&self) -> crate::policy::approval::RuleSet {
        self.approval.session_rules()
    }

    /// Writes a switch made while an input ran.
    pub(super) fn record_pending_mode(&self, agent: &Agent) {
        if let Some(mode) = self.lock_unrecorded().take() {
            agent.conversation().note_mode(mode.name());
        }
    }

    fn lock_unrecorded(&self) -> MutexGuard<'_, Option<ApprovalMode>> {
        self.unrecorded_mode
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
