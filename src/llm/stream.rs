//! Accumulates chat-completion chunks into a `ChatResponse`.
//!
//! One [`StreamAccumulator`] per reply. Each SSE `data:` payload goes through
//! [`StreamAccumulator::push_data`], which returns the live text to forward; [`StreamAccumulator::finish`]
//! then checks completeness and assembles the reply. Provider quirks handled here are listed in
//! spec §4 ("SSE parsing", "Tool-call merge") and pinned by the fixtures under `tests/fixtures/sse/`.

mod chunk_error;
mod delta_text;
mod tool_calls;
mod usage;

use serde_json::Value;

use super::sse::{SseDecoder, SseEvent};
use super::{ChatResponse, LlmError, StreamDelta, Usage};
use chunk_error::classify_stream_error;
use delta_text::extract_delta_text;
use tool_calls::ToolCallSlots;
use usage::parse_usage;

/// The model name reported across chunks.
#[derive(Debug, Default)]
enum ReportedModel {
    #[default]
    Unseen,
    Consistent(String),
    /// Chunks named different models; the reply reports none.
    Conflicting,
}

/// Accumulates one streamed reply.
#[derive(Debug, Default)]
pub struct StreamAccumulator {
    content: String,
    reasoning: String,
    tool_calls: ToolCallSlots,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    model: ReportedModel,
    saw_done: bool,
    chunks: usize,
}

impl StreamAccumulator {
    /// An accumulator for a new reply.
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one `data:` payload (a JSON chunk or `[DONE]`); returns the live deltas to forward.
    ///
    /// Empty payloads and anything after `[DONE]` are ignored. An `error` object in the chunk becomes
    /// `StreamError` (or `ContextLengthExceeded`); a payload that is not a JSON object is
    /// `InvalidResponse`, except a truncated one, which means the connection was cut: `StreamInterrupted`.
    pub fn push_data(&mut self, data: &str) -> Result<Vec<StreamDelta>, LlmError> {
        let payload = data.trim();
        if self.saw_done || payload.is_empty() {
            return Ok(Vec::new());
        }
        if payload == "[DONE]" {
            self.saw_done = true;
            return Ok(Vec::new());
        }
        let chunk = parse_chunk(payload)?;
        self.chunks += 1;
        self.apply_chunk(&chunk)
    }

    /// Applies one SSE event: like [`push_data`](Self::push_data), but an `event: error` event is an
    /// error whatever its data looks like.
    pub fn push_event(&mut self, event: &SseEvent) -> Result<Vec<StreamDelta>, LlmError> {
        if event.event.as_deref() == Some("error") && !self.saw_done {
            let payload = match event.data.trim() {
                "" => "error event without details",
                text => text,
            };
            let value = serde_json::from_str::<Value>(payload)
                .unwrap_or_else(|_| Value::String(payload.to_owned()));
            let error = value
                .get("error")
                .filter(|e| !e.is_null())
                .unwrap_or(&value);
            return Err(classify_stream_error(error));
        }
        self.push_data(&event.data)
    }

    /// True once `[DONE]` or a non-empty finish reason was seen.
    pub fn is_complete(&self) -> bool {
        self.saw_done || self.finish_reason.is_some()
    }

    /// True once `[DONE]` was seen (nothing more will come).
    pub fn saw_done(&self) -> bool {
        self.saw_done
    }

    /// True once any reasoning or content was returned as a live delta (a retry would repeat it).
    pub fn has_streamed_text(&self) -> bool {
        !self.content.is_empty() || !self.reasoning.is_empty()
    }

    /// Finishes the reply: `StreamInterrupted` if incomplete, `EmptyResponse` if nothing came.
    pub fn finish(self) -> Result<ChatResponse, LlmError> {
        if !self.is_complete() {
            return Err(LlmError::StreamInterrupted(format!(
                "stream ended without [DONE] or a finish reason after {} chunk(s) \
                 ({} content chars, {} reasoning chars)",
                self.chunks,
                self.content.chars().count(),
                self.reasoning.chars().count()
            )));
        }
        let tool_calls = self.tool_calls.into_tool_calls();
        if self.content.is_empty() && self.reasoning.is_empty() && tool_calls.is_empty() {
            return Err(LlmError::EmptyResponse);
        }
        Ok(ChatResponse {
            content: self.content,
            reasoning: self.reasoning,
            tool_calls,
            finish_reason: self.finish_reason,
            usage: self.usage,
            model: match self.model {
                ReportedModel::Consistent(model) => Some(model),
                ReportedModel::Unseen | ReportedModel::Conflicting => None,
            },
        })
    }

