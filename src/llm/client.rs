//! SKELETON — replaced by the client helper.

use std::time::Duration;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::providers::ResolvedProvider;
use super::retry::RetryPolicy;
use super::{ChatResponse, DeltaSink, LlmClient, LlmError, Message, ToolSpec};

/// Transport settings.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    pub connect_timeout: Duration,
    /// Longest gap between two chunks of a stream.
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(300),
            retry: RetryPolicy::default(),
        }
    }
}

/// The OpenAI-compatible streaming client.
pub struct OpenAiClient {
    provider: ResolvedProvider,
}

impl OpenAiClient {
    pub fn new(provider: ResolvedProvider, _options: ClientOptions) -> Result<Self, LlmError> {
        Ok(OpenAiClient { provider })
    }
}

#[async_trait]
impl LlmClient for OpenAiClient {
    async fn chat(
        &self,
        _messages: &[Message],
        _tools: &[ToolSpec],
        _sink: &dyn DeltaSink,
        _cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        todo!()
    }

    fn model(&self) -> &str {
        &self.provider.model
    }
}
