//! A scripted OpenAI-compatible server on 127.0.0.1:0 for integration tests and benchmarks.
//!
//! Self-contained on purpose (only crate dependencies, no paths to other test files) so a benchmark can include
//! it with `#[path = "../tests/support/scripted_server.rs"] mod scripted_server;`.
//!
//! The server runs on its own thread with its own tokio runtime, so it works from plain `#[test]` functions as
//! well as from `#[tokio::test]`. `POST …/chat/completions` is answered from a FIFO script of [`Reply`]s,
//! `GET …/models` from a configurable list, other paths from routes set per test (`/props`, `/api/show`); every
//! request is recorded.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
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
use tokio::sync::{mpsc, oneshot};

// Explicit paths keep the submodules resolvable when a benchmark includes this file with `#[path]`.
#[path = "scripted_server/progress.rs"]
mod progress;
#[path = "scripted_server/reply.rs"]
mod reply;

use self::progress::Counter;
use self::reply::Ending;
// An includer (a benchmark) may use only some of these.
#[allow(unused_imports)]
pub use self::{
    progress::{RecordedRequest, ReplyHandle},
    reply::{Reply, ScriptedCall},
};

type ReplyBody = BoxBody<Bytes, std::io::Error>;

/// Computes a chat reply from the request (see [`ScriptedServer::with_responder`]).
pub type Responder = dyn Fn(&RecordedRequest) -> Reply + Send + Sync;

struct State {
    script: Mutex<VecDeque<(Reply, Arc<Counter>)>>,
    /// Chat replies by task: a request whose first user message contains the marker takes the marker's next
    /// reply (checked before the script, in the order the routes were added).
    task_routes: Mutex<Vec<(String, VecDeque<Reply>)>>,
    /// Answers chat requests once the script is empty.
    responder: Mutex<Option<Arc<Responder>>>,
    handles: Mutex<Vec<ReplyHandle>>,
    models: Mutex<Reply>,
    /// Extra endpoints by exact path (`/props`, `/api/show`, …), answered before the built-in ones.
    routes: Mutex<Vec<(String, Reply)>>,
    requests: Mutex<Vec<RecordedRequest>>,
    request_count: Counter,
    /// Chat-completions requests only (discovery of `/v1/models`, `/props`… is not counted).
    chat_count: Counter,
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
            task_routes: Mutex::new(Vec::new()),
            responder: Mutex::new(None),
            handles: Mutex::new(Vec::new()),
            models: Mutex::new(models_reply(["scripted-model"])),
            routes: Mutex::new(Vec::new()),
            requests: Mutex::new(Vec::new()),
            request_count: Counter::new(),
            chat_count: Counter::new(),
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

    /// Starts a server that answers every chat request with `respond(request)` (after any scripted replies):
    /// for long scenarios whose replies depend on what was asked.
    pub fn with_responder(
        respond: impl Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let server = Self::start();
        *lock(&server.state.responder) = Some(Arc::new(respond));
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

    /// Answers any request to exactly `path` (e.g. llama.cpp's `/props`, Ollama's `/api/show`) with `reply`,
    /// replacing an earlier route for the same path; checked before chat and models.
    pub fn set_route(&self, path: impl Into<String>, reply: Reply) {
        let path = path.into();
        let mut routes = lock(&self.state.routes);
        routes.retain(|(p, _)| *p != path);
        routes.push((path, reply));
    }

    /// Answers chat requests whose first user message contains `marker` with `replies`, in order (for
    /// sub-agents running in parallel, each with its own script). Earlier routes are checked first.
    pub fn route_task<I>(&self, marker: impl Into<String>, replies: I)
    where
        I: IntoIterator<Item = Reply>,
    {
        lock(&self.state.task_routes).push((marker.into(), replies.into_iter().collect()));
    }

    /// Replies still queued under `marker`'s task route.
    pub fn remaining_task_replies(&self, marker: &str) -> usize {
        lock(&self.state.task_routes)
            .iter()
            .filter(|(m, _)| m == marker)
            .map(|(_, replies)| replies.len())
            .sum()
    }

    /// Answers `GET …/models` with OpenAI-shaped entries as given (e.g. vLLM's `max_model_len`).
    pub fn set_model_entries(&self, entries: Vec<Value>) {
        *lock(&self.state.models) = Reply::json(json!({"object": "list", "data": entries}));
    }

    /// The requests to exactly `path`, in arrival order.
    pub fn requests_to(&self, path: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
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

    /// Waits for the `index`-th chat-completions request (0-based; other endpoints are skipped) and returns it
    /// (panics after 10 s).
    pub fn wait_chat_request_blocking(&self, index: usize) -> RecordedRequest {
        self.state
            .chat_count
            .wait_at_least_blocking(index + 1, "chat request");
        self.chat_requests()
            .get(index)
            .cloned()
            .unwrap_or_else(|| panic!("scripted server: no chat request #{index}"))
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
            // Small SSE frames must not wait for Nagle + delayed ACK (a 40 ms stall per reply).
            let _ = stream.set_nodelay(true);
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
    let received_at = Instant::now();
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
        received_at,
    };
    let route = lock(&state.routes)
        .iter()
        .find(|(p, _)| *p == recorded.path)
        .map(|(_, reply)| reply.clone());
    let is_chat = recorded.is_chat();
    let is_models = recorded.method == "GET" && recorded.path.ends_with("/models");
    let routed = if is_chat {
        let first_user = first_user_text(&recorded.body);
        lock(&state.task_routes)
            .iter_mut()
            .find(|(marker, replies)| !replies.is_empty() && first_user.contains(marker.as_str()))
            .and_then(|(_, replies)| replies.pop_front())
    } else {
        None
    };
    let responder = lock(&state.responder).clone();
    let computed = match &responder {
        Some(respond) if is_chat && lock(&state.script).is_empty() => Some(respond(&recorded)),
        _ => None,
    };
    {
        let mut requests = lock(&state.requests);
        requests.push(recorded);
        state.request_count.set(requests.len());
        state
            .chat_count
            .set(requests.iter().filter(|r| r.is_chat()).count());
    }
    let response = if let Some(reply) = route.or(routed).or(computed) {
        if let Some(n) = reply.after_chats {
            state.chat_count.wait_at_least(n, "chat request").await;
        }
        serve(reply, Arc::new(Counter::new()))
    } else if is_chat {
        let next = lock(&state.script).pop_front();
        match next {
            Some((reply, counter)) => {
                if let Some(n) = reply.after_chats {
                    state.chat_count.wait_at_least(n, "chat request").await;
                }
                serve(reply, counter)
            }
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

/// The text of the request's first user message (string content or the text parts).
fn first_user_text(body: &Value) -> String {
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return String::new();
    };
    let Some(first) = messages
        .iter()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
    else {
        return String::new();
    };
    match first.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
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
