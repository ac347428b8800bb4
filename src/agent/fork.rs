//! Sub-agents: agents forked from this one for plan tasks. They share the model client, the tools, the executor
//! (with its path locks), the gates and the session's approvals, and keep a conversation of their own, so they run
//! on the same loop as the lead without touching its history.

use std::sync::Arc;

use super::{Agent, TurnHook, compaction};
use crate::session::Conversation;

impl Agent {
    /// A sub-agent with its own conversation starting with `system_prompt`; everything else is shared with
    /// this agent, except turn hooks that stay with the lead (see [`TurnHook::carries_into_forks`]).
    pub fn fork(&self, system_prompt: String) -> Agent {
        let turn_hooks: Vec<Arc<dyn TurnHook>> = self
            .turn_hooks
            .iter()
            .filter(|hook| hook.carries_into_forks())
            .cloned()
            .collect();
        Agent {
            client: Arc::clone(&self.client),
            executor: self.executor.clone(),
            tool_specs: Arc::clone(&self.tool_specs),
            registry: Arc::clone(&self.registry),
            specs_generation: self.specs_generation,
            tool_ctx: self.tool_ctx.clone(),
            conversation: Conversation::new(system_prompt),
            options: self.options.clone(),
            pending_diagnostics: Vec::new(),
            diagnostics: self.diagnostics.clone(),
            unchecked_files: Vec::new(),
            turn_hooks,
            thresholds: self.thresholds,
            summary_backoff: compaction::SummaryBackoff::default(),
            memory: self.memory.clone(),
            vision: self.vision,
            image_limits: self.image_limits,
            pending_images: Vec::new(),
            resource_index: None,
        }
    }

    /// The system prompt's text, for sub-agents that start from the lead's instructions.
    pub fn system_prompt(&self) -> String {
        self.conversation.system().text()
    }

    /// Records an exchange that happened outside the loop (a plan run and its summary) as one turn of this
    /// conversation, so later turns know what was done.
    pub fn record_exchange(&mut self, input: &str, answer: &str) {
        self.conversation.begin_turn(None, input);
        self.conversation.push_answer(answer);
    }
}

impl Agent {
    /// The tools this agent offers (what a sub-agent's tool filter judges).
    pub fn registry(&self) -> &Arc<crate::tools::ToolRegistry> {
        &self.registry
    }
}
