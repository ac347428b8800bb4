//! The event sink of a task run from a chat: it keeps how the task ended and the tokens it used; the layer sends
//! the ending as the reply.

use std::sync::Mutex;

use crate::protocol::{AgentEvent, EventSink};

/// How a task ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Finished(String),
    Partial { reason: String, text: String },
    Cancelled,
    Failed(String),
}

#[derive(Default)]
struct Seen {
    ending: Option<Ending>,
    tokens: u64,
}

/// Collects one task's ending and token count.
#[derive(Default)]
pub struct ChatSink {
    seen: Mutex<Seen>,
}

impl ChatSink {
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How the task ended; `None` when no ending event came (a blocked input).
    pub fn ending(&self) -> Option<Ending> {
        self.lock().ending.clone()
    }

    /// Prompt and completion tokens of every model request of the task.
    pub fn tokens(&self) -> u64 {
        self.lock().tokens
    }
}

impl EventSink for ChatSink {
    fn emit(&self, event: AgentEvent) {
        let mut seen = self.lock();
        match event {
            AgentEvent::Usage { response, .. } => {
                seen.tokens += response.prompt_tokens + response.completion_tokens;
            }
            AgentEvent::TurnFinished { text } => seen.ending = Some(Ending::Finished(text)),
            AgentEvent::TurnPartial { reason, text } => {
                seen.ending = Some(Ending::Partial { reason, text });
            }
            AgentEvent::TurnCancelled => seen.ending = Some(Ending::Cancelled),
            AgentEvent::TurnFailed { error } => seen.ending = Some(Ending::Failed(error)),
            _ => {}
        }
    }
}
