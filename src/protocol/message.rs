//! Conversation and response types shared by the whole crate.

use serde::{Deserialize, Serialize};

/// Who said a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One part of a multi-part message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentPart {
    Text {
        text: String,
    },
    /// An image as a URL, usually a `data:<mime>;base64,...` URL.
    ImageUrl {
        url: String,
    },
}

/// Message content: plain text, or parts (text and images).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

impl Default for Content {
    fn default() -> Self {
        Content::Text(String::new())
    }
}

impl Content {
    /// The text of the content; image parts are skipped.
    pub fn text(&self) -> String {
        match self {
            Content::Text(t) => t.clone(),
            Content::Parts(parts) => parts
                .iter()
                .filter_map(|p| match p {
                    ContentPart::Text { text } => Some(text.as_str()),
                    ContentPart::ImageUrl { .. } => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// True when there is no text and no image.
    pub fn is_empty(&self) -> bool {
        match self {
            Content::Text(t) => t.is_empty(),
            Content::Parts(parts) => parts.is_empty(),
        }
    }
}

/// A tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The raw JSON argument string as the model produced it.
    pub arguments: String,
}

/// One message of the conversation history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    #[serde(default)]
    pub content: Content,
    /// Assistant reasoning, kept on tool-call messages for providers that want it echoed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For `Role::Tool`: the call this message answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    fn plain(role: Role, text: impl Into<String>) -> Self {
        Message {
            role,
            content: Content::Text(text.into()),
            reasoning_content: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// A system message.
    pub fn system(text: impl Into<String>) -> Self {
        Self::plain(Role::System, text)
    }

    /// A user message with plain text.
    pub fn user(text: impl Into<String>) -> Self {
        Self::plain(Role::User, text)
    }

    /// An assistant message with text only (a final answer).
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::plain(Role::Assistant, text)
    }

    /// An assistant message that calls tools, with optional reasoning kept for echoing.
    pub fn assistant_tool_calls(
        text: impl Into<String>,
        reasoning: Option<String>,
        tool_calls: Vec<ToolCall>,
    ) -> Self {
        Message {
            reasoning_content: reasoning.filter(|r| !r.trim().is_empty()),
            tool_calls,
            ..Self::plain(Role::Assistant, text)
        }
    }

    /// A tool result answering `tool_call_id`.
    pub fn tool(tool_call_id: impl Into<String>, text: impl Into<String>) -> Self {
        Message {
            tool_call_id: Some(tool_call_id.into()),
            ..Self::plain(Role::Tool, text)
        }
    }

    /// The text of the message (image parts skipped).
    pub fn text(&self) -> String {
        self.content.text()
    }
}

/// A tool definition offered to the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

/// Token counts reported by the provider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Prompt tokens served from the provider's cache.
    pub cached_tokens: u64,
    /// Completion tokens spent on reasoning.
    pub reasoning_tokens: u64,
    /// The cost the provider itself reported (OpenRouter's `usage.cost`), in billionths of a US dollar so the
    /// type stays `Eq`; `None` when the provider reports none (then the price table estimates it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_cost_nano_usd: Option<u64>,
}

impl Usage {
    /// Token counts without a reported cost.
    pub fn tokens(prompt: u64, completion: u64, cached: u64, reasoning: u64) -> Self {
        Usage {
            prompt_tokens: prompt,
            completion_tokens: completion,
            cached_tokens: cached,
            reasoning_tokens: reasoning,
            reported_cost_nano_usd: None,
        }
    }

    /// The provider-reported cost in US dollars, when there is one.
    pub fn reported_cost_usd(&self) -> Option<f64> {
        self.reported_cost_nano_usd.map(|n| n as f64 / 1e9)
    }

    /// Adds another response's counts to this one. Reported costs add up over the responses that have one.
    pub fn add(&mut self, other: &Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.cached_tokens += other.cached_tokens;
        self.reasoning_tokens += other.reasoning_tokens;
        self.reported_cost_nano_usd =
            match (self.reported_cost_nano_usd, other.reported_cost_nano_usd) {
                (Some(a), Some(b)) => Some(a.saturating_add(b)),
                (a, b) => a.or(b),
            };
    }
}

/// One complete streamed reply.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub content: String,
    pub reasoning: String,
    pub tool_calls: Vec<ToolCall>,
    /// `stop`, `tool_calls`, `length`, ... (`None` when the stream ended with `[DONE]` only).
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
    /// The model the provider says answered (`None` if absent or inconsistent).
    pub model: Option<String>,
}
