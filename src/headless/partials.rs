//! The content blocks of one streamed reply as Anthropic's raw stream events (`--include-partial-messages`):
//! thinking and text as `thinking_delta` / `text_delta`, each tool call as a `tool_use` block whose arguments
//! arrive as `input_json_delta`. Blocks are numbered in the order they start; a block stops when the next one
//! starts or the reply ends.
//!
//! A call's arguments arrive in OpenAI's shape, in paicli's field names, cut anywhere. A tool whose fields keep
//! their names in Claude's (`Bash`, `Glob`, paicli's own tools) streams them as they come; a tool whose fields
//! are renamed (`Read`'s `path` is `file_path`) cannot be renamed piece by piece, so its arguments are held and
//! sent as one delta, in Claude's fields, when the block stops.

use serde_json::{Map, Value, json};

use crate::tools::claude_names::{renames_fields, to_claude_input, to_claude_name};

/// The block being streamed and how many came before it.
#[derive(Default)]
pub(super) struct Partials {
    open: Option<Open>,
    blocks: usize,
}

struct Open {
    index: usize,
    kind: Kind,
}

enum Kind {
    Thinking,
    Text,
    /// The call with the provider's `index` `slot`; `held` keeps the arguments of a tool whose fields are
    /// renamed until the block stops.
    Call {
        slot: u64,
        tool: String,
        held: Option<String>,
    },
}

/// Which kind of text a delta carries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TextKind {
    Thinking,
    Text,
}

impl Partials {
    /// Events for a piece of reasoning or answer text.
    pub(super) fn text(&mut self, kind: TextKind, text: &str) -> Vec<Value> {
        let same = matches!(
            (&self.open, kind),
            (
                Some(Open {
                    kind: Kind::Thinking,
                    ..
                }),
                TextKind::Thinking
            ) | (
                Some(Open {
                    kind: Kind::Text,
                    ..
                }),
                TextKind::Text
            )
        );
        let mut events = Vec::new();
        if !same {
            let (block, open) = match kind {
                TextKind::Thinking => (
                    json!({"type": "thinking", "thinking": "", "signature": ""}),
                    Kind::Thinking,
                ),
                TextKind::Text => (json!({"type": "text", "text": ""}), Kind::Text),
            };
            events.extend(self.start(block, open));
        }
        let delta = match kind {
            TextKind::Thinking => json!({"type": "thinking_delta", "thinking": text}),
            TextKind::Text => json!({"type": "text_delta", "text": text}),
        };
        events.push(json!({"type": "content_block_delta", "index": self.index(), "delta": delta}));
        events
    }

    /// Events for a piece of the arguments of the call `slot` (paicli's tool `tool`, its id `id`).
    pub(super) fn call(&mut self, slot: u64, id: &str, tool: &str, arguments: &str) -> Vec<Value> {
        let mut events = Vec::new();
        let same = matches!(&self.open, Some(Open { kind: Kind::Call { slot: open, .. }, .. }) if *open == slot);
        if !same {
            let block =
                json!({"type": "tool_use", "id": id, "name": to_claude_name(tool), "input": {}});
            let held = renames_fields(tool).then(String::new);
            let kind = Kind::Call {
                slot,
                tool: tool.to_string(),
                held,
            };
            events.extend(self.start(block, kind));
        }
        let index = self.index();
        if let Some(Open {
            kind: Kind::Call {
                held: Some(held), ..
            },
            ..
        }) = &mut self.open
        {
            held.push_str(arguments);
        } else {
            events.push(input_delta(index, arguments.to_string()));
        }
        events
    }

    /// Events that end the open block, if any (the reply is complete).
    pub(super) fn close(&mut self) -> Vec<Value> {
        let Some(open) = self.open.take() else {
            return Vec::new();
        };
        let mut events = Vec::new();
        if let Kind::Call {
            tool,
            held: Some(held),
            ..
        } = open.kind
        {
            events.push(input_delta(open.index, claude_input_text(&tool, &held)));
        }
        events.push(json!({"type": "content_block_stop", "index": open.index}));
        events
    }

    /// Ends the open block and starts `block`.
    fn start(&mut self, block: Value, kind: Kind) -> Vec<Value> {
        let mut events = self.close();
        let index = self.blocks;
        self.blocks += 1;
        self.open = Some(Open { index, kind });
        events.push(json!({"type": "content_block_start", "index": index, "content_block": block}));
        events
    }

    fn index(&self) -> usize {
        self.open.as_ref().map_or(0, |o| o.index)
    }
}

fn input_delta(index: usize, partial_json: String) -> Value {
    json!({"type": "content_block_delta", "index": index,
           "delta": {"type": "input_json_delta", "partial_json": partial_json}})
}

/// A call's whole arguments in Claude's fields, as the `tool_use` block of its `assistant` message shows them.
pub(super) fn claude_input(tool: &str, arguments: &str) -> Map<String, Value> {
    let args = match serde_json::from_str::<Value>(arguments) {
        Ok(Value::Object(map)) => map,
        _ => Map::from_iter([("arguments".to_string(), Value::String(arguments.into()))]),
    };
    to_claude_input(tool, &args)
}

fn claude_input_text(tool: &str, arguments: &str) -> String {
    Value::Object(claude_input(tool, arguments)).to_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The `input_json_delta` pieces of `events`, joined.
    fn partial_json(events: &[Value]) -> String {
        events
            .iter()
            .filter_map(|e| e["delta"]["partial_json"].as_str())
            .collect()
    }

    #[test]
    fn a_command_streams_as_it_comes_after_the_text_block() {
        let mut partials = Partials::default();
        let mut events = partials.text(TextKind::Text, "Listing.");
        events.extend(partials.call(0, "c1", "execute_command", r#"{"comm"#));
        events.extend(partials.call(0, "c1", "execute_command", r#"and":"ls"}"#));
        events.extend(partials.close());
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            [
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop"
            ]
        );
        assert_eq!(
            events[3]["content_block"],
            json!({"type": "tool_use", "id": "c1", "name": "Bash", "input": {}})
        );
        assert_eq!(events[3]["index"], 1);
        assert_eq!(events[4]["delta"]["partial_json"], r#"{"comm"#);
        assert_eq!(partial_json(&events), r#"{"command":"ls"}"#);
    }

    #[test]
    fn a_renamed_tool_is_held_and_sent_in_claude_fields_when_it_stops() {
        let mut partials = Partials::default();
        let mut events = partials.call(0, "c1", "read_file", r#"{"pa"#);
        events.extend(partials.call(0, "c1", "read_file", r#"th":"a.rs"}"#));
        // Nothing of it before the block stops.
        assert_eq!(partial_json(&events), "");
        events.extend(partials.call(1, "c2", "write_file", r#"{"path":"b","content":"x"}"#));
        events.extend(partials.close());
        let stops: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "content_block_stop")
            .collect();
        assert_eq!(stops.len(), 2);
        let deltas: Vec<(u64, Value)> = events
            .iter()
            .filter(|e| e["type"] == "content_block_delta")
            .map(|e| {
                let text = e["delta"]["partial_json"].as_str().unwrap();
                (
                    e["index"].as_u64().unwrap(),
                    serde_json::from_str(text).unwrap(),
                )
            })
            .collect();
        assert_eq!(
            deltas,
            [
                (0, json!({"file_path": "a.rs"})),
                (1, json!({"file_path": "b", "content": "x"}))
            ]
        );
    }
}
