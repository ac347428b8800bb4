//! An `LlmClient` built on first use, for a client a session may never need (the approval classifier's). The
//! system's TLS roots are not the cost any more (`client::tls` loads them once, on the first handshake); this
//! keeps start-up from building a connection pool and resolving a provider nobody may ask.

use async_trait::async_trait;
use tokio::sync::OnceCell;
use tokio_util::sync::CancellationToken;

use super::client::{ClientOptions, OpenAiClient};
use super::providers::ResolvedProvider;
use super::{ChatResponse, DeltaSink, LlmClient, LlmError, Message, ToolSpec};

/// An [`OpenAiClient`] created the first time a request is made.
pub struct LazyOpenAiClient {
    provider: ResolvedProvider,
    options: ClientOptions,
    client: OnceCell<OpenAiClient>,
}

impl LazyOpenAiClient {
    /// Remembers how to build the client; nothing is built yet.
    pub fn new(provider: ResolvedProvider, options: ClientOptions) -> Self {
        LazyOpenAiClient {
            provider,
            options,
            client: OnceCell::new(),
        }
    }

    async fn client(&self) -> Result<&OpenAiClient, LlmError> {
        self.client
            .get_or_try_init(|| async {
                OpenAiClient::new(self.provider.clone(), self.options.clone())
            })
            .await
    }
}

#[async_trait]
impl LlmClient for LazyOpenAiClient {
    async fn chat(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        sink: &dyn DeltaSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        self.client()
            .await?
            .chat(messages, tools, sink, cancel)
            .await
    }

    fn model(&self) -> &str {
        &self.provider.model
    }
}
