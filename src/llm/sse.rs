//! SKELETON — replaced by the SSE helper. WHATWG event-stream framing: bytes in, events out.

/// One dispatched server-sent event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The joined `data:` lines.
    pub data: String,
}

/// Incremental SSE decoder; feed it bytes in any split.
#[derive(Debug, Default)]
pub struct SseDecoder {}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }
    /// Feeds bytes; returns the events completed by them.
    pub fn feed(&mut self, _bytes: &[u8]) -> Vec<SseEvent> {
        todo!()
    }
    /// End of input: returns a final event if the stream ended without a blank line after it.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        todo!()
    }
}
