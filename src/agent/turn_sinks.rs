//! Adapters that turn LLM deltas and tool progress into `AgentEvent`s.

use std::sync::Mutex;

use super::events::{AgentEvent, EventSink, ToolStatus};
use crate::llm::{DeltaSink, StreamDelta, ToolCall};
use crate::tools::{ToolCallResult, ToolObserver, ToolOutcome};

/// Forwards stream deltas as events and remembers the answer text streamed so far.
pub(super) struct EventDeltaSink<'a> {
    events: &'a dyn EventSink,
    text: Mutex<String>,
}

impl<'a> EventDeltaSink<'a> {
    pub(super) fn new(events: &'a dyn EventSink) -> Self {
        EventDeltaSink {
            events,
            text: Mutex::new(String::new()),
        }
    }

    /// The answer text that reached the user (kept when a reply is interrupted).
    pub(super) fn streamed_text(&self) -> String {
        match self.text.lock() {
            Ok(t) => t.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

impl DeltaSink for EventDeltaSink<'_> {
    fn on_delta(&self, delta: StreamDelta) {
        match delta {
            StreamDelta::Reasoning(text) => self.events.emit(AgentEvent::ReasoningDelta { text }),
            StreamDelta::Content(text) => {
                match self.text.lock() {
                    Ok(mut t) => t.push_str(&text),
                    Err(poisoned) => poisoned.into_inner().push_str(&text),
                }
                self.events.emit(AgentEvent::TextDelta { text });
            }
        }
    }
}

/// Reports tool calls starting and finishing.
pub(super) struct EventToolObserver<'a> {
    pub(super) events: &'a dyn EventSink,
}

impl ToolObserver for EventToolObserver<'_> {
    fn on_start(&self, _index: usize, call: &ToolCall) {
        self.events.emit(AgentEvent::ToolCallStarted {
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
        });
    }

    fn on_finish(&self, _index: usize, call: &ToolCall, result: &ToolCallResult) {
        let (detail, output_chars, diff) = match &result.outcome {
            ToolOutcome::Ok(out) => (
                String::new(),
                out.text.chars().count(),
                out.diff.as_ref().map(|d| d.unified.clone()),
            ),
            ToolOutcome::Denied { code, reason } => (format!("{code}: {reason}"), 0, None),
            ToolOutcome::Failed { reason } => (reason.clone(), 0, None),
            ToolOutcome::Cancelled { partial } => {
                ("aborted by user".to_string(), partial.chars().count(), None)
            }
        };
        self.events.emit(AgentEvent::ToolCallFinished {
            id: call.id.clone(),
            name: call.name.clone(),
            status: ToolStatus::of(&result.outcome),
            detail,
            duration_ms: u64::try_from(result.duration.as_millis()).unwrap_or(u64::MAX),
            output_chars,
            diff,
        });
    }
}
