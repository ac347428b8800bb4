//! One model request of a turn: streamed, fitted to the window, retried once after compaction when the provider
//! still says it is too long; DSML tool calls written as text are resolved here.

use tokio_util::sync::CancellationToken;

use super::dsml_calls;
use super::sinks::EventDeltaSink;
use crate::agent::context::compaction::Trigger;
use crate::agent::context::images;
use crate::agent::{Agent, AgentEvent, EventSink, Notice, TurnOutcome};
use crate::llm::{ChatResponse, LlmError, ToolSpec};

impl Agent {
    /// A model call that fits the window; when the provider still says the request is too long, compacts (or
    /// trims) and retries it once.
    pub(super) async fn chat_or_compact(
        &mut self,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, TurnOutcome> {
        self.fit_to_window(tools, events);
        match self.chat(tools, events, cancel).await {
            Err(TurnOutcome::Failed(LlmError::ContextLengthExceeded { message })) => {
                events.emit(AgentEvent::Notice {
                    notice: Notice::ContextOverflow,
                });
                self.conversation
                    .record_overflow(tools, self.thresholds.window);
                let compacted = self
                    .compact_if_needed(Trigger::Overflow, tools, events, cancel)
                    .await;
                if self.fit_to_window(tools, events) || compacted {
                    self.chat(tools, events, cancel).await
                } else {
                    Err(TurnOutcome::Failed(LlmError::ContextLengthExceeded {
                        message,
                    }))
                }
            }
            other => other,
        }
    }

    /// One streamed model call; an error becomes the turn's outcome.
    async fn chat(
        &mut self,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, TurnOutcome> {
        let sink = EventDeltaSink::new(events);
        let history = images::for_request(
            self.conversation.messages(),
            self.conversation.turn_starts(),
            self.vision,
        );
        match self.client.chat(&history, tools, &sink, cancel).await {
            Ok(response) => {
                self.conversation.record_response(response.usage, tools);
                Ok(dsml_calls::resolve_dsml(
                    response,
                    tools,
                    &sink.take_held(),
                    events,
                ))
            }
            Err(LlmError::Cancelled) => {
                self.append_interrupted_answer(&sink.streamed_text());
                Err(TurnOutcome::Cancelled)
            }
            Err(e) => Err(TurnOutcome::Failed(e)),
        }
    }
}
