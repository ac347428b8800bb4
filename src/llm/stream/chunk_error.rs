//! Turns an `error` object that arrives inside the stream into a typed [`LlmError`].

use serde_json::Value;

use crate::llm::LlmError;
use crate::llm::error_wording::{is_context_length_message, is_transient_message};

/// Classifies a chunk's `error` value (an object with `message` / `code` / `type` / `status`, or a string).
pub(super) fn classify_stream_error(error: &Value) -> LlmError {
    let message = error_message(error);
    let text = searchable_text(error, &message);
    let status = status_code(error);
    // A 429 is a rate limit even when its text talks about tokens.
    if status != Some(429) && is_context_length_message(&text) {
        return LlmError::ContextLengthExceeded { message };
    }
    let retryable = status.is_some_and(is_retryable_status) || is_transient_message(&text);
    LlmError::StreamError { message, retryable }
}

fn error_message(error: &Value) -> String {
    let message = match error {
        Value::String(s) => s.trim(),
        _ => error
            .get("message")
            .and_then(Value::as_str)
            .map_or("", str::trim),
    };
    if message.is_empty() {
        error.to_string()
    } else {
        message.to_owned()
    }
}

/// Lower-cased message plus the textual `code`, `type` and `status`, for keyword matching.
fn searchable_text(error: &Value, message: &str) -> String {
    let mut text = message.to_lowercase();
    for key in ["code", "type", "status"] {
        if let Some(s) = error.get(key).and_then(Value::as_str) {
            text.push(' ');
            text.push_str(&s.to_lowercase());
        }
    }
    text
}

/// An HTTP-like status from `status` or `code`, numeric or numeric string.
fn status_code(error: &Value) -> Option<u64> {
    ["status", "code"]
        .iter()
        .find_map(|key| match error.get(key)? {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
}

fn is_retryable_status(status: u64) -> bool {
    matches!(status, 408 | 429 | 500..=599)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn retryable(error: Value) -> bool {
        match classify_stream_error(&error) {
            LlmError::StreamError { retryable, .. } => retryable,
            other => panic!("expected StreamError, got {other:?}"),
        }
    }

    #[test]
    fn retryable_by_status_or_code() {
        assert!(retryable(json!({"message":"busy","code":429})));
        assert!(retryable(json!({"message":"busy","status":503})));
        assert!(retryable(json!({"message":"slow","code":"408"})));
        assert!(!retryable(json!({"message":"bad","code":400})));
        assert!(!retryable(json!({"message":"nope","status":401})));
    }

    #[test]
    fn retryable_by_wording() {
        assert!(retryable(json!({"message":"x","type":"rate_limit_error"})));
        assert!(retryable(
            json!({"message":"Overloaded","type":"overloaded_error"})
        ));
        assert!(retryable(json!({"message":"oops","code":"server_error"})));
        assert!(retryable(
            json!({"message":"Service temporarily unavailable"})
        ));
        assert!(retryable(json!({"message":"upstream timeout"})));
        assert!(!retryable(
            json!({"message":"invalid tool schema","type":"invalid_request_error"})
        ));
    }

    #[test]
    fn message_is_kept_and_string_errors_work() {
        match classify_stream_error(&json!("Provider disconnected")) {
            LlmError::StreamError { message, retryable } => {
                assert_eq!(message, "Provider disconnected");
                assert!(!retryable);
            }
            other => panic!("unexpected {other:?}"),
        }
        match classify_stream_error(&json!({"code": 500})) {
            LlmError::StreamError { message, retryable } => {
                assert_eq!(message, r#"{"code":500}"#);
                assert!(retryable);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn token_rate_limit_is_not_a_context_error() {
        assert!(retryable(
            json!({"message":"too many tokens per minute","code":429})
        ));
        assert!(retryable(json!({"message":"Rate limit: too many tokens"})));
    }

    #[test]
    fn context_length_wording_is_typed_separately() {
        for error in [
            json!({"message":"too long","code":"context_length_exceeded"}),
            json!({"message":"This model's maximum context length is 128000 tokens"}),
            json!({"message":"Input exceeds the context window"}),
            json!({"message":"Too many tokens in request","status":400}),
            json!({"message":"prompt is too long: 210000 tokens > 200000 maximum"}),
        ] {
            assert!(
                matches!(
                    classify_stream_error(&error),
                    LlmError::ContextLengthExceeded { .. }
                ),
                "{error}"
            );
        }
    }
}
