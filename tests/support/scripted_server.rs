//! A scripted OpenAI-compatible server on 127.0.0.1:0 for integration tests and benchmarks.
//!
//! Self-contained on purpose (only crate dependencies, no paths to other test files) so a benchmark can include
//! it with `#[path = "../tests/support/scripted_server.rs"] mod scripted_server;`.
//!
//! The server runs on its own thread with its own tokio runtime, so it works from plain `#[test]` functions as
//! well as from `#[tokio::test]`. `POST …/chat/completions` is answered from a FIFO script of [`Reply`]s,
//! `GET …/models` from a configurable list; every request is recorded.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

/// How long the `wait_*` helpers wait before failing the test.
const WAIT_LIMIT: Duration = Duration::from_secs(10);

type ReplyBody = BoxBody<Bytes, std::io::Error>;

// ---------------------------------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------------------------------

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
enum Ending {
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
    status: u16,
    headers: Vec<(String, String)>,
    content_type: String,
    body: Body,
    chunk_delay: Duration,
    ending: Ending,
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
        }
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

// ---------------------------------------------------------------------------------------------------------------
// Progress and recording
// ---------------------------------------------------------------------------------------------------------------

/// A counter that can be awaited from async code and from plain threads.
#[derive(Debug)]
struct Counter {
    value: Mutex<usize>,
    changed: Condvar,
    watch: watch::Sender<usize>,
}

