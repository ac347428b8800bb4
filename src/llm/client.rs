//! The OpenAI-compatible streaming client: request building, retries, cancellation and idle timeouts.

mod attempt;
mod html_page;
pub mod http_error;
pub mod request;
pub mod tls;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use tokio_util::sync::CancellationToken;

use self::attempt::Attempt;
use super::providers::ResolvedProvider;
use super::retry::RetryPolicy;
use super::{ChatResponse, DeltaSink, LlmClient, LlmError, Message, StreamDelta, ToolSpec};
use crate::protocol::Notice;

/// Transport settings.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// Longest wait for the TCP/TLS connection.
    pub connect_timeout: Duration,
    /// Longest gap between two chunks of a stream (also the longest wait for the response headers).
    pub idle_timeout: Duration,
    /// Attempts and backoff for retryable failures.
    pub retry: RetryPolicy,
}

impl Default for ClientOptions {
    /// The declared `[llm]` defaults.
    fn default() -> Self {
        ClientOptions::from_settings(&crate::config::LlmSettings::default())
    }
}

/// The OpenAI-compatible streaming client.
pub struct OpenAiClient {
    provider: ResolvedProvider,
    options: ClientOptions,
    url: String,
    http: reqwest::Client,
}

impl OpenAiClient {
    /// A client for `provider`; fails on an API key or extra header that cannot be sent over HTTP.
    pub fn new(provider: ResolvedProvider, options: ClientOptions) -> Result<Self, LlmError> {
        let url = provider.chat_url();
        if url.starts_with("https:") {
            // The first request needs the system roots; read them while the session is still being set up.
            tls::warm_up();
        }
        let http = tls::client_builder(provider.force_http1)
            .connect_timeout(options.connect_timeout)
            // Requests are written in pieces; without this each one can stall on Nagle + delayed ACK.
            .tcp_nodelay(true)
            .user_agent(concat!("paicli/", env!("CARGO_PKG_VERSION")))
            .default_headers(default_headers(&provider)?)
            .build()
            .map_err(|e| LlmError::Config(format!("cannot build the HTTP client: {e}")))?;
        Ok(OpenAiClient {
            url,
            provider,
            options,
            http,
        })
    }

    /// The provider this client talks to.
    pub fn provider(&self) -> &ResolvedProvider {
        &self.provider
    }
}

/// Auth, accept and provider headers sent with every request.
fn default_headers(provider: &ResolvedProvider) -> Result<HeaderMap, LlmError> {
    let mut headers = HeaderMap::new();
    headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(key) = provider
        .api_key
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
    {
        headers.insert(AUTHORIZATION, bearer(key)?);
    }
    for (name, value) in &provider.headers {
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| LlmError::Config(format!("invalid header name {name:?}")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| LlmError::Config(format!("invalid value for header {name:?}")))?;
        headers.insert(header, value);
    }
    Ok(headers)
}

/// `Bearer <key>`, marked sensitive so it never shows up in debug output.
pub(crate) fn bearer(key: &str) -> Result<HeaderValue, LlmError> {
    let mut value = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
        LlmError::Config("the API key contains characters not allowed in an HTTP header".into())
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// What the person sees while a failed request waits for its next attempt: "HTTP 429, retrying in 2 s (2/3)".
fn retry_notice(error: &LlmError, delay: Duration, attempt: u32, max: u32) -> Notice {
    let cause = match error {
        LlmError::RateLimited { status, .. } | LlmError::Server { status, .. } => {
            format!("HTTP {status}")
        }
        LlmError::Connect(_) => "connection failed".to_string(),
        LlmError::StreamInterrupted(_) => "stream interrupted".to_string(),
        LlmError::IdleTimeout(_) => "no data from the provider".to_string(),
        _ => "provider error".to_string(),
    };
    let millis = delay.as_millis();
    let seconds = if millis.is_multiple_of(1000) || millis >= 10_000 {
        (millis.div_ceil(1000)).to_string()
    } else {
        format!("{:.1}", delay.as_secs_f64())
    };
    Notice::Retrying {
        cause,
        seconds,
        attempt,
        max,
    }
}

/// Forwards non-empty deltas and remembers whether any text reached the caller (which forbids a retry). A tool
/// call's pieces do not: nobody has been shown them as an answer, and a retried reply starts its calls anew.
struct TrackingSink<'a> {
    inner: &'a dyn DeltaSink,
    delivered: AtomicBool,
}

