//! Session-level operations the interactive front-end needs: clear the conversation, switch the model client.

use std::sync::Arc;

use super::Agent;
use crate::llm::{LlmClient, Message};

impl Agent {
    /// Forgets the conversation (keeps the system prompt). Session token totals are kept: they were spent.
    pub fn clear_history(&mut self) {
        self.history.truncate(1);
        self.pending_diagnostics.clear();
    }

    /// Sends later requests through `client` (another provider or model); the conversation is kept.
    pub fn set_client(&mut self, client: Arc<dyn LlmClient>) {
        self.client = client;
    }

    /// The system prompt (the first message).
    pub fn system_message(&self) -> Option<&Message> {
        self.history.first()
    }
}
