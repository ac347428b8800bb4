//! The OpenAI-compatible chat-completions layer: types, SSE framing, delta accumulation, retries, providers.

pub mod client;
pub mod dsml;
pub mod error;
pub mod error_wording;
mod from_config;
pub mod image_part;
pub mod lazy;
pub mod models;
pub mod providers;
pub mod retry;
pub mod served;
pub mod sse;
pub mod stream;
pub mod tokens;

pub use crate::protocol::message::{
    ChatResponse, Content, ContentPart, Message, Role, ToolCall, ToolSpec, Usage,
};
pub use error::LlmError;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

/// A live piece of the model's reply, forwarded as it streams in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamDelta {
    /// Reasoning ("thinking") text.
    Reasoning(String),
    /// Answer text.
    Content(String),
    /// A piece of a tool call's arguments (OpenAI's JSON text, cut anywhere), with the call it belongs to.
    ToolCall(ToolCallDelta),
}

/// A streamed piece of one tool call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCallDelta {
    /// The call's place in the reply (the provider's `index`): pieces with the same index are one call.
    pub index: u64,
    /// The call's id so far (`call_<index>` while the provider has sent none, as the finished call would be).
    pub id: String,
    pub name: String,
    /// The next piece of the arguments' JSON text.
    pub arguments: String,
}

/// Receives live deltas while a reply streams. Must not block.
pub trait DeltaSink: Send + Sync {
    /// Called once per non-empty delta, in arrival order.
    fn on_delta(&self, delta: StreamDelta);

    /// Something the person should see while the reply is awaited (a retry and its wait).
    fn on_notice(&self, _notice: crate::protocol::Notice) {}
}

/// A sink that drops everything (for calls nobody watches, e.g. summaries).
pub struct NullSink;

impl DeltaSink for NullSink {
    fn on_delta(&self, _delta: StreamDelta) {}
}

/// A chat-completions backend.
#[async_trait]
pub trait LlmClient: Send + Sync {
    /// Streams one reply for `messages`, offering `tools` (omitted from the request when empty).
    /// Deltas go to `sink` as they arrive; `cancel` aborts the in-flight request promptly.
    async fn chat(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        sink: &dyn DeltaSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError>;

    /// The model name requests are sent with.
    fn model(&self) -> &str;
}
