//! Scripted replies: what one chat-completions (or models) response sends, and how it ends.

use std::time::Duration;

use bytes::Bytes;
use serde_json::{Value, json};

/// A tool call scripted into a reply: id, function name, arguments object.
#[derive(Clone, Debug)]
pub struct ScriptedCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// The body of a chat reply, rendered to chunks when served.
#[derive(Clone, Debug)]
struct ChatScript {
    reasoning: String,
    content: String,
    tool_calls: Vec<ScriptedCall>,
    finish_reason: Option<String>,
    usage: Option<(u64, u64)>,
    model: String,
    chunk_chars: usize,
}

#[derive(Clone, Debug)]
enum Body {
    /// A chat completion streamed as OpenAI chunks.
    Chat(ChatScript),
    /// Pre-built frames sent one by one.
    Frames(Vec<Bytes>),
}

/// How the response ends after its frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// All frames, then a clean end of body.
    Complete,
    /// `n` frames, then the connection is aborted (no terminating chunk).
    CutAfter(usize),
    /// `n` frames, then a clean end of body (no `[DONE]` unless it was among them).
    EndAfter(usize),
    /// `n` frames, then nothing while the connection stays open.
    HangAfter(usize),
}

/// One scripted HTTP response.
#[derive(Clone, Debug)]
pub struct Reply {
    pub(super) status: u16,
    pub(super) headers: Vec<(String, String)>,
    pub(super) content_type: String,
    body: Body,
    pub(super) chunk_delay: Duration,
    pub(super) ending: Ending,
    /// Held back until this many chat requests have arrived (see [`Reply::after_chat_requests`]).
    pub(super) after_chats: Option<usize>,
}

impl Reply {
    fn chat() -> Self {
        Reply {
            status: 200,
            headers: Vec::new(),
            content_type: "text/event-stream".to_string(),
            body: Body::Chat(ChatScript {
                reasoning: String::new(),
                content: String::new(),
                tool_calls: Vec::new(),
                finish_reason: None,
                usage: Some((10, 5)),
                model: "scripted-model".to_string(),
                chunk_chars: 4,
            }),
            chunk_delay: Duration::ZERO,
            ending: Ending::Complete,
            after_chats: None,
        }
    }

