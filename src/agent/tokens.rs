//! Token accounting: the provider's own count when it reports one, PaiCLI's estimate otherwise.
//!
//! The estimate counts everything a request carries (message text, reasoning that is echoed, tool calls and the
//! tool schemas), so compaction fires on the real size of a request rather than on the message text alone.

use crate::llm::{Content, ContentPart, Message, ToolSpec, Usage};

/// Per-message overhead of the chat format.
const MESSAGE_OVERHEAD: u64 = 4;
/// A rough cost for one image part; providers differ, this errs on the large side for small images.
const IMAGE_TOKENS: u64 = 1000;

/// Estimated tokens of `text`: CJK characters ÷ 1.5, other characters ÷ 4 (rounded up).
pub fn estimate_text(text: &str) -> u64 {
    let (mut cjk, mut other) = (0u64, 0u64);
    for c in text.chars() {
        if is_cjk(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    (cjk * 2).div_ceil(3) + other.div_ceil(4)
}

/// Estimated tokens of one message, reasoning and tool calls included.
pub fn estimate_message(message: &Message) -> u64 {
    let content = match &message.content {
        Content::Text(t) => estimate_text(t),
        Content::Parts(parts) => parts
            .iter()
            .map(|p| match p {
                ContentPart::Text { text } => estimate_text(text),
                ContentPart::ImageUrl { .. } => IMAGE_TOKENS,
            })
            .sum(),
    };
    let reasoning = message
        .reasoning_content
        .as_deref()
        .map_or(0, estimate_text);
    let calls: u64 = message
        .tool_calls
        .iter()
        .map(|c| estimate_text(&c.id) + estimate_text(&c.name) + estimate_text(&c.arguments) + 4)
        .sum();
    MESSAGE_OVERHEAD + content + reasoning + calls
}

/// Estimated tokens of the tool definitions sent with a request.
pub fn estimate_tools(tools: &[ToolSpec]) -> u64 {
    tools
        .iter()
        .map(|t| {
            estimate_text(&t.name)
                + estimate_text(&t.description)
                + estimate_text(&t.parameters.to_string())
                + MESSAGE_OVERHEAD
        })
        .sum()
}

/// Estimated tokens of a whole request.
pub fn estimate_request(messages: &[Message], tools: &[ToolSpec]) -> u64 {
    messages.iter().map(estimate_message).sum::<u64>() + estimate_tools(tools)
}

/// True for Han, Kana, Hangul and CJK punctuation.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FA1F)
}

/// What the next request will cost: the provider's count for the last request plus estimates for what came after.
#[derive(Clone, Copy, Debug, Default)]
pub struct ContextMeter {
    /// History length when the last counted request was sent, and the tokens the provider reported for it
    /// (prompt + completion, the completion standing in for the assistant message it produced).
    anchor: Option<(usize, u64)>,
}

impl ContextMeter {
    /// Records the provider's usage for a request that carried the first `history_len` messages.
    pub fn record(&mut self, history_len: usize, usage: Option<Usage>) {
        self.anchor = usage
            .filter(|u| u.prompt_tokens > 0)
            .map(|u| (history_len, u.prompt_tokens + u.completion_tokens));
    }

    /// Forgets the provider's count (the history was rewritten, so it no longer applies).
    pub fn reset(&mut self) {
        self.anchor = None;
    }

    /// Tokens of a request with `history` and `tools`.
    pub fn measure(&self, history: &[Message], tools: &[ToolSpec]) -> u64 {
        match self.anchor {
            // The message right after the anchor is the assistant reply the completion tokens counted.
            Some((len, counted)) if len < history.len() => {
                counted + history[len + 1..].iter().map(estimate_message).sum::<u64>()
            }
            _ => estimate_request(history, tools),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::llm::ToolCall;

    #[test]
    fn cjk_counts_more_per_char_than_latin() {
        assert_eq!(estimate_text(""), 0);
        assert_eq!(estimate_text("abcd"), 1);
        assert_eq!(estimate_text("abcde"), 2);
        assert_eq!(estimate_text("你好世"), 2);
        assert_eq!(estimate_text("你好世界你好"), 4);
    }

    #[test]
    fn messages_count_overhead_reasoning_and_calls() {
        let plain = Message::user("abcd");
        assert_eq!(estimate_message(&plain), 5);
        let with_calls = Message::assistant_tool_calls(
            "",
            Some("abcdabcd".into()),
            vec![ToolCall {
                id: "c1".into(),
                name: "read".into(),
                arguments: "{}".into(),
            }],
        );
        assert_eq!(estimate_message(&with_calls), 4 + 2 + (1 + 1 + 1 + 4));
    }

    #[test]
    fn tool_schemas_count() {
        let tools = [ToolSpec {
            name: "read_file".into(),
            description: "x".repeat(400),
            parameters: serde_json::json!({"type": "object"}),
        }];
        assert!(estimate_tools(&tools) > 100);
    }

    #[test]
    fn the_meter_prefers_provider_usage_and_adds_later_messages() {
        let mut history = vec![Message::system("s"), Message::user("u")];
        let mut meter = ContextMeter::default();
        meter.record(
            history.len(),
            Some(Usage {
                prompt_tokens: 1000,
                completion_tokens: 50,
                ..Usage::default()
            }),
        );
        history.push(Message::assistant("answer"));
        assert_eq!(meter.measure(&history, &[]), 1050);
        history.push(Message::user("abcd"));
        assert_eq!(meter.measure(&history, &[]), 1055);
        meter.reset();
        assert_eq!(
            meter.measure(&history, &[]),
            estimate_request(&history, &[])
        );
    }
}
