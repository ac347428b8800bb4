//! What providers' error texts mean, in one place: the HTTP error path and the in-stream error path both ask here.

/// Phrases providers use when the prompt does not fit the model's window.
const CONTEXT_LENGTH_MARKERS: &[&str] = &[
    "context_length_exceeded",
    "maximum context length",
    "context window",
    "context length",
    "too many tokens",
    "prompt is too long",
    "exceeds the model's",
    // Kimi, GLM and DashScope phrasings.
    "exceeded model token limit",
    "prompt exceeds max length",
    "range of input length",
];

/// Phrases of transient failures (spec §4 list, plus common spellings of the same conditions).
const TRANSIENT_MARKERS: &[&str] = &[
    "rate_limit",
    "rate limit",
    "too many requests",
    "overloaded",
    "server_error",
    "temporarily unavailable",
    "service unavailable",
    "resource_exhausted",
    "timeout",
    "timed out",
];

/// Whether `text` says the prompt is too long for the model (compact, do not retry as is).
/// "Too many tokens per minute" is a rate limit, not an oversized prompt, so rate-limit wording wins.
pub fn is_context_length_message(text: &str) -> bool {
    let lower = text.to_lowercase();
    let rate_limited = lower.contains("rate_limit") || lower.contains("rate limit");
    !rate_limited && CONTEXT_LENGTH_MARKERS.iter().any(|m| lower.contains(m))
}

/// Whether `text` describes a failure worth retrying.
pub fn is_transient_message(text: &str) -> bool {
    let lower = text.to_lowercase();
    TRANSIENT_MARKERS.iter().any(|m| lower.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_length_wording_from_several_providers() {
        for text in [
            "This model's maximum context length is 128000 tokens",
            "Error code: context_length_exceeded",
            "Input exceeded model token limit",
            "Range of input length should be [1, 30720]",
        ] {
            assert!(is_context_length_message(text), "{text}");
        }
        assert!(!is_context_length_message(
            "Rate limit: too many tokens per minute"
        ));
        assert!(!is_context_length_message("invalid api key"));
    }

    #[test]
    fn transient_wording() {
        assert!(is_transient_message("Server Overloaded, try later"));
        assert!(is_transient_message("upstream timed out"));
        assert!(!is_transient_message("invalid api key"));
    }
}
