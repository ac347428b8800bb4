//! Scripted replies in the OpenAI Responses API's streaming shape (`POST /v1/responses`, `stream: true`), for
//! clients that speak it (Codex CLI) against the same scripted server paicli is measured with.
//!
//! Written from the public API reference: every event is an SSE frame `event: <type>` + `data: <json>` whose
//! JSON carries the same `type` and an increasing `sequence_number`; the stream opens with `response.created`,
//! each output item goes `response.output_item.added` → its deltas → `response.output_item.done`, and it ends
//! with `response.completed` (no `[DONE]` sentinel). Function calls are `function_call` items (`call_id`, `name`,
//! JSON `arguments`), freeform tools such as Codex's `apply_patch` are `custom_tool_call` items (`input` text),
//! answers are `message` items with `output_text` parts.

use serde_json::{Value, json};

use crate::scripted_server::Reply;

/// One output item of a scripted response.
pub enum Item {
    /// A `function_call`: call id, function name, arguments object.
    FunctionCall(String, String, Value),
    /// A `custom_tool_call` (freeform input): call id, tool name, input text.
    CustomToolCall(String, String, String),
    /// An assistant `message` with one `output_text` part.
    Message(String),
}

/// A streamed response holding `items` in order, then `response.completed`.
pub fn reply(items: impl IntoIterator<Item = Item>) -> Reply {
    let mut events = Events::default();
    let id = "resp_scripted";
    let created = json!({"id": id, "object": "response", "created_at": 0, "status": "in_progress",
        "model": "scripted-model", "output": []});
    events.push("response.created", json!({"response": created}));
    let mut output = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        output.push(item.stream(index, &mut events));
    }
    let completed = json!({"id": id, "object": "response", "created_at": 0, "status": "completed",
        "model": "scripted-model", "output": output,
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}});
    events.push("response.completed", json!({"response": completed}));
    Reply::raw_chunks(events.frames)
}

/// A response with one `function_call` item.
pub fn function_call(call_id: &str, name: &str, arguments: Value) -> Reply {
    reply([Item::FunctionCall(
        call_id.to_string(),
        name.to_string(),
        arguments,
    )])
}

/// A response with one `custom_tool_call` item.
pub fn custom_tool_call(call_id: &str, name: &str, input: &str) -> Reply {
    reply([Item::CustomToolCall(
        call_id.to_string(),
        name.to_string(),
        input.to_string(),
    )])
}

/// A response with one assistant message.
pub fn message(text: &str) -> Reply {
    reply([Item::Message(text.to_string())])
}

#[derive(Default)]
struct Events {
    frames: Vec<String>,
}

impl Events {
    fn push(&mut self, kind: &str, mut data: Value) {
        data["type"] = json!(kind);
        data["sequence_number"] = json!(self.frames.len());
        self.frames.push(format!("event: {kind}\ndata: {data}\n\n"));
    }
}

/// `text` in three pieces (at char boundaries), as a model streams it.
fn thirds(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = chars.len().div_ceil(3).max(1);
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

impl Item {
    /// Writes the item's events at `index`; returns the finished item for `response.completed`.
    fn stream(self, index: usize, events: &mut Events) -> Value {
        let at = |extra: Value| {
            let mut v = json!({"output_index": index});
            if let (Some(v), Value::Object(extra)) = (v.as_object_mut(), extra) {
                v.extend(extra);
            }
            v
        };
        match self {
            Item::FunctionCall(call_id, name, arguments) => {
                let item_id = format!("fc_{index}");
                let arguments = arguments.to_string();
                let head = json!({"type": "function_call", "id": item_id, "call_id": call_id,
                    "name": name, "arguments": "", "status": "in_progress"});
                events.push("response.output_item.added", at(json!({"item": head})));
                for piece in thirds(&arguments) {
                    let delta = json!({"item_id": item_id, "delta": piece});
                    events.push("response.function_call_arguments.delta", at(delta));
                }
                let done = json!({"item_id": item_id, "arguments": arguments});
                events.push("response.function_call_arguments.done", at(done));
                let item = json!({"type": "function_call", "id": item_id, "call_id": call_id,
                    "name": name, "arguments": arguments, "status": "completed"});
                events.push("response.output_item.done", at(json!({"item": item})));
                item
            }
            Item::CustomToolCall(call_id, name, input) => {
                let item_id = format!("ctc_{index}");
                let head = json!({"type": "custom_tool_call", "id": item_id, "call_id": call_id,
                    "name": name, "input": ""});
                events.push("response.output_item.added", at(json!({"item": head})));
                for piece in thirds(&input) {
                    let delta = json!({"item_id": item_id, "delta": piece});
                    events.push("response.custom_tool_call_input.delta", at(delta));
                }
                let done = json!({"item_id": item_id, "input": input});
                events.push("response.custom_tool_call_input.done", at(done));
                let item = json!({"type": "custom_tool_call", "id": item_id, "call_id": call_id,
                    "name": name, "input": input, "status": "completed"});
                events.push("response.output_item.done", at(json!({"item": item})));
                item
            }
            Item::Message(text) => {
                let item_id = format!("msg_{index}");
                let head = json!({"type": "message", "id": item_id, "role": "assistant",
                    "status": "in_progress", "content": []});
                events.push("response.output_item.added", at(json!({"item": head})));
                let empty = json!({"type": "output_text", "text": "", "annotations": []});
                let part_at = |extra: Value| {
                    let mut v = at(json!({"item_id": item_id, "content_index": 0}));
                    if let (Some(v), Value::Object(extra)) = (v.as_object_mut(), extra) {
                        v.extend(extra);
                    }
                    v
                };
                events.push(
                    "response.content_part.added",
                    part_at(json!({"part": empty})),
                );
                for piece in thirds(&text) {
                    events.push(
                        "response.output_text.delta",
                        part_at(json!({"delta": piece})),
                    );
                }
                events.push("response.output_text.done", part_at(json!({"text": text})));
                let part = json!({"type": "output_text", "text": text, "annotations": []});
                events.push("response.content_part.done", part_at(json!({"part": part})));
                let item = json!({"type": "message", "id": item_id, "role": "assistant",
                    "status": "completed", "content": [part]});
                events.push("response.output_item.done", at(json!({"item": item})));
                item
            }
        }
    }
}
