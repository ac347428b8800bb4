//! One turn's events as the messages the client reads: `assistant` messages (thinking, text and each tool call,
//! in Claude's tool names and fields), `user` messages with each call's `tool_result`, `stream_event` partials
//! with `--include-partial-messages`, and `system` messages for what has no Claude counterpart (notices, hooks,
//! compaction, plan events). It also keeps what the turn's `result` reports: calls refused, time spent waiting
//! for the model, the last answer text and usage.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::channel::{lock, uuid};
use super::hook_messages::HookRuns;
use super::partials::{Partials, TextKind, claude_input};
use super::state::Headless;
use crate::protocol::{AgentEvent, EventSink, ToolStatus, Usage};
use crate::text::{notice_text, visible_lines};
use crate::tools::claude_names::to_claude_name;

/// Writes a turn's messages.
pub struct MessageSink<'a> {
    headless: &'a Headless,
    turn: Mutex<TurnState>,
    /// A sub-agent's sink: the `agent` call that started it, every message's `parent_tool_use_id`.
    parent: Option<String>,
    /// The sinks of the sub-agents the `agent` calls of this turn started, by call id.
    children: Mutex<HashMap<String, MessageSink<'a>>>,
    /// The model that answers here when it is not the session's (a sub-agent's), from its usage.
    own_model: Mutex<Option<String>>,
    /// Hook runs started, for `hook_response` to name the same `hook_id`.
    hook_runs: HookRuns,
}

/// What the turn has seen so far.
#[derive(Default)]
struct TurnState {
    /// The model reply being streamed: its id, reasoning, text and usage.
    reply: Reply,
    /// Calls started, by id: Claude's name and input (for results and denials).
    calls: HashMap<String, (String, Value)>,
    /// Full text of finished calls, by id (until their `ToolCallFinished`).
    outputs: HashMap<String, String>,
    /// `permission_denials` of the result.
    denials: Vec<Value>,
    /// Time from each request's start to its reply's end.
    api_time: Duration,
    request_started: Option<Instant>,
}

#[derive(Default)]
struct Reply {
    id: String,
    reasoning: String,
    text: String,
    usage: Option<Usage>,
    /// The partial stream's content blocks.
    partials: Partials,
}

/// What the result takes from the sink.
pub struct Seen {
    pub denials: Vec<Value>,
    pub api_time: Duration,
}

impl<'a> MessageSink<'a> {
    pub fn new(headless: &'a Headless) -> Self {
        MessageSink {
            headless,
            turn: Mutex::default(),
            parent: None,
            children: Mutex::default(),
            own_model: Mutex::default(),
            hook_runs: HookRuns::default(),
        }
    }

    /// What the result needs, once the turn is over.
    pub fn seen(&self) -> Seen {
        let mut turn = lock(&self.turn);
        let mut denials = std::mem::take(&mut turn.denials);
        // Calls refused to sub-agents are the turn's too.
        for child in lock(&self.children).values() {
            denials.extend(child.seen().denials);
        }
        Seen {
            denials,
            api_time: turn.api_time,
        }
    }

    fn send(&self, mut message: Value) {
        if let (Some(parent), Value::Object(body)) = (&self.parent, &mut message) {
            body.insert("parent_tool_use_id".into(), parent.clone().into());
        }
        if !self.headless.quiet {
            self.headless.channel.send(&message);
        }
    }

    /// A message of `kind` with the fields every message carries.
    fn message(&self, kind: &str, mut body: Map<String, Value>) -> Value {
        body.insert("type".into(), kind.into());
        body.insert("uuid".into(), uuid().into());
        body.insert("session_id".into(), self.headless.session_id.clone().into());
        Value::Object(body)
    }

    fn stream_event(&self, event: Value) {
        if self.headless.partials {
            let mut body = Map::new();
            body.insert("event".into(), event);
            body.insert("parent_tool_use_id".into(), Value::Null);
            self.send(self.message("stream_event", body));
        }
    }

