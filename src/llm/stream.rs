//! SKELETON — replaced by the SSE helper. Accumulates chat-completion chunks into a `ChatResponse`.

use super::{ChatResponse, LlmError, StreamDelta};

/// Accumulates one streamed reply.
#[derive(Debug, Default)]
pub struct StreamAccumulator {}

impl StreamAccumulator {
    pub fn new() -> Self {
        Self::default()
    }
    /// Applies one `data:` payload (a JSON chunk or `[DONE]`); returns the live deltas to forward.
    pub fn push_data(&mut self, _data: &str) -> Result<Vec<StreamDelta>, LlmError> {
        todo!()
    }
    /// True once `[DONE]` or a non-empty finish reason was seen.
    pub fn is_complete(&self) -> bool {
        todo!()
    }
    /// True once `[DONE]` was seen (nothing more will come).
    pub fn saw_done(&self) -> bool {
        todo!()
    }
    /// Finishes the reply: `StreamInterrupted` if incomplete, `EmptyResponse` if nothing came.
    pub fn finish(self) -> Result<ChatResponse, LlmError> {
        todo!()
    }
}
