//! Keeps the MCP resource index in the system prompt current: rebuilt only when a server's resource listing
//! changed (the manager's generation moved) and written only when its bytes differ, so the request prefix stays
//! byte-identical across requests otherwise. Off below a 32k context window (spec §7).

use super::prompt::with_resource_index;
use crate::mcp::McpManager;
use crate::session::Conversation;

/// Smallest context window that gets the index.
pub const MIN_WINDOW: u64 = 32_000;

/// The index's source and the generation it was last built from.
pub struct ResourceIndex {
    manager: McpManager,
    built_from: Option<u64>,
}

impl ResourceIndex {
    /// An index over `manager`'s servers, built at the first refresh.
    pub fn new(manager: McpManager) -> Self {
        ResourceIndex {
            manager,
            built_from: None,
        }
    }

    /// Rewrites the system prompt of `conversation` when the resources changed since the last call.
    pub fn refresh(&mut self, conversation: &mut Conversation, context_window: u64) {
        if context_window < MIN_WINDOW {
            return;
        }
        let generation = self.manager.resources_generation();
        if self.built_from == Some(generation) {
            return;
        }
        self.built_from = Some(generation);
        let current = conversation.system().text();
        let next = with_resource_index(&current, &self.manager.cached_resources());
        if next != current {
            conversation.set_system_prompt(next);
        }
    }
}
