//! The one token estimator: compaction, the status line, `/context` and memory recall all count with it.
//!
//! The estimate counts everything a request carries (message text, reasoning that is echoed, tool calls and the
//! tool schemas), so compaction fires on the real size of a request rather than on the message text alone.

use crate::protocol::message::{Content, ContentPart, Message, ToolSpec};

/// Per-message overhead of the chat format.
const MESSAGE_OVERHEAD: u64 = 4;
/// A rough cost for one image part; providers differ, this errs on the large side for small images.
const IMAGE_TOKENS: u64 = 1000;

/// Estimated tokens of `text`: CJK characters ÷ 1.5, other characters ÷ 4 (rounded up).
pub fn estimate_text(text: &str) -> u64 {
    // Most text sent is ASCII (tool definitions, code): one byte is one character and none is CJK.
    if text.is_ascii() {
        return (text.len() as u64).div_ceil(4);
    }
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
                + estimate_text(&schema_text(&t.parameters))
                + MESSAGE_OVERHEAD
        })
        .sum()
}

/// A schema as sent (compact JSON), written straight into a string: `Value`'s `Display` goes through the
/// formatter a piece at a time, which made this estimate a visible part of every request's preparation.
fn schema_text(schema: &serde_json::Value) -> String {
    serde_json::to_string(schema).unwrap_or_default()
}

/// Estimated tokens of a whole request.
pub fn estimate_request(messages: &[Message], tools: &[ToolSpec]) -> u64 {
    messages.iter().map(estimate_message).sum::<u64>() + estimate_tools(tools)
}

/// A request's estimated tokens by part, as `/context` lists them; [`ContextEstimate::total`] is
/// [`estimate_request`] of the same request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextEstimate {
    /// The system prompt (the first message).
    pub system: u64,
    /// The tool definitions.
    pub tools: u64,
    /// Every message after the system prompt.
    pub history: u64,
}

impl ContextEstimate {
    /// Estimates `messages` (system prompt first) sent with `tools`.
    pub fn of(messages: &[Message], tools: &[ToolSpec]) -> Self {
        ContextEstimate {
            system: messages.first().map_or(0, estimate_message),
            tools: estimate_tools(tools),
            history: messages.iter().skip(1).map(estimate_message).sum(),
        }
    }

    /// The whole request.
    pub fn total(&self) -> u64 {
        self.system + self.tools + self.history
    }
}

/// True for Han, Kana, Hangul and CJK punctuation.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FA1F)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::protocol::message::ToolCall;

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
    fn the_breakdown_adds_up_to_the_request_estimate() {
        let messages = [
            Message::system("you are a coding agent"),
            Message::user("读一下 main.rs"),
            Message::assistant("done"),
        ];
        let tools = [ToolSpec {
            name: "read_file".into(),
            description: "reads".into(),
            parameters: serde_json::json!({"type": "object"}),
        }];
        let parts = ContextEstimate::of(&messages, &tools);
        assert_eq!(parts.total(), estimate_request(&messages, &tools));
        assert_eq!(parts.system, estimate_message(&messages[0]));
        assert_eq!(parts.tools, estimate_tools(&tools));
    }
}