    /// Applies a parsed chunk in the spec's order: model, error, usage, finish reason, delta.
    fn apply_chunk(&mut self, chunk: &Value) -> Result<Vec<StreamDelta>, LlmError> {
        if let Some(model) = chunk.get("model").and_then(Value::as_str) {
            self.record_model(model);
        }
        if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
            return Err(classify_stream_error(error));
        }
        self.record_usage(chunk.get("usage"));

        // Only the first choice is read: paicli never asks for `n > 1`.
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|choices| choices.first())
        else {
            return Ok(Vec::new());
        };
        if let Some(error) = choice.get("error").filter(|e| !e.is_null()) {
            return Err(classify_stream_error(error));
        }
        // Kimi puts usage inside the choice.
        self.record_usage(choice.get("usage"));
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str)
            && !reason.is_empty()
        {
            self.finish_reason = Some(reason.to_owned());
        }
        let delta = choice
            .get("delta")
            .filter(|d| d.is_object())
            .or_else(|| choice.get("message").filter(|m| m.is_object()));
        let Some(delta) = delta else {
            return Ok(Vec::new());
        };
        Ok(self.apply_delta(delta))
    }

    fn apply_delta(&mut self, delta: &Value) -> Vec<StreamDelta> {
        let text = extract_delta_text(delta);
        let mut live = Vec::new();
        if !text.reasoning.is_empty() {
            self.reasoning.push_str(&text.reasoning);
            live.push(StreamDelta::Reasoning(text.reasoning));
        }
        if !text.content.is_empty() {
            self.content.push_str(&text.content);
            live.push(StreamDelta::Content(text.content));
        }
        if let Some(fragments) = delta.get("tool_calls").and_then(Value::as_array) {
            let pieces = self.tool_calls.merge_delta(fragments);
            live.extend(pieces.into_iter().map(StreamDelta::ToolCall));
        }
        live
    }

    fn record_model(&mut self, model: &str) {
        if model.is_empty() {
            return;
        }
        self.model = match std::mem::take(&mut self.model) {
            ReportedModel::Unseen => ReportedModel::Consistent(model.to_owned()),
            ReportedModel::Consistent(seen) if seen == model => ReportedModel::Consistent(seen),
            ReportedModel::Consistent(seen) => {
                tracing::debug!(%seen, now = model, "chunks disagree about the model");
                ReportedModel::Conflicting
            }
            ReportedModel::Conflicting => ReportedModel::Conflicting,
        };
    }

    /// Keeps the latest valid usage; `null` and malformed objects leave the previous one in place.
    fn record_usage(&mut self, value: Option<&Value>) {
        if let Some(usage) = value.and_then(parse_usage) {
            self.usage = Some(usage);
        }
    }
}

/// Parses a payload as a JSON object, telling a cut-off chunk apart from garbage.
fn parse_chunk(payload: &str) -> Result<Value, LlmError> {
    match serde_json::from_str::<Value>(payload) {
        Ok(value) if value.is_object() => Ok(value),
        Ok(_) => Err(LlmError::InvalidResponse(format!(
            "stream chunk is not a JSON object: {}",
            excerpt(payload)
        ))),
        // A stream cut mid-line (seen at end of input) leaves a JSON prefix or a `[DONE]` prefix.
        Err(e) if e.is_eof() || "[DONE]".starts_with(payload) => Err(LlmError::StreamInterrupted(
            format!("stream chunk cut off: {}", excerpt(payload)),
        )),
        Err(e) => Err(LlmError::InvalidResponse(format!(
            "stream chunk is not JSON ({e}): {}",
            excerpt(payload)
        ))),
    }
}

/// The start of a payload, for error messages.
fn excerpt(payload: &str) -> String {
    const MAX_CHARS: usize = 200;
    let mut chars = payload.chars();
    let head: String = chars.by_ref().take(MAX_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// Decodes a whole SSE byte stream into the reply and the live deltas it would have forwarded.
pub fn decode_sse_bytes(bytes: &[u8]) -> Result<(ChatResponse, Vec<StreamDelta>), LlmError> {
    let mut decoder = SseDecoder::new();
    let mut accumulator = StreamAccumulator::new();
    let mut live = Vec::new();
    let events = decoder.feed(bytes).into_iter().chain(decoder.finish());
    for event in events {
        live.extend(accumulator.push_event(&event)?);
    }
    Ok((accumulator.finish()?, live))
}

#[cfg(test)]
mod tests;
