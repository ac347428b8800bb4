//! Memory recall: the saved facts relevant to a turn, shown to the model just before the user's message.

use crate::agent::Agent;
use crate::llm::Message;
use crate::protocol::{AgentEvent, EventSink, Notice};

impl Agent {
    /// Shows the model the saved facts relevant to `input`, as a user message placed just before it.
    ///
    /// PaiCLI rebuilt the system prompt with the recalled facts every turn; that changes the first bytes of every
    /// request, so the provider's prompt cache never hits (spec §10 item 9). A separate message appended to the
    /// history leaves every earlier byte, system prompt included, exactly as it was: the cached prefix holds and
    /// only the new turn is fresh input. It goes right before the user's message (not right after the system
    /// prompt, which would shift every later message each turn).
    pub(in crate::agent) fn recall_memory(
        &self,
        input: &str,
        events: &dyn EventSink,
    ) -> Option<String> {
        let store = self.memory.as_ref()?;
        let cap = (self.options.context_window / 200).clamp(500, 5000);
        match store.relevant(input, cap) {
            Ok(mut entries) => {
                // Facts still visible in an earlier recall message need not be repeated.
                let shown: Vec<String> = self
                    .conversation
                    .messages()
                    .iter()
                    .filter(|m| m.role == crate::llm::Role::User)
                    .map(Message::text)
                    .filter(|t| t.starts_with(crate::memory::RECALL_MARKER))
                    .collect();
                entries.retain(|e| {
                    let tag = format!("[{}]", e.id);
                    !shown.iter().any(|t| t.contains(&tag))
                });
                crate::memory::recall_message(&entries)
            }
            Err(e) => {
                events.emit(AgentEvent::Notice {
                    notice: Notice::MemoryUnavailable {
                        error: e.to_string(),
                    },
                });
                None
            }
        }
    }
}