    /// An `assistant` message holding `content`.
    fn assistant(&self, reply: &Reply, content: Vec<Value>, stop_reason: &str) {
        let mut body = Map::new();
        body.insert(
            "message".into(),
            json!({
                "id": reply.id,
                "type": "message",
                "role": "assistant",
                "model": self.model_name(),
                "content": content,
                "stop_reason": stop_reason,
                "stop_sequence": null,
                "usage": claude_usage(reply.usage.unwrap_or_default()),
            }),
        );
        body.insert("parent_tool_use_id".into(), Value::Null);
        self.send(self.message("assistant", body));
    }

    /// A `user` message holding `content`.
    fn user(&self, content: Vec<Value>) {
        let mut body = Map::new();
        body.insert(
            "message".into(),
            json!({"role": "user", "content": content}),
        );
        body.insert("parent_tool_use_id".into(), Value::Null);
        self.send(self.message("user", body));
    }

    /// A `system` message of `subtype`, with an event's own fields.
    pub(super) fn system(&self, subtype: &str, fields: Value) {
        let mut body = match fields {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        body.insert("subtype".into(), subtype.into());
        self.send(self.message("system", body));
    }

    fn request_started(&self, turn: &mut TurnState) {
        self.reply_ended(turn, "end_turn");
        turn.reply = Reply {
            id: format!("msg_{}", uuid().replace('-', "")),
            ..Reply::default()
        };
        turn.request_started = Some(Instant::now());
        self.stream_event(json!({
            "type": "message_start",
            "message": {
                "id": turn.reply.id, "type": "message", "role": "assistant",
                "model": self.headless.model(), "content": [], "stop_reason": null,
                "usage": claude_usage(Usage::default()),
            },
        }));
    }

    /// Streamed text of `kind` as partial events.
    fn delta(&self, turn: &mut TurnState, kind: TextKind, text: &str) {
        let reply = &mut turn.reply;
        for event in reply.partials.text(kind, text) {
            self.stream_event(event);
        }
        match kind {
            TextKind::Thinking => reply.reasoning.push_str(text),
            TextKind::Text => reply.text.push_str(text),
        }
    }

    /// The model's reply is complete (a call starts, or the turn ends): its thinking and text as one assistant
    /// message, and the end of its partial stream.
    fn reply_ended(&self, turn: &mut TurnState, stop_reason: &str) {
        if let Some(started) = turn.request_started.take() {
            turn.api_time += started.elapsed();
        } else {
            return;
        }
        let mut reply = std::mem::take(&mut turn.reply);
        for event in reply.partials.close() {
            self.stream_event(event);
        }
        self.stream_event(json!({
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": null},
            "usage": claude_usage(reply.usage.unwrap_or_default()),
        }));
        self.stream_event(json!({"type": "message_stop"}));
        let mut content = Vec::new();
        if !reply.reasoning.is_empty() {
            // paicli's providers sign nothing; the field is there because clients require it.
            content.push(json!({"type": "thinking", "thinking": reply.reasoning, "signature": ""}));
        }
        if !reply.text.is_empty() {
            content.push(json!({"type": "text", "text": reply.text}));
        }
        let id = reply.id.clone();
        if !content.is_empty() {
            self.assistant(&reply, content, stop_reason);
        }
        // Calls of this reply that start later belong to the same message id.
        turn.reply = Reply {
            id,
            usage: reply.usage,
            ..Reply::default()
        };
    }

    fn call_started(&self, turn: &mut TurnState, id: &str, name: &str, arguments: &str) {
        self.reply_ended(turn, "tool_use");
        let claude = to_claude_name(name).to_string();
        let input = Value::Object(claude_input(name, arguments));
        let block = json!({"type": "tool_use", "id": id, "name": claude, "input": input});
        self.assistant(&turn.reply, vec![block], "tool_use");
        turn.calls.insert(id.to_string(), (claude, input));
    }

    fn call_finished(&self, turn: &mut TurnState, id: &str, status: ToolStatus, detail: &str) {
        let text = turn
            .outputs
            .remove(id)
            .unwrap_or_else(|| detail.to_string());
        if status == ToolStatus::Denied
            && let Some((name, input)) = turn.calls.get(id)
        {
            turn.denials
                .push(json!({"tool_name": name, "tool_use_id": id, "tool_input": input}));
        }
        self.user(vec![json!({
            "type": "tool_result",
            "tool_use_id": id,
            "content": text,
            "is_error": status != ToolStatus::Ok,
        })]);
    }
}

impl<'a> MessageSink<'a> {
    /// One event of the sub-agent the `agent` call `parent_call_id` started: its messages, as the lead's are
    /// written, with that call's id as their `parent_tool_use_id` (Claude's sidechain messages).
    fn sub_agent(&self, parent_call_id: String, event: AgentEvent) {
        let mut children = lock(&self.children);
        let child = children
            .entry(parent_call_id.clone())
            .or_insert_with(|| self.child(&parent_call_id));
        if let AgentEvent::Usage { model, .. } = &event
            && !model.is_empty()
        {
            *lock(&child.own_model) = Some(model.clone());
        }
        child.emit(event);
    }

