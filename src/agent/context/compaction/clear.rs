//! Clearing old tool results: the content of old, large tool messages becomes a short placeholder. Only the
//! content changes, so every `tool_call_id` still answers its call.

use std::sync::LazyLock;

use regex::Regex;

use crate::llm::{Message, Role};

/// Results shorter than this are not worth clearing.
pub const MIN_CLEAR_CHARS: usize = 400;
/// Starts every placeholder (the system prompt tells the model what it means).
pub const CLEARED_MARKER: &str = "[old tool result cleared]";

static SPILL_PATH: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"\.paicli/tool-outputs/[^\s"'<>)\]]+"#).ok());

/// Replaces the content of every tool message except the last `keep` with a placeholder naming the tool, the
/// original length and the spill file (if the output was spilled). Returns how many were cleared.
pub fn clear_old_results(history: &mut [Message], keep: usize) -> usize {
    let plan = old_results(history, keep);
    for (i, text) in &plan {
        history[*i].content = crate::llm::Content::Text(text.clone());
    }
    plan.len()
}

/// The tool messages [`clear_old_results`] would clear: their index and placeholder text.
pub fn old_results(history: &[Message], keep: usize) -> Vec<(usize, String)> {
    let tool_indices: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Tool)
        .map(|(i, _)| i)
        .collect();
    let old = tool_indices.len().saturating_sub(keep);
    let mut plan = Vec::new();
    for &i in &tool_indices[..old] {
        let text = history[i].text();
        let chars = text.chars().count();
        if chars < MIN_CLEAR_CHARS || text.starts_with(CLEARED_MARKER) {
            continue;
        }
        let tool = history[i]
            .tool_call_id
            .as_deref()
            .and_then(|id| tool_name(&history[..i], id))
            .unwrap_or("unknown");
        plan.push((i, placeholder(tool, chars, spill_path(&text).as_deref())));
    }
    plan
}

/// The spill file a tool result names, if its output was spilled.
pub fn spill_path(text: &str) -> Option<String> {
    SPILL_PATH
        .as_ref()
        .and_then(|re| re.find(text))
        .map(|m| m.as_str().to_string())
}

/// The text that stands in for a cleared result.
pub fn placeholder(tool: &str, chars: usize, spill: Option<&str>) -> String {
    let where_ = match spill {
        Some(path) => {
            format!("The full output is saved in {path}; read it with read_file (offset/limit).")
        }
        None => "Run the tool again if you need it.".to_string(),
    };
    format!("{CLEARED_MARKER} {tool} result ({chars} chars) removed to save context. {where_}")
}

/// The name of the call `id`, from the assistant messages before it.
fn tool_name<'a>(before: &'a [Message], id: &str) -> Option<&'a str> {
    before
        .iter()
        .rev()
        .flat_map(|m| m.tool_calls.iter())
        .find(|c| c.id == id)
        .map(|c| c.name.as_str())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::llm::ToolCall;

    fn round(id: &str, name: &str, text: &str) -> [Message; 2] {
        [
            Message::assistant_tool_calls(
                "",
                None,
                vec![ToolCall {
                    id: id.into(),
                    name: name.into(),
                    arguments: "{}".into(),
                }],
            ),
            Message::tool(id, text),
        ]
    }

    #[test]
    fn clears_old_large_results_and_keeps_pairs_and_recent_ones() {
        let big = "x".repeat(500);
        let spilled = format!(
            "output too large, offloaded to .paicli/tool-outputs/session-1/001-grep_code.txt\n{big}"
        );
        let mut history = vec![Message::system("s"), Message::user("u")];
        history.extend(round("a", "read_file", &big));
        history.extend(round("b", "list_dir", "small"));
        history.extend(round("c", "grep_code", &spilled));
        for id in ["d", "e", "f"] {
            history.extend(round(id, "read_file", &big));
        }
        let before = history.clone();
        assert_eq!(clear_old_results(&mut history, 3), 2);
        assert_eq!(
            history[3].text(),
            "[old tool result cleared] read_file result (500 chars) removed to save context. Run the tool again if \
you need it."
        );
        assert_eq!(history[5].text(), "small");
        assert!(
            history[7].text().contains(
                ".paicli/tool-outputs/session-1/001-grep_code.txt; read it with read_file"
            ),
            "{}",
            history[7].text()
        );
        for (old, new) in before.iter().zip(&history) {
            assert_eq!(
                (old.role, &old.tool_call_id, &old.tool_calls),
                (new.role, &new.tool_call_id, &new.tool_calls)
            );
        }
        assert_eq!(&history[9..], &before[9..], "the last 3 results stay");
        assert_eq!(
            clear_old_results(&mut history, 3),
            0,
            "nothing left to clear"
        );
    }
}