    fn frames(status: u16, content_type: &str, frames: Vec<Bytes>) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            content_type: content_type.to_string(),
            body: Body::Frames(frames),
            chunk_delay: Duration::ZERO,
            ending: Ending::Complete,
            after_chats: None,
        }
    }

    /// Sends nothing until at least `n` chat requests (this one included) have arrived: proof that requests
    /// were in flight together (the test fails after 10 s otherwise).
    pub fn after_chat_requests(mut self, n: usize) -> Self {
        self.after_chats = Some(n);
        self
    }

    /// A streamed answer: role chunk, content in small chunks, `finish_reason: stop`, usage chunk, `[DONE]`.
    pub fn text(text: impl Into<String>) -> Self {
        Self::chat().content(text)
    }

    /// Streamed `reasoning_content` chunks, then the answer as in [`Reply::text`].
    pub fn reasoning_then_text(reasoning: impl Into<String>, text: impl Into<String>) -> Self {
        Self::chat().reasoning(reasoning).content(text)
    }

    /// Streamed tool calls (id and name first, arguments split into fragments), `finish_reason: tool_calls`.
    pub fn tool_calls<I, A, B>(calls: I) -> Self
    where
        I: IntoIterator<Item = (A, B, Value)>,
        A: Into<String>,
        B: Into<String>,
    {
        let mut reply = Self::chat();
        if let Body::Chat(chat) = &mut reply.body {
            chat.tool_calls = calls
                .into_iter()
                .map(|(id, name, arguments)| ScriptedCall {
                    id: id.into(),
                    name: name.into(),
                    arguments,
                })
                .collect();
        }
        reply
    }

    /// Reasoning chunks followed by tool calls (what thinking models send before calling a tool).
    pub fn reasoning_then_tool_calls<I, A, B>(reasoning: impl Into<String>, calls: I) -> Self
    where
        I: IntoIterator<Item = (A, B, Value)>,
        A: Into<String>,
        B: Into<String>,
    {
        Self::tool_calls(calls).reasoning(reasoning)
    }

    /// SSE events from their `data` payloads (each sent as `data: <payload>\n\n`, one frame per event).
    pub fn sse_events<I, S>(payloads: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let frames = payloads
            .into_iter()
            .map(|p| Bytes::from(format!("data: {}\n\n", p.into())))
            .collect();
        Self::frames(200, "text/event-stream", frames)
    }

    /// Exact bytes as one frame with `content-type: text/event-stream` (fixture replays).
    pub fn raw_bytes(bytes: impl Into<Vec<u8>>) -> Self {
        Self::frames(200, "text/event-stream", vec![Bytes::from(bytes.into())])
    }

    /// Exact bytes split into the given frames, each written separately.
    pub fn raw_chunks<I, B>(chunks: I) -> Self
    where
        I: IntoIterator<Item = B>,
        B: Into<Vec<u8>>,
    {
        let frames = chunks.into_iter().map(|c| Bytes::from(c.into())).collect();
        Self::frames(200, "text/event-stream", frames)
    }

    /// A non-streamed response with `status` and `body` (JSON content type when the body parses as JSON).
    pub fn status(status: u16, body: impl Into<String>) -> Self {
        let body = body.into();
        let content_type = if serde_json::from_str::<Value>(&body).is_ok() {
            "application/json"
        } else {
            "text/plain; charset=utf-8"
        };
        Self::frames(status, content_type, vec![Bytes::from(body)])
    }

    /// A 200 `application/json` response (non-streaming completions, error objects in a 200).
    pub fn json(value: Value) -> Self {
        Self::frames(
            200,
            "application/json",
            vec![Bytes::from(value.to_string())],
        )
    }

    /// Sets the HTTP status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// Adds a response header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Replaces the content type.
    pub fn content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = content_type.into();
        self
    }

    /// Waits this long before each frame.
    pub fn chunk_delay(mut self, delay: Duration) -> Self {
        self.chunk_delay = delay;
        self
    }

    /// Sends `n` frames, then aborts the connection (no `[DONE]`, no finish, no terminating chunk).
    pub fn cut_after(mut self, n: usize) -> Self {
        self.ending = Ending::CutAfter(n);
        self
    }

    /// Sends `n` frames, then ends the body cleanly (no `[DONE]` unless it was among them).
    pub fn end_after(mut self, n: usize) -> Self {
        self.ending = Ending::EndAfter(n);
        self
    }

    /// Sends `n` frames, then nothing, keeping the connection open (idle-timeout and cancellation tests).
    pub fn hang_after(mut self, n: usize) -> Self {
        self.ending = Ending::HangAfter(n);
        self
    }

    fn chat_mut(&mut self) -> Option<&mut ChatScript> {
        match &mut self.body {
            Body::Chat(chat) => Some(chat),
            Body::Frames(_) => None,
        }
    }

    /// Chat replies: streams this reasoning before the content.
    pub fn reasoning(mut self, reasoning: impl Into<String>) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.reasoning = reasoning.into();
        }
        self
    }

    /// Chat replies: streams this answer text (before any tool calls).
    pub fn content(mut self, content: impl Into<String>) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.content = content.into();
        }
        self
    }

    /// Chat replies: the finish reason (default `stop`, or `tool_calls` when there are calls).
    pub fn finish_reason(mut self, reason: impl Into<String>) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.finish_reason = Some(reason.into());
        }
        self
    }

    /// Chat replies: the usage chunk's prompt and completion tokens (default 10 / 5).
    pub fn usage(mut self, prompt_tokens: u64, completion_tokens: u64) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.usage = Some((prompt_tokens, completion_tokens));
        }
        self
    }

    /// Chat replies: no usage chunk.
    pub fn no_usage(mut self) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.usage = None;
        }
        self
    }

    /// Chat replies: the `model` field of every chunk (default `scripted-model`).
    pub fn model(mut self, model: impl Into<String>) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.model = model.into();
        }
        self
    }

    /// Chat replies: characters per content/reasoning chunk (default 4).
    pub fn chunk_chars(mut self, n: usize) -> Self {
        if let Some(chat) = self.chat_mut() {
            chat.chunk_chars = n.max(1);
        }
        self
    }

    /// The frames this reply writes, in order (before any cut/hang).
    pub fn rendered_frames(&self) -> Vec<Bytes> {
        match &self.body {
            Body::Chat(chat) => render_chat(chat),
            Body::Frames(frames) => frames.clone(),
        }
    }
}

fn split_chars(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n.max(1)).map(|c| c.iter().collect()).collect()
}

fn render_chat(chat: &ChatScript) -> Vec<Bytes> {
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": chat.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })
    };
    let mut events = vec![chunk(json!({"role": "assistant"}), Value::Null)];
    for piece in split_chars(&chat.reasoning, chat.chunk_chars) {
        events.push(chunk(json!({"reasoning_content": piece}), Value::Null));
    }
    for piece in split_chars(&chat.content, chat.chunk_chars) {
        events.push(chunk(json!({"content": piece}), Value::Null));
    }
    for (index, call) in chat.tool_calls.iter().enumerate() {
        let head = json!({"tool_calls": [{
            "index": index, "id": call.id, "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }]});
        events.push(chunk(head, Value::Null));
        let args = call.arguments.to_string();
        let fragment_len = args.chars().count().div_ceil(3).max(1);
        for fragment in split_chars(&args, fragment_len) {
            let delta =
                json!({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]});
            events.push(chunk(delta, Value::Null));
        }
    }
    let finish = chat.finish_reason.clone().unwrap_or_else(|| {
        if chat.tool_calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        }
        .to_string()
    });
    events.push(chunk(json!({}), Value::String(finish)));
    if let Some((prompt, completion)) = chat.usage {
        events.push(json!({
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": chat.model,
            "choices": [],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }));
    }
    let mut frames: Vec<Bytes> = events
        .into_iter()
        .map(|e| Bytes::from(format!("data: {e}\n\n")))
        .collect();
    frames.push(Bytes::from_static(b"data: [DONE]\n\n"));
    frames
}