impl DeltaSink for TrackingSink<'_> {
    fn on_delta(&self, delta: StreamDelta) {
        let (empty, shown) = match &delta {
            StreamDelta::Reasoning(t) | StreamDelta::Content(t) => (t.is_empty(), true),
            StreamDelta::ToolCall(call) => (call.arguments.is_empty(), false),
        };
        if !empty {
            if shown {
                self.delivered.store(true, Ordering::Relaxed);
            }
            self.inner.on_delta(delta);
        }
    }
}

#[async_trait]
impl LlmClient for OpenAiClient {
    async fn chat(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        sink: &dyn DeltaSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let body = request::build_body(&self.provider, messages, tools);
        // Serialised once: every attempt sends the same bytes.
        let body =
            Bytes::from(serde_json::to_vec(&body).map_err(|e| LlmError::Config(e.to_string()))?);
        let policy = &self.options.retry;
        let max_attempts = policy.max_attempts.max(1);
        let mut attempt_no = 1;
        loop {
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let tracking = TrackingSink {
                inner: sink,
                delivered: AtomicBool::new(false),
            };
            let attempt = Attempt {
                http: &self.http,
                url: &self.url,
                body: body.clone(),
                idle_timeout: self.options.idle_timeout,
                sink: &tracking,
                cancel,
            };
            let error = match attempt.run().await {
                Ok(response) => return Ok(response),
                Err(error) => error,
            };
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let delivered = tracking.delivered.load(Ordering::Relaxed);
            if !error.is_retryable() || delivered || attempt_no >= max_attempts {
                if delivered && error.is_retryable() {
                    tracing::warn!(error = %error, "not retrying: part of the reply was already shown");
                }
                return Err(error);
            }
            let delay = policy.delay_for(attempt_no, error.retry_after());
            tracing::warn!(
                attempt = attempt_no,
                max_attempts,
                delay_ms = delay.as_millis() as u64,
                error = %error,
                "chat request failed; retrying"
            );
            sink.on_notice(retry_notice(&error, delay, attempt_no + 1, max_attempts));
            tokio::select! {
                biased;
                _ = cancel.cancelled() => return Err(LlmError::Cancelled),
                _ = tokio::time::sleep(delay) => {}
            }
            attempt_no += 1;
        }
    }

    fn model(&self) -> &str {
        &self.provider.model
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::llm::providers::lookup;

    fn provider(key: Option<&str>, headers: Vec<(String, String)>) -> ResolvedProvider {
        let mut p =
            ResolvedProvider::new(lookup("openai").unwrap(), "m", None, key.map(Into::into));
        p.headers = headers;
        p
    }

    #[test]
    fn authorization_is_sent_only_with_a_key() {
        let with = default_headers(&provider(Some(" sk-1 "), vec![])).unwrap();
        assert_eq!(with.get(AUTHORIZATION).unwrap(), "Bearer sk-1");
        assert!(with.get(AUTHORIZATION).unwrap().is_sensitive());
        let blank = default_headers(&provider(Some("  "), vec![])).unwrap();
        assert!(blank.get(AUTHORIZATION).is_none());
        let none = default_headers(&provider(None, vec![])).unwrap();
        assert!(none.get(AUTHORIZATION).is_none());
        assert_eq!(none.get(ACCEPT).unwrap(), "text/event-stream");
    }

    #[test]
    fn bad_keys_and_headers_are_config_errors_not_panics() {
        assert!(matches!(
            OpenAiClient::new(provider(Some("a\nb"), vec![]), ClientOptions::default()),
            Err(LlmError::Config(_))
        ));
        let bad_name = vec![("bad name".to_string(), "v".to_string())];
        assert!(matches!(
            OpenAiClient::new(provider(None, bad_name), ClientOptions::default()),
            Err(LlmError::Config(_))
        ));
        let good = vec![("lora_id".to_string(), "0".to_string())];
        let headers = default_headers(&provider(None, good)).unwrap();
        assert_eq!(headers.get("lora_id").unwrap(), "0");
    }
}