    fn child(&self, parent_call_id: &str) -> MessageSink<'a> {
        let mut child = MessageSink::new(self.headless);
        child.parent = Some(parent_call_id.to_string());
        child
    }

    /// The model named in assistant messages.
    fn model_name(&self) -> String {
        lock(&self.own_model)
            .clone()
            .unwrap_or_else(|| self.headless.model())
    }
}

impl EventSink for MessageSink<'_> {
    fn emit(&self, event: AgentEvent) {
        let event = match event {
            AgentEvent::SubAgent {
                parent_call_id,
                event,
                ..
            } => return self.sub_agent(parent_call_id, *event),
            other => other,
        };
        let mut turn = lock(&self.turn);
        match event {
            AgentEvent::RequestStarted { .. } => self.request_started(&mut turn),
            AgentEvent::ReasoningDelta { text } => self.delta(&mut turn, TextKind::Thinking, &text),
            AgentEvent::TextDelta { text } => self.delta(&mut turn, TextKind::Text, &text),
            AgentEvent::ToolCallDelta {
                index,
                id,
                name,
                arguments,
            } => {
                for event in turn.reply.partials.call(index, &id, &name, &arguments) {
                    self.stream_event(event);
                }
            }
            AgentEvent::Usage {
                response,
                model,
                provider,
                ..
            } => {
                turn.reply.usage = Some(response);
                self.headless.spent_by(&model, &provider, &response);
            }
            AgentEvent::ToolCallStarted {
                id,
                name,
                arguments,
                ..
            } => self.call_started(&mut turn, &id, &name, &arguments),
            AgentEvent::ToolCallOutput { id, text } => {
                turn.outputs.insert(id, text);
            }
            AgentEvent::ToolCallFinished {
                id, status, detail, ..
            } => self.call_finished(&mut turn, &id, status, &detail),
            AgentEvent::TurnFinished { .. }
            | AgentEvent::TurnPartial { .. }
            | AgentEvent::TurnFailed { .. } => self.reply_ended(&mut turn, "end_turn"),
            AgentEvent::TurnCancelled => {
                self.reply_ended(&mut turn, "end_turn");
                self.user(vec![
                    json!({"type": "text", "text": "[Request interrupted by user]"}),
                ]);
            }
            AgentEvent::ToolOutput { .. } => {}
            AgentEvent::Notice { notice } if self.headless.quiet => {
                let line = notice_text(self.headless.lang, &notice);
                eprintln!("! {}", visible_lines(&line));
            }
            AgentEvent::HookStarted { .. } | AgentEvent::HookFinished { .. }
                if !self.headless.hook_events => {}
            AgentEvent::HookStarted {
                hook_event,
                command,
            } => self.system(
                "hook_started",
                self.hook_runs.started(&hook_event, &command),
            ),
            AgentEvent::HookFinished {
                hook_event,
                command,
                outcome,
                reason,
                duration_ms,
            } => {
                let fields =
                    self.hook_runs
                        .finished(&hook_event, &command, outcome, &reason, duration_ms);
                self.system("hook_response", fields);
            }
            AgentEvent::Compacted { tokens_before, .. } => {
                let mut fields = event_fields(&event);
                fields["compact_metadata"] =
                    json!({"trigger": "auto", "pre_tokens": tokens_before});
                self.system("compact_boundary", fields);
            }
            other => {
                // Notices, hooks, diagnostics and plan events: paicli's own, as system messages.
                let fields = event_fields(&other);
                let subtype = fields
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("event")
                    .to_string();
                self.system(&subtype, fields);
            }
        }
    }

    fn wants_tool_output(&self) -> bool {
        true
    }

    fn wants_call_deltas(&self) -> bool {
        self.headless.partials
    }
}

