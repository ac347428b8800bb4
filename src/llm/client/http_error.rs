//! Maps failed HTTP responses and JSON error bodies to typed `LlmError`s.

use std::time::Duration;

use serde_json::Value;

use crate::llm::LlmError;
use crate::llm::error_wording::{is_context_length_message, is_transient_message};

/// Longest provider message kept in an error (the rest is noise in a terminal).
const MAX_MESSAGE_CHARS: usize = 2000;

/// The error for a non-2xx response with this status, `Retry-After` value and body text.
pub fn error_from_status(status: u16, retry_after: Option<Duration>, body: &str) -> LlmError {
    let message = extract_message(body, status);
    match status {
        401 | 403 => LlmError::Auth { status, message },
        429 => LlmError::RateLimited {
            status,
            message,
            retry_after,
        },
        408 | 500..=599 => LlmError::Server {
            status,
            message,
            retry_after,
        },
        400 | 413 | 422 if is_context_length_message(body) => {
            LlmError::ContextLengthExceeded { message }
        }
        _ => LlmError::Rejected { status, message },
    }
}

/// The typed error for an `{"error": …}` object that arrived with a 2xx status, if the body is one.
pub fn error_from_json_body(body: &Value) -> Option<LlmError> {
    let error = body.get("error").filter(|e| !e.is_null())?;
    let text = body.to_string();
    let message = message_of(error).unwrap_or_else(|| truncate(&error.to_string()));
    if let Some(status) = embedded_status(error).filter(|s| *s >= 400) {
        return Some(error_from_status(status, None, &text));
    }
    if is_context_length_message(&text) {
        return Some(LlmError::ContextLengthExceeded { message });
    }
    let retryable = is_transient_message(&text);
    Some(LlmError::StreamError { message, retryable })
}

/// The provider's own message from a JSON error body, or the trimmed text itself.
pub fn extract_message(body: &str, status: u16) -> String {
    let trimmed = body.trim();
    if let Ok(json) = serde_json::from_str::<Value>(trimmed)
        && let Some(message) = json
            .get("error")
            .and_then(message_of)
            .or_else(|| message_of(&json))
    {
        return message;
    }
    if trimmed.is_empty() {
        return format!("HTTP {status} with an empty body");
    }
    if let Some(summary) = super::html_page::summarize_html(trimmed) {
        return summary;
    }
    truncate(trimmed)
}

/// `{"message": …}`, `{"msg": …}`, `{"detail": …}` or a bare string.
fn message_of(value: &Value) -> Option<String> {
    if let Some(text) = value.as_str() {
        return Some(truncate(text));
    }
    ["message", "msg", "detail", "error_msg"]
        .iter()
        .filter_map(|key| value.get(*key))
        .find_map(|v| match v {
            Value::String(s) if !s.trim().is_empty() => Some(truncate(s.trim())),
            Value::Object(_) => message_of(v),
            _ => None,
        })
}

/// An HTTP status carried inside an error object (`code: 429`, `status: "503"`).
fn embedded_status(error: &Value) -> Option<u16> {
    ["status", "code", "status_code"]
        .iter()
        .filter_map(|key| error.get(*key))
        .find_map(|v| match v {
            Value::Number(n) => n.as_u64().and_then(|n| u16::try_from(n).ok()),
            Value::String(s) => s.trim().parse::<u16>().ok(),
            _ => None,
        })
        .filter(|s| (100..=599).contains(s))
}

fn truncate(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
    cut.push('…');
    cut
}