impl Counter {
    fn new() -> Self {
        Counter {
            value: Mutex::new(0),
            changed: Condvar::new(),
            watch: watch::channel(0).0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, usize> {
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, n: usize) {
        *self.lock() = n;
        self.changed.notify_all();
        self.watch.send_replace(n);
    }

    fn get(&self) -> usize {
        *self.lock()
    }

    async fn wait_at_least(&self, n: usize, what: &str) {
        let mut rx = self.watch.subscribe();
        let waited = tokio::time::timeout(WAIT_LIMIT, rx.wait_for(|v| *v >= n)).await;
        assert!(
            matches!(waited, Ok(Ok(_))),
            "scripted server: timed out waiting for {what} #{n}"
        );
    }

    fn wait_at_least_blocking(&self, n: usize, what: &str) {
        let deadline = Instant::now() + WAIT_LIMIT;
        let mut value = self.lock();
        while *value < n {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "scripted server: timed out waiting for {what} #{n}"
            );
            value = self
                .changed
                .wait_timeout(value, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Tracks how many frames of one scripted reply have been handed to the connection.
#[derive(Clone, Debug)]
pub struct ReplyHandle {
    sent: Arc<Counter>,
}

impl ReplyHandle {
    /// Frames (SSE events) handed to the connection so far; the client may not have read them yet.
    pub fn sent(&self) -> usize {
        self.sent.get()
    }

    /// Waits until at least `k` frames were sent (panics after 10 s).
    pub async fn wait_sent(&self, k: usize) {
        self.sent.wait_at_least(k, "sent frame").await;
    }

    /// Blocking form of [`ReplyHandle::wait_sent`] for plain `#[test]` functions.
    pub fn wait_sent_blocking(&self, k: usize) {
        self.sent.wait_at_least_blocking(k, "sent frame");
    }
}

/// One request the server received.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    pub method: String,
    /// The URI path, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Header names lowercased, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Value::Null` when it is not JSON).
    pub body: Value,
    pub raw_body: Bytes,
}

impl RecordedRequest {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether this was a chat-completions request.
    pub fn is_chat(&self) -> bool {
        self.method == "POST" && self.path.ends_with("/chat/completions")
    }
}

struct State {
    script: Mutex<VecDeque<(Reply, Arc<Counter>)>>,
    handles: Mutex<Vec<ReplyHandle>>,
    models: Mutex<Reply>,
    requests: Mutex<Vec<RecordedRequest>>,
    request_count: Counter,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn models_reply<I, S>(ids: I) -> Reply
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let data: Vec<Value> = ids
        .into_iter()
        .map(|id| json!({"id": id.into(), "object": "model", "owned_by": "scripted"}))
        .collect();
    Reply::json(json!({"object": "list", "data": data}))
}

// ---------------------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------------------

/// The running server; shuts down when dropped.
pub struct ScriptedServer {
    addr: SocketAddr,
    state: Arc<State>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl ScriptedServer {
    /// Starts a server with an empty script and model list `["scripted-model"]`.
    pub fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("set_nonblocking");
        let addr = listener.local_addr().expect("local_addr");
        let state = Arc::new(State {
            script: Mutex::new(VecDeque::new()),
            handles: Mutex::new(Vec::new()),
            models: Mutex::new(models_reply(["scripted-model"])),
            requests: Mutex::new(Vec::new()),
            request_count: Counter::new(),
        });
        let (shutdown, stop) = oneshot::channel();
        let served = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name("scripted-server".to_string())
            .spawn(move || run(listener, served, stop))
            .expect("spawn scripted server thread");
        ScriptedServer {
            addr,
            state,
            shutdown: Some(shutdown),
            thread: Some(thread),
        }
    }

    /// Starts a server whose script holds `replies`, in order.
    pub fn with_replies(replies: impl IntoIterator<Item = Reply>) -> Self {
        let server = Self::start();
        for reply in replies {
            server.push(reply);
        }
        server
    }

    /// `http://127.0.0.1:PORT/v1`: the base URL to configure a provider with.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Appends `reply` to the script; the handle reports how much of it was sent.
    pub fn push(&self, reply: Reply) -> ReplyHandle {
        let counter = Arc::new(Counter::new());
        let handle = ReplyHandle {
            sent: Arc::clone(&counter),
        };
        lock(&self.state.script).push_back((reply, counter));
        lock(&self.state.handles).push(handle.clone());
        handle
    }

    /// The handle of the `index`-th reply ever pushed (0-based).
    pub fn reply(&self, index: usize) -> ReplyHandle {
        lock(&self.state.handles)
            .get(index)
            .cloned()
            .unwrap_or_else(|| panic!("scripted server: no reply #{index} was pushed"))
    }

    /// Replies not yet served.
    pub fn remaining_replies(&self) -> usize {
        lock(&self.state.script).len()
    }

    /// Answers `GET …/models` with `{"object":"list","data":[{"id":…}]}` for these ids.
    pub fn set_models<I, S>(&self, ids: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        *lock(&self.state.models) = models_reply(ids);
    }

    /// Answers `GET …/models` with an arbitrary reply (other list shapes, errors).
    pub fn set_models_reply(&self, reply: Reply) {
        *lock(&self.state.models) = reply;
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.state.requests).clone()
    }

    /// The chat-completions requests received so far.
    pub fn chat_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.is_chat())
            .collect()
    }

    /// Number of requests received so far.
    pub fn request_count(&self) -> usize {
        self.state.request_count.get()
    }

    /// Waits for the `index`-th request (0-based, any endpoint) and returns it (panics after 10 s).
    pub async fn wait_request(&self, index: usize) -> RecordedRequest {
        self.state
            .request_count
            .wait_at_least(index + 1, "request")
            .await;
        self.request_at(index)
    }

    /// Blocking form of [`ScriptedServer::wait_request`] for plain `#[test]` functions.
    pub fn wait_request_blocking(&self, index: usize) -> RecordedRequest {
        self.state
            .request_count
            .wait_at_least_blocking(index + 1, "request");
        self.request_at(index)
    }

    fn request_at(&self, index: usize) -> RecordedRequest {
        lock(&self.state.requests)
            .get(index)
            .cloned()
            .unwrap_or_else(|| panic!("scripted server: no request #{index}"))
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(listener: std::net::TcpListener, state: Arc<State>, stop: oneshot::Receiver<()>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("scripted server runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
        tokio::pin!(stop);
        loop {
            let accepted = tokio::select! {
                _ = &mut stop => break,
                accepted = listener.accept() => accepted,
            };
            let Ok((stream, _)) = accepted else { continue };
            let state = Arc::clone(&state);
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(Arc::clone(&state), req));
                let _ = hyper::server::conn::http1::Builder::new()
                    .keep_alive(true)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    // Dropping the runtime drops every connection task, including hanging replies.
    runtime.shutdown_background();
}

async fn handle(
    state: Arc<State>,
    req: Request<Incoming>,
) -> Result<Response<ReplyBody>, Infallible> {
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let headers = req
        .headers()
        .iter()
        .map(|(n, v)| {
            let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
            (n.as_str().to_ascii_lowercase(), value)
        })
        .collect();
    let raw_body = match req.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let body = serde_json::from_slice(&raw_body).unwrap_or(Value::Null);
    let recorded = RecordedRequest {
        method,
        path,
        headers,
        body,
        raw_body,
    };
    let is_chat = recorded.is_chat();
    let is_models = recorded.method == "GET" && recorded.path.ends_with("/models");
    {
        let mut requests = lock(&state.requests);
        requests.push(recorded);
        state.request_count.set(requests.len());
    }
    let response = if is_chat {
        let next = lock(&state.script).pop_front();
        match next {
            Some((reply, counter)) => serve(reply, counter),
            None => serve(
                Reply::status(500, r#"{"error":{"message":"script exhausted"}}"#),
                Arc::new(Counter::new()),
            ),
        }
    } else if is_models {
        let reply = lock(&state.models).clone();
        serve(reply, Arc::new(Counter::new()))
    } else {
        serve(
            Reply::status(404, r#"{"error":{"message":"no such endpoint"}}"#),
            Arc::new(Counter::new()),
        )
    };
    Ok(response)
}

fn serve(reply: Reply, sent: Arc<Counter>) -> Response<ReplyBody> {
    let frames = reply.rendered_frames();
    let mut builder = Response::builder()
        .status(reply.status)
        .header("content-type", reply.content_type.as_str());
    for (name, value) in &reply.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let body =
        if reply.ending == Ending::Complete && reply.chunk_delay.is_zero() && frames.len() == 1 {
            sent.set(1);
            Full::new(frames[0].clone())
                .map_err(|never| match never {})
                .boxed()
        } else {
            stream_frames(frames, reply.chunk_delay, reply.ending, sent)
        };
    builder.body(body).unwrap_or_else(|_| {
        Response::new(
            Full::new(Bytes::from_static(b"bad scripted reply"))
                .map_err(|never| match never {})
                .boxed(),
        )
    })
}

type FrameResult = Result<Frame<Bytes>, std::io::Error>;

fn stream_frames(
    frames: Vec<Bytes>,
    delay: Duration,
    ending: Ending,
    sent: Arc<Counter>,
) -> ReplyBody {
    let (tx, rx) = mpsc::channel::<FrameResult>(1);
    let limit = match ending {
        Ending::Complete => frames.len(),
        Ending::CutAfter(n) | Ending::EndAfter(n) | Ending::HangAfter(n) => n.min(frames.len()),
    };
    tokio::spawn(async move {
        for (i, frame) in frames.into_iter().take(limit).enumerate() {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            if tx.send(Ok(Frame::data(frame))).await.is_err() {
                return;
            }
            sent.set(i + 1);
        }
        match ending {
            Ending::Complete | Ending::EndAfter(_) => {}
            Ending::CutAfter(_) => {
                let cut = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "scripted cut");
                let _ = tx.send(Err(cut)).await;
            }
            // Keep the sender alive until the client goes away (or the server shuts down).
            Ending::HangAfter(_) => tx.closed().await,
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    StreamBody::new(stream).boxed()
}
