//! Where a sub-agent's events go: wrapped with the `agent` call's id and the agent's name, onto the channel the
//! lead's turn forwards to its own sink while the tools run (tools run on tasks of their own).

use tokio::sync::mpsc::UnboundedSender;

use crate::protocol::{AgentEvent, EventSink};

pub(super) struct SubAgentSink {
    pub(super) parent_call_id: String,
    pub(super) agent: String,
    pub(super) tx: UnboundedSender<AgentEvent>,
}

impl EventSink for SubAgentSink {
    fn emit(&self, event: AgentEvent) {
        // The lead's turn ended and took the receiver with it: nobody is watching any more.
        let _ = self.tx.send(AgentEvent::SubAgent {
            parent_call_id: self.parent_call_id.clone(),
            agent: self.agent.clone(),
            event: Box::new(event),
        });
    }
}
