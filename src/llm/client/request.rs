//! Builds the chat-completions request body (spec §4): messages, tools, usage option and provider extras.

use serde_json::{Map, Value, json};

use crate::llm::providers::{RequestExtras, ResolvedProvider};
use crate::llm::{Content, ContentPart, Message, Role, ToolSpec};

/// The JSON body for one streaming request.
pub fn build_body(provider: &ResolvedProvider, messages: &[Message], tools: &[ToolSpec]) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), Value::String(provider.model.clone()));
    body.insert("stream".into(), Value::Bool(true));
    let wire: Vec<Value> = messages
        .iter()
        .map(|m| message_to_wire(m, provider.reasoning_echo))
        .collect();
    body.insert("messages".into(), Value::Array(wire));
    if !tools.is_empty() && provider.supports_tools {
        body.insert(
            "tools".into(),
            Value::Array(tools.iter().map(tool_to_wire).collect()),
        );
    }
    if provider.include_usage {
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    if provider.id == "openrouter" {
        // OpenRouter's usage accounting: `usage.cost` (USD) in the last chunk. Current deployments report it
        // unasked; older ones and compatible gateways need the flag, which the others ignore.
        body.insert("usage".into(), json!({"include": true}));
    }
    if let Some(max_tokens) = provider.max_tokens {
        body.insert(provider.max_tokens_field.into(), json!(max_tokens));
    }
    add_extras(&mut body, provider.extras);
    Value::Object(body)
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

fn content_to_wire(content: &Content) -> Value {
    match content {
        Content::Text(text) => Value::String(text.clone()),
        Content::Parts(parts) => Value::Array(
            parts
                .iter()
                .map(|part| match part {
                    ContentPart::Text { text } => json!({"type": "text", "text": text}),
                    ContentPart::ImageUrl { url } => {
                        json!({"type": "image_url", "image_url": {"url": url}})
                    }
                })
                .collect(),
        ),
    }
}

/// One history message in the OpenAI wire shape.
///
/// An assistant tool-call message without text carries `content: ""` rather than `null`: OpenAI and DeepSeek
/// accept both, but some local servers in the provider table (LM Studio, older llama.cpp) reject `null`.
pub fn message_to_wire(message: &Message, reasoning_echo: bool) -> Value {
    let mut wire = Map::new();
    wire.insert("role".into(), Value::String(role_name(message.role).into()));
    wire.insert("content".into(), content_to_wire(&message.content));
    if message.role == Role::Assistant && !message.tool_calls.is_empty() {
        if reasoning_echo
            && let Some(reasoning) = message
                .reasoning_content
                .as_deref()
                .filter(|r| !r.trim().is_empty())
        {
            wire.insert(
                "reasoning_content".into(),
                Value::String(reasoning.to_string()),
            );
        }
        let calls = message
            .tool_calls
            .iter()
            .map(|call| {
                json!({
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                })
            })
            .collect();
        wire.insert("tool_calls".into(), Value::Array(calls));
    }
    if message.role == Role::Tool {
        let id = message.tool_call_id.clone().unwrap_or_default();
        wire.insert("tool_call_id".into(), Value::String(id));
    }
    Value::Object(wire)
}

fn tool_to_wire(tool: &ToolSpec) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        },
    })
}

