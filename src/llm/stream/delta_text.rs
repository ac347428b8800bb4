//! Extracts reasoning and answer text from one `delta` (or `message`) object.

use serde_json::Value;

/// The text pieces of one delta; empty strings mean "nothing this time".
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct DeltaText {
    pub(super) reasoning: String,
    pub(super) content: String,
}

/// Reads reasoning and content, tolerating `null`, missing fields and part arrays.
///
/// Reasoning comes from the first non-empty of `reasoning_content` (DeepSeek, Kimi, Qwen, GLM),
/// `reasoning` (OpenRouter, vLLM, Ollama) and `reasoning_details[]` (OpenRouter). They are
/// alternatives, not parts: OpenRouter sends the same text in both `reasoning` and
/// `reasoning_details`, so reading more than one would duplicate it.
pub(super) fn extract_delta_text(delta: &Value) -> DeltaText {
    let (content, thinking) = content_text(delta.get("content"));
    let reasoning = [
        non_empty_str(delta.get("reasoning_content")),
        non_empty_str(delta.get("reasoning")),
        reasoning_details_text(delta.get("reasoning_details")),
    ]
    .into_iter()
    .find(|text| !text.is_empty())
    .unwrap_or(thinking);
    DeltaText { reasoning, content }
}

fn non_empty_str(value: Option<&Value>) -> String {
    value.and_then(Value::as_str).unwrap_or("").to_owned()
}

/// Joins `reasoning_details[].text` (or `.content`, or `.summary`); encrypted entries have none.
fn reasoning_details_text(value: Option<&Value>) -> String {
    let Some(items) = value.and_then(Value::as_array) else {
        return String::new();
    };
    items
        .iter()
        .filter_map(|item| {
            ["text", "content", "summary"]
                .iter()
                .find_map(|key| item.get(key).and_then(Value::as_str))
        })
        .collect()
}

/// Content as a string, or as an array of parts: `text` parts are content, `thinking` parts
/// (Mistral's reasoning models) are reasoning. Returns `(content, thinking)`.
fn content_text(value: Option<&Value>) -> (String, String) {
    match value {
        Some(Value::String(s)) => (s.clone(), String::new()),
        Some(Value::Array(parts)) => {
            let mut content = String::new();
            let mut thinking = String::new();
            for part in parts {
                if part.get("type").and_then(Value::as_str) == Some("thinking") {
                    thinking.push_str(&thinking_text(part.get("thinking")));
                } else if let Some(text) = part.get("text").and_then(Value::as_str) {
                    content.push_str(text);
                } else if let Some(text) = part.as_str() {
                    content.push_str(text);
                }
            }
            (content, thinking)
        }
        _ => (String::new(), String::new()),
    }
}

fn thinking_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| item.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn text(reasoning: &str, content: &str) -> DeltaText {
        DeltaText {
            reasoning: reasoning.to_owned(),
            content: content.to_owned(),
        }
    }

    #[test]
    fn null_and_missing_are_empty() {
        assert_eq!(
            extract_delta_text(&json!({"content":null,"reasoning_content":null})),
            text("", "")
        );
        assert_eq!(extract_delta_text(&json!({})), text("", ""));
    }

    #[test]
    fn reasoning_sources_in_priority_order() {
        let all =
            json!({"reasoning_content":"a","reasoning":"b","reasoning_details":[{"text":"c"}]});
        assert_eq!(extract_delta_text(&all), text("a", ""));
        let two =
            json!({"reasoning_content":"","reasoning":"b","reasoning_details":[{"text":"c"}]});
        assert_eq!(extract_delta_text(&two), text("b", ""));
        let details = json!({"reasoning_details":[
            {"type":"reasoning.text","text":"c"},
            {"type":"reasoning.encrypted","data":"xyz"},
            {"content":"d"}
        ]});
        assert_eq!(extract_delta_text(&details), text("cd", ""));
    }

    #[test]
    fn content_parts_split_into_text_and_thinking() {
        let delta = json!({"content":[
            {"type":"thinking","thinking":[{"type":"text","text":"hmm"}]},
            {"type":"text","text":"hi"}
        ]});
        assert_eq!(extract_delta_text(&delta), text("hmm", "hi"));
    }
}
