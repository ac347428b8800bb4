//! The OpenAI-compatible client against the scripted server: request shape, streaming, retries, cancellation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::llm::client::{ClientOptions, OpenAiClient};
use paicli::llm::models::list_models;
use paicli::llm::providers::ResolvedProvider;
use paicli::llm::retry::RetryPolicy;
use paicli::llm::stream::decode_sse_bytes;
use paicli::llm::{
    ChatResponse, LlmClient, LlmError, Message, NullSink, StreamDelta, ToolCall, ToolSpec, Usage,
};

use crate::support::{RecordingSink, Reply, ScriptedServer, provider_for};

mod cancellation;
mod errors;
mod models;
mod request_body;
mod retries;
mod streaming;

fn fast_options() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(50),
        },
    }
}

fn client(provider: ResolvedProvider) -> OpenAiClient {
    OpenAiClient::new(provider, fast_options()).unwrap()
}

async fn chat(client: &OpenAiClient, messages: &[Message]) -> Result<ChatResponse, LlmError> {
    client
        .chat(messages, &[], &NullSink, &CancellationToken::new())
        .await
}