fn add_extras(body: &mut Map<String, Value>, extras: RequestExtras) {
    let deepseek_like = |body: &mut Map<String, Value>| {
        body.insert("temperature".into(), json!(1.0));
        body.insert("top_p".into(), json!(0.95));
        body.insert("reasoning_effort".into(), json!("max"));
        body.insert("thinking".into(), json!({"type": "enabled"}));
    };
    match extras {
        RequestExtras::None => {}
        RequestExtras::DeepSeekThinking => deepseek_like(body),
        RequestExtras::GlmThinking => {
            deepseek_like(body);
            body.insert(
                "thinking".into(),
                json!({"type": "enabled", "clear_thinking": false}),
            );
            body.insert("tool_stream".into(), Value::Bool(true));
        }
        RequestExtras::HunyuanHigh => {
            body.insert("reasoning_effort".into(), json!("high"));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use pretty_assertions::assert_eq;

    use super::*;
    use crate::llm::ToolCall;
    use crate::llm::providers::lookup;

    fn provider(id: &str, model: &str) -> ResolvedProvider {
        ResolvedProvider::new(lookup(id).unwrap(), model, None, None)
    }

    fn call() -> ToolCall {
        ToolCall {
            id: "call_1".into(),
            name: "read_file".into(),
            arguments: r#"{"path":"a"}"#.into(),
        }
    }

    #[test]
    fn assistant_tool_call_echoes_reasoning_only_when_the_provider_wants_it() {
        let m = Message::assistant_tool_calls("", Some("think".into()), vec![call()]);
        let expected_calls = json!([{
            "id": "call_1", "type": "function",
            "function": {"name": "read_file", "arguments": "{\"path\":\"a\"}"},
        }]);
        assert_eq!(
            message_to_wire(&m, true),
            json!({"role": "assistant", "content": "", "reasoning_content": "think",
                   "tool_calls": expected_calls})
        );
        assert_eq!(
            message_to_wire(&m, false),
            json!({"role": "assistant", "content": "", "tool_calls": expected_calls})
        );
    }

    #[test]
    fn final_answers_and_blank_reasoning_are_never_echoed() {
        let mut answer = Message::assistant("done");
        answer.reasoning_content = Some("thought".into());
        assert_eq!(
            message_to_wire(&answer, true),
            json!({"role": "assistant", "content": "done"})
        );
        let mut blank = Message::assistant_tool_calls("", None, vec![call()]);
        blank.reasoning_content = Some("  \n".into());
        assert!(
            message_to_wire(&blank, true)
                .get("reasoning_content")
                .is_none()
        );
    }

    #[test]
    fn tool_results_carry_their_call_id() {
        assert_eq!(
            message_to_wire(&Message::tool("call_1", "ok"), true),
            json!({"role": "tool", "content": "ok", "tool_call_id": "call_1"})
        );
    }

    #[test]
    fn image_parts_use_the_nested_image_url_shape() {
        let m = Message {
            content: Content::Parts(vec![
                ContentPart::Text { text: "see".into() },
                ContentPart::ImageUrl {
                    url: "data:image/png;base64,AA==".into(),
                },
            ]),
            ..Message::user("")
        };
        assert_eq!(
            message_to_wire(&m, false),
            json!({"role": "user", "content": [
                {"type": "text", "text": "see"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}},
            ]})
        );
    }

    #[test]
    fn deepseek_body_has_thinking_extras_and_usage() {
        let body = build_body(&provider("deepseek", "deepseek-flash"), &[], &[]);
        assert_eq!(
            body,
            json!({
                "model": "deepseek-flash", "stream": true, "messages": [],
                "stream_options": {"include_usage": true},
                "temperature": 1.0, "top_p": 0.95, "reasoning_effort": "max",
                "thinking": {"type": "enabled"},
            })
        );
    }

    #[test]
    fn glm_5_3_adds_clear_thinking_and_tool_stream() {
        let body = build_body(&provider("glm", "glm-5.3-flash"), &[], &[]);
        assert_eq!(
            body["thinking"],
            json!({"type": "enabled", "clear_thinking": false})
        );
        assert_eq!(body["tool_stream"], json!(true));
        assert_eq!(body["reasoning_effort"], json!("max"));
    }

    #[test]
    fn hunyuan_asks_for_high_effort_only() {
        let body = build_body(&provider("hunyuan", "hy4-preview"), &[], &[]);
        assert_eq!(body["reasoning_effort"], json!("high"));
        assert!(body.get("thinking").is_none());
        assert!(body.get("temperature").is_none());
    }

    #[test]
    fn tools_are_sent_only_when_present_and_supported() {
        let tool = ToolSpec {
            name: "read_file".into(),
            description: "Reads".into(),
            parameters: json!({"type": "object"}),
        };
        let openai = build_body(
            &provider("openai", "gpt-4o"),
            &[],
            std::slice::from_ref(&tool),
        );
        assert_eq!(
            openai["tools"],
            json!([{"type": "function", "function": {
                "name": "read_file", "description": "Reads", "parameters": {"type": "object"}}}])
        );
        assert!(
            build_body(&provider("openai", "gpt-4o"), &[], &[])
                .get("tools")
                .is_none()
        );
        let xfyun = build_body(&provider("xfyun", "m"), &[], &[tool]);
        assert!(xfyun.get("tools").is_none());
        assert!(xfyun.get("stream_options").is_none());
    }
}