/// Parses `Retry-After`: delay seconds (fractions accepted) or an HTTP-date relative to `now`.
pub fn parse_retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0)
            .then(|| Duration::try_from_secs_f64(seconds).ok())
            .flatten();
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = date.with_timezone(&chrono::Utc) - now;
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use chrono::TimeZone;
    use serde_json::json;

    use super::*;

    #[test]
    fn statuses_map_to_variants() {
        assert!(matches!(
            error_from_status(401, None, "{}"),
            LlmError::Auth { status: 401, .. }
        ));
        assert!(matches!(
            error_from_status(403, None, ""),
            LlmError::Auth { .. }
        ));
        let limited = error_from_status(429, Some(Duration::from_secs(2)), "slow down");
        assert!(
            matches!(limited, LlmError::RateLimited { retry_after: Some(d), .. } if d == Duration::from_secs(2))
        );
        assert!(matches!(
            error_from_status(408, None, ""),
            LlmError::Server { status: 408, .. }
        ));
        assert!(matches!(
            error_from_status(503, None, ""),
            LlmError::Server { status: 503, .. }
        ));
        assert!(matches!(
            error_from_status(404, None, ""),
            LlmError::Rejected { status: 404, .. }
        ));
        assert!(matches!(
            error_from_status(400, None, r#"{"error":{"message":"bad role"}}"#),
            LlmError::Rejected { status: 400, .. }
        ));
    }

    #[test]
    fn context_length_wording_is_recognised_on_400_413_422() {
        for (status, body) in [
            (
                400,
                r#"{"error":{"message":"This model's maximum context length is 8192 tokens","code":"context_length_exceeded"}}"#,
            ),
            (413, "Prompt is too long"),
            (
                422,
                r#"{"message":"input exceeds the model's context window"}"#,
            ),
            (
                400,
                r#"{"error":{"message":"x","code":"context_length_exceeded"}}"#,
            ),
        ] {
            assert!(
                matches!(
                    error_from_status(status, None, body),
                    LlmError::ContextLengthExceeded { .. }
                ),
                "{status} {body}"
            );
        }
        assert!(matches!(
            error_from_status(400, None, "rate limit: too many tokens per minute"),
            LlmError::Rejected { .. }
        ));
        assert!(matches!(
            error_from_status(500, None, "too many tokens"),
            LlmError::Server { .. }
        ));
    }

    #[test]
    fn the_provider_message_is_extracted() {
        assert_eq!(
            extract_message(r#"{"error":{"message":"Invalid key","type":"auth"}}"#, 401),
            "Invalid key"
        );
        assert_eq!(extract_message(r#"{"message":"nope"}"#, 400), "nope");
        assert_eq!(extract_message(r#"{"error":"plain"}"#, 400), "plain");
        assert_eq!(extract_message("  gateway down \n", 502), "gateway down");
        assert_eq!(extract_message("", 502), "HTTP 502 with an empty body");
        assert_eq!(
            extract_message(&"x".repeat(5000), 500).chars().count(),
            2001
        );
    }

    #[test]
    fn json_error_objects_in_a_200_become_typed_errors() {
        let rate = json!({"error": {"message": "Rate limit reached", "code": 429}});
        assert!(matches!(
            error_from_json_body(&rate),
            Some(LlmError::RateLimited { status: 429, ref message, .. }) if message == "Rate limit reached"
        ));
        let ctx = json!({"error": {"message": "prompt is too long: 300000 tokens"}});
        assert!(matches!(
            error_from_json_body(&ctx),
            Some(LlmError::ContextLengthExceeded { .. })
        ));
        let busy = json!({"error": {"message": "Engine overloaded"}});
        assert!(matches!(
            error_from_json_body(&busy),
            Some(LlmError::StreamError {
                retryable: true,
                ..
            })
        ));
        let bad = json!({"error": {"message": "unknown field"}});
        assert!(matches!(
            error_from_json_body(&bad),
            Some(LlmError::StreamError {
                retryable: false,
                ..
            })
        ));
        assert!(error_from_json_body(&json!({"choices": []})).is_none());
        assert!(error_from_json_body(&json!({"error": null})).is_none());
    }

    #[test]
    fn retry_after_accepts_seconds_fractions_and_dates() {
        let now = chrono::Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(parse_retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(
            parse_retry_after("0.25", now),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 2026 00:00:07 GMT", now),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            parse_retry_after("Wed, 31 Dec 2025 23:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("1e400", now), None);
    }
}
