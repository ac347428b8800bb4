//! One HTTP attempt of a chat request: send, classify the status, stream the body into the accumulator.

use std::error::Error as _;
use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use reqwest::header::{CONTENT_TYPE, RETRY_AFTER};
use tokio_util::sync::CancellationToken;

use super::http_error::{
    error_from_json_body, error_from_status, extract_message, parse_retry_after,
};
use crate::llm::sse::{SseDecoder, SseEvent};
use crate::llm::stream::StreamAccumulator;
use crate::llm::{ChatResponse, DeltaSink, LlmError};

/// Most bytes read from an error response body.
const ERROR_BODY_CAP: usize = 64 * 1024;
/// Most bytes kept while a 200 body has produced no SSE event yet (it may be a plain JSON completion).
const PLAIN_BODY_CAP: usize = 8 * 1024 * 1024;

/// Everything one attempt needs.
pub(super) struct Attempt<'a> {
    pub http: &'a reqwest::Client,
    pub url: &'a str,
    pub body: Bytes,
    pub idle_timeout: Duration,
    pub sink: &'a dyn DeltaSink,
    pub cancel: &'a CancellationToken,
}

impl Attempt<'_> {
    /// Runs the attempt to a complete reply or a typed error.
    pub async fn run(&self) -> Result<ChatResponse, LlmError> {
        let request = self.http.post(self.url).body(self.body.clone()).send();
        let response = self.guard(request).await?.map_err(send_error)?;
        let status = response.status();
        if !status.is_success() {
            return Err(self.status_error(response).await);
        }
        self.read_stream(response).await
    }

    /// Awaits `future` unless the caller cancels or nothing happens for the idle timeout.
    async fn guard<F: Future>(&self, future: F) -> Result<F::Output, LlmError> {
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(LlmError::Cancelled),
            outcome = tokio::time::timeout(self.idle_timeout, future) => {
                outcome.map_err(|_| LlmError::IdleTimeout(self.idle_timeout))
            }
        }
    }

    async fn status_error(&self, response: reqwest::Response) -> LlmError {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, chrono::Utc::now()));
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        while body.len() < ERROR_BODY_CAP {
            match self.guard(chunks.next()).await {
                Ok(Some(Ok(bytes))) => body.extend_from_slice(&bytes),
                Err(LlmError::Cancelled) => return LlmError::Cancelled,
                // The status already decides the error; a body that breaks off only loses detail.
                Ok(None) | Ok(Some(Err(_))) | Err(_) => break,
            }
        }
        body.truncate(ERROR_BODY_CAP);
        error_from_status(status, retry_after, &String::from_utf8_lossy(&body))
    }

    async fn read_stream(&self, response: reqwest::Response) -> Result<ChatResponse, LlmError> {
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let mut chunks = response.bytes_stream();
        let mut decoder = SseDecoder::new();
        let mut accumulator = StreamAccumulator::new();
        // Until the first event arrives the body may be plain JSON (an error object or a non-streamed reply).
        let mut plain = Some(Vec::new());
        loop {
            let next = match self.guard(chunks.next()).await {
                Err(LlmError::IdleTimeout(_)) if accumulator.is_complete() => break,
                other => other?,
            };
            let at_end = next.is_none();
            let events = match next {
                Some(Ok(bytes)) => {
                    if let Some(buffer) = plain.as_mut() {
                        buffer.extend_from_slice(&bytes);
                        if buffer.len() > PLAIN_BODY_CAP {
                            return Err(LlmError::InvalidResponse(format!(
                                "more than {PLAIN_BODY_CAP} bytes without a server-sent event"
                            )));
                        }
                    }
                    decoder.feed(&bytes)
                }
                None => decoder.finish(),
                Some(Err(_)) if accumulator.is_complete() => break,
                Some(Err(e)) => return Err(LlmError::StreamInterrupted(describe(&e))),
            };
            if !events.is_empty() {
                plain = None;
            }
            if self.apply(&mut accumulator, events)? || at_end {
                break;
            }
        }
        match plain {
            Some(body) if !accumulator.is_complete() => {
                self.finish_plain_body(accumulator, &body, &content_type)
            }
            _ => accumulator.finish(),
        }
    }

    /// Feeds events to the accumulator and their deltas to the sink; true once `[DONE]` was seen.
    fn apply(
        &self,
        accumulator: &mut StreamAccumulator,
        events: Vec<SseEvent>,
    ) -> Result<bool, LlmError> {
        for event in events {
            if event.data.trim().is_empty() {
                continue;
            }
            for delta in accumulator.push_event(&event)? {
                self.sink.on_delta(delta);
            }
            if accumulator.saw_done() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A 200 body that held no event: an error object, a non-streamed completion, or garbage.
    fn finish_plain_body(
        &self,
        mut accumulator: StreamAccumulator,
        body: &[u8],
        content_type: &str,
    ) -> Result<ChatResponse, LlmError> {
        let text = String::from_utf8_lossy(body);
        let text = text.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            return accumulator.finish();
        }
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(json) => {
                if let Some(error) = error_from_json_body(&json) {
                    return Err(error);
                }
                if json.get("choices").is_some() {
                    for delta in accumulator.push_data(text)? {
                        self.sink.on_delta(delta);
                    }
                    return accumulator.finish();
                }
                Err(LlmError::InvalidResponse(format!(
                    "a JSON body that is not a chat completion: {}",
                    extract_message(text, 200)
                )))
            }
            Err(_) if content_type.contains("event-stream") => accumulator.finish(),
            Err(_) => Err(LlmError::InvalidResponse(format!(
                "expected an event stream, got {}: {}",
                if content_type.is_empty() {
                    "no content type"
                } else {
                    content_type
                },
                extract_message(text, 200)
            ))),
        }
    }
}

fn send_error(error: reqwest::Error) -> LlmError {
    if error.is_builder() {
        LlmError::Config(describe(&error))
    } else {
        LlmError::Connect(describe(&error))
    }
}

/// The error with its whole source chain (reqwest's own message alone hides the cause).
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
