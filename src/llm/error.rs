//! Typed LLM errors: a caller decides retry / compact / report from the variant alone.

use std::time::Duration;

/// Why a chat request failed.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// 429 or a rate-limit error object; `retry_after` from the `Retry-After` header when given.
    #[error("rate limited by the provider (HTTP {status}): {message}")]
    RateLimited {
        status: u16,
        message: String,
        retry_after: Option<Duration>,
    },
    /// 408 / 5xx: the provider had a transient problem.
    #[error("provider error (HTTP {status}): {message}")]
    Server {
        status: u16,
        message: String,
        retry_after: Option<Duration>,
    },
    /// 401 / 403: the key is missing, wrong or not allowed.
    #[error("authentication failed (HTTP {status}): {message}")]
    Auth { status: u16, message: String },
    /// The request is longer than the model's context window; compact and retry.
    #[error("context length exceeded: {message}")]
    ContextLengthExceeded { message: String },
    /// Any other 4xx: the request itself was rejected and retrying will not help.
    #[error("request rejected (HTTP {status}): {message}")]
    Rejected { status: u16, message: String },
    /// An `error` object arrived inside the stream.
    #[error("provider reported an error in the stream: {message}")]
    StreamError { message: String, retryable: bool },
    /// Could not connect or the connection broke before a response.
    #[error("could not reach the provider: {0}")]
    Connect(String),
    /// The stream ended without `[DONE]` or a finish reason.
    #[error("the response stream was interrupted: {0}")]
    StreamInterrupted(String),
    /// No bytes arrived for longer than the idle timeout.
    #[error("no data from the provider for {0:?}")]
    IdleTimeout(Duration),
    /// The reply had no content, no reasoning and no tool calls.
    #[error("the model returned an empty response")]
    EmptyResponse,
    /// The provider sent something that is not a chat-completions response.
    #[error("invalid response from the provider: {0}")]
    InvalidResponse(String),
    /// The request could not be built (bad URL, bad header value, ...).
    #[error("invalid request configuration: {0}")]
    Config(String),
    /// The caller cancelled the request.
    #[error("cancelled")]
    Cancelled,
}

impl LlmError {
    /// Whether a fresh attempt of the same request may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::RateLimited { .. }
            | LlmError::Server { .. }
            | LlmError::Connect(_)
            | LlmError::StreamInterrupted(_)
            | LlmError::IdleTimeout(_) => true,
            LlmError::StreamError { retryable, .. } => *retryable,
            LlmError::Auth { .. }
            | LlmError::ContextLengthExceeded { .. }
            | LlmError::Rejected { .. }
            | LlmError::EmptyResponse
            | LlmError::InvalidResponse(_)
            | LlmError::Config(_)
            | LlmError::Cancelled => false,
        }
    }

    /// The server's requested wait before retrying, if it gave one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::RateLimited { retry_after, .. } | LlmError::Server { retry_after, .. } => {
                *retry_after
            }
            _ => None,
        }
    }
}