/// An event's serialized fields; its `type` becomes the system message's `subtype`, and a hook's command is also
/// its `hook_name`, as Claude's hook events call it.
fn event_fields(event: &AgentEvent) -> Value {
    let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value
        && let Some(command) = map.get("command").cloned()
    {
        map.insert("hook_name".into(), command);
    }
    value
}

/// paicli's token counts in Claude's usage fields (input tokens exclude the ones read from the cache).
pub fn claude_usage(usage: Usage) -> Value {
    json!({
        "input_tokens": usage.prompt_tokens.saturating_sub(usage.cached_tokens),
        "output_tokens": usage.completion_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": usage.cached_tokens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headless::channel::Channel;
    use crate::headless::channel::capture::Buffer;
    use crate::headless::running::RunningTurn;
    use std::sync::Arc;

    fn headless(buffer: &Buffer) -> Headless {
        let channel = Arc::new(Channel::new(Box::new(buffer.clone())));
        let running = Arc::new(RunningTurn::default());
        Headless::new(channel, running, "S".into(), "m".into())
    }

    #[test]
    fn a_sub_agents_messages_name_the_call_that_started_it() {
        let buffer = Buffer::default();
        let headless = headless(&buffer);
        let sink = MessageSink::new(&headless);
        let sub = |event| AgentEvent::SubAgent {
            parent_call_id: "call_task".into(),
            agent: "explore".into(),
            event: Box::new(event),
        };
        sink.emit(sub(AgentEvent::RequestStarted { iteration: 1 }));
        sink.emit(sub(AgentEvent::TextDelta {
            text: "found".into(),
        }));
        sink.emit(sub(AgentEvent::Usage {
            response: Usage::tokens(5, 1, 0, 0),
            session: Usage::default(),
            model: "cheap".into(),
            provider: String::new(),
        }));
        sink.emit(sub(AgentEvent::ToolCallStarted {
            id: "c2".into(),
            name: "write_file".into(),
            arguments: r#"{"path":"a","content":"b"}"#.into(),
            kind: crate::protocol::ToolKind::Edit,
            summary: "a".into(),
        }));
        sink.emit(sub(AgentEvent::ToolCallFinished {
            id: "c2".into(),
            name: "write_file".into(),
            status: ToolStatus::Denied,
            detail: "read-only agent".into(),
            duration_ms: 1,
            output_chars: 0,
            diff: None,
        }));
        let lines = buffer.lines();
        assert_eq!(lines.len(), 3, "{lines:?}");
        for line in &lines {
            assert_eq!(line["parent_tool_use_id"], "call_task", "{line}");
        }
        assert_eq!(lines[0]["message"]["model"], "cheap");
        assert_eq!(lines[0]["message"]["content"][0]["text"], "found");
        assert_eq!(sink.seen().denials[0]["tool_use_id"], "c2");
    }

    #[test]
    fn a_reply_with_a_call_reads_as_claude_messages() {
        let buffer = Buffer::default();
        let headless = headless(&buffer);
        let sink = MessageSink::new(&headless);
        sink.emit(AgentEvent::RequestStarted { iteration: 1 });
        sink.emit(AgentEvent::ReasoningDelta {
            text: "look".into(),
        });
        sink.emit(AgentEvent::TextDelta {
            text: "I will edit.".into(),
        });
        sink.emit(AgentEvent::Usage {
            response: Usage::tokens(100, 10, 40, 0),
            session: Usage::default(),
            model: "m".into(),
            provider: String::new(),
        });
        sink.emit(AgentEvent::ToolCallStarted {
            id: "c1".into(),
            name: "edit_file".into(),
            arguments: r#"{"path":"a.rs","old_text":"a","new_text":"b"}"#.into(),
            kind: crate::protocol::ToolKind::Edit,
            summary: "a.rs".into(),
        });
        sink.emit(AgentEvent::ToolCallFinished {
            id: "c1".into(),
            name: "edit_file".into(),
            status: ToolStatus::Denied,
            detail: "USER_REJECTED: no".into(),
            duration_ms: 1,
            output_chars: 0,
            diff: None,
        });
        let lines = buffer.lines();
        let kinds: Vec<&str> = lines
            .iter()
            .map(|l| l["type"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(kinds, ["assistant", "assistant", "user"]);
        let first = &lines[0]["message"];
        assert_eq!(first["model"], "m");
        assert_eq!(
            first["content"],
            json!([{"type": "thinking", "thinking": "look", "signature": ""},
                   {"type": "text", "text": "I will edit."}])
        );
        // Input tokens exclude the cached ones, which are reported apart.
        assert_eq!(first["usage"]["input_tokens"], 60);
        assert_eq!(first["usage"]["cache_read_input_tokens"], 40);
        let call = &lines[1]["message"]["content"][0];
        assert_eq!(call["name"], "Edit");
        assert_eq!(
            call["input"],
            json!({"file_path": "a.rs", "old_string": "a", "new_string": "b"})
        );
        assert_eq!(lines[1]["message"]["id"], first["id"]);
        assert_eq!(
            lines[2]["message"]["content"][0],
            json!({"type": "tool_result", "tool_use_id": "c1", "content": "USER_REJECTED: no", "is_error": true})
        );
        assert_eq!(
            sink.seen().denials,
            [json!({"tool_name": "Edit", "tool_use_id": "c1",
                    "tool_input": {"file_path": "a.rs", "old_string": "a", "new_string": "b"}})]
        );
    }

    #[test]
    fn partials_come_only_when_asked_and_quiet_writes_nothing() {
        let buffer = Buffer::default();
        let mut partial = headless(&buffer);
        partial.partials = true;
        let sink = MessageSink::new(&partial);
        sink.emit(AgentEvent::RequestStarted { iteration: 1 });
        sink.emit(AgentEvent::TextDelta { text: "hi".into() });
        sink.emit(AgentEvent::TurnFinished { text: "hi".into() });
        let events: Vec<String> = buffer
            .lines()
            .iter()
            .filter(|l| l["type"] == "stream_event")
            .map(|l| l["event"]["type"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            events,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );

        let quiet_buffer = Buffer::default();
        let mut quiet = headless(&quiet_buffer);
        quiet.quiet = true;
        let sink = MessageSink::new(&quiet);
        sink.emit(AgentEvent::RequestStarted { iteration: 1 });
        sink.emit(AgentEvent::TextDelta { text: "hi".into() });
        sink.emit(AgentEvent::TurnFinished { text: "hi".into() });
        assert!(quiet_buffer.lines().is_empty());
    }
}
