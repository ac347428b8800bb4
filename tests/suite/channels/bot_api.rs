//! A Telegram Bot API stand-in, written from the public Bot API documentation (core.telegram.org/bots/api):
//! `POST /bot<token>/<method>` with a JSON body; every answer is `{"ok": true, "result": …}` or
//! `{"ok": false, "error_code": …, "description": …}`. `getUpdates` returns the updates whose id is at least
//! `offset`, holding the request up to `timeout` seconds while there are none. Unlike Telegram it never forgets
//! an update, so a client that lost its offset would see old updates again (what the restart test catches).
//! Tests can script one raw batch (duplicates, out of order) and an error answer for the next call of a method.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::watch;

pub const TOKEN: &str = "123456:TEST-token_abc";
/// A user id above 2^32 (Telegram's have up to 52 significant bits).
pub const OWNER: i64 = 7_012_345_678;
pub const STRANGER: i64 = 4_503_599_627_370_001;

/// One call the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    pub body: Value,
}

#[derive(Default)]
struct Inner {
    /// Every update ever queued, in id order.
    updates: Vec<Value>,
    next_update: i64,
    next_message: i64,
    calls: Vec<Call>,
    /// Returned as is by the next `getUpdates`.
    raw_batches: VecDeque<Vec<Value>>,
    /// (method, HTTP status, body) for the next call of that method.
    failures: VecDeque<(String, u16, Value)>,
}

struct Shared {
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
}

impl Shared {
    fn touch(&self) {
        self.changed.send_modify(|n| *n += 1);
    }
}

/// The running stand-in.
pub struct BotApi {
    addr: SocketAddr,
    shared: Arc<Shared>,
    _server: tokio::task::JoinHandle<()>,
}

impl BotApi {
    /// Serves on 127.0.0.1:0 on the current runtime; update ids start at `first_update`.
    pub async fn start(first_update: i64) -> BotApi {
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner {
                next_update: first_update,
                next_message: 1,
                ..Inner::default()
            }),
            changed: watch::Sender::new(0),
        });
        let app = Router::new()
            .route("/{bot}/{method}", axum::routing::post(handle))
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        BotApi {
            addr,
            shared,
            _server: server,
        }
    }

    /// The base URL, without `/bot`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let out = f(&mut self.shared.inner.lock().unwrap());
        self.shared.touch();
        out
    }

    fn next_update_id(inner: &mut Inner) -> i64 {
        let id = inner.next_update;
        inner.next_update += 1;
        id
    }

    /// A text message from `user` in their private chat; returns its update id.
    pub fn text_from(&self, user: i64, text: &str) -> i64 {
        self.with(|inner| {
            let id = Self::next_update_id(inner);
            let message_id = inner.next_message;
            inner.next_message += 1;
            inner.updates.push(message(id, message_id, user, text));
            id
        })
    }

    /// A press on an inline button with `data` under the bot's message in `user`'s chat.
    pub fn press(&self, user: i64, data: &str) -> i64 {
        self.with(|inner| {
            let id = Self::next_update_id(inner);
            inner.updates.push(json!({
                "update_id": id,
                "callback_query": {
                    "id": format!("cbq-{id}"),
                    "from": {"id": user, "is_bot": false, "first_name": "Owner"},
                    "chat_instance": "ci-1",
                    "data": data,
                    "message": {"message_id": 999, "date": 1, "chat": {"id": user, "type": "private"}}
                }
            }));
            id
        })
    }

    /// The next `getUpdates` answers exactly `batch` (built with [`message`]).
    pub fn raw_batch(&self, batch: Vec<Value>) {
        self.with(|inner| inner.raw_batches.push_back(batch));
    }

    /// The next call of `method` answers `status` with `body`.
    pub fn fail_next(&self, method: &str, status: u16, body: Value) {
        self.with(|inner| {
            inner.failures.push_back((method.to_string(), status, body));
        });
    }

    pub fn calls(&self, method: &str) -> Vec<Call> {
        let inner = self.shared.inner.lock().unwrap();
        inner
            .calls
            .iter()
            .filter(|c| c.method == method)
            .cloned()
            .collect()
    }

    /// The texts the bot sent to `chat`, in order.
    pub fn sent_to(&self, chat: i64) -> Vec<String> {
        self.calls("sendMessage")
            .into_iter()
            .filter(|c| c.body["chat_id"] == json!(chat))
            .map(|c| c.body["text"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Waits (up to 60 s) until `ready` holds for the calls made so far.
    pub async fn wait_until(&self, what: &str, ready: impl Fn(&[Call]) -> bool) {
        let wait = async {
            loop {
                let mut changed = self.shared.changed.subscribe();
                if ready(&self.shared.inner.lock().unwrap().calls) {
                    return;
                }
                changed.changed().await.unwrap();
            }
        };
        if tokio::time::timeout(Duration::from_secs(60), wait)
            .await
            .is_err()
        {
            let calls = self.shared.inner.lock().unwrap().calls.clone();
            panic!("bot api: gave up waiting for {what}; calls: {calls:#?}");
        }
    }

    /// Waits until `n` messages were sent to `chat`; returns them.
    pub async fn wait_sent(&self, chat: i64, n: usize) -> Vec<String> {
        self.wait_until(&format!("{n} messages to {chat}"), |calls| {
            calls
                .iter()
                .filter(|c| c.method == "sendMessage" && c.body["chat_id"] == json!(chat))
                .count()
                >= n
        })
        .await;
        self.sent_to(chat)
    }

    /// Waits for the `n`-th `getUpdates` (1-based) and returns its body.
    pub async fn wait_poll(&self, n: usize) -> Value {
        self.wait_until(&format!("poll #{n}"), |calls| {
            calls.iter().filter(|c| c.method == "getUpdates").count() >= n
        })
        .await;
        self.calls("getUpdates")[n - 1].body.clone()
    }
}

/// A message update as Telegram sends it.
pub fn message(update_id: i64, message_id: i64, user: i64, text: &str) -> Value {
    json!({
        "update_id": update_id,
        "message": {
            "message_id": message_id,
            "date": 1_700_000_000,
            "from": {"id": user, "is_bot": false, "first_name": "Person", "language_code": "en"},
            "chat": {"id": user, "type": "private", "first_name": "Person"},
            "text": text
        }
    })
}

fn answer(status: u16, body: Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap();
    (status, axum::Json(body)).into_response()
}

fn ok(result: Value) -> Response {
    answer(200, json!({"ok": true, "result": result}))
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    Path((bot, method)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if bot != format!("bot{TOKEN}") {
        return answer(
            401,
            json!({"ok": false, "error_code": 401, "description": "Unauthorized"}),
        );
    }
    let failure = {
        let mut inner = shared.inner.lock().unwrap();
        inner.calls.push(Call {
            method: method.clone(),
            body: body.clone(),
        });
        let at = inner.failures.iter().position(|(m, _, _)| *m == method);
        at.and_then(|at| inner.failures.remove(at))
    };
    shared.touch();
    if let Some((_, status, body)) = failure {
        return answer(status, body);
    }
    match method.as_str() {
        "getMe" => ok(
            json!({"id": 123456, "is_bot": true, "first_name": "paicli", "username": "paicli_test_bot"}),
        ),
        "getUpdates" => get_updates(&shared, &body).await,
        "sendMessage" => {
            let mut inner = shared.inner.lock().unwrap();
            let message_id = inner.next_message;
            inner.next_message += 1;
            let text = body["text"].as_str().unwrap_or_default();
            if text.is_empty() || text.encode_utf16().count() > 4096 {
                return answer(
                    400,
                    json!({"ok": false, "error_code": 400, "description": "Bad Request: message is too long"}),
                );
            }
            ok(
                json!({"message_id": message_id, "date": 1, "chat": {"id": body["chat_id"]}, "text": text}),
            )
        }
        "answerCallbackQuery" | "sendChatAction" => ok(json!(true)),
        _ => answer(
            404,
            json!({"ok": false, "error_code": 404, "description": "Not Found: method not found"}),
        ),
    }
}

async fn get_updates(shared: &Shared, body: &Value) -> Response {
    let offset = body["offset"].as_i64().unwrap_or(0);
    let timeout = body["timeout"].as_u64().unwrap_or(0).min(50);
    let found = || {
        let mut inner = shared.inner.lock().unwrap();
        if let Some(batch) = inner.raw_batches.pop_front() {
            return Some(batch);
        }
        let fresh: Vec<Value> = inner
            .updates
            .iter()
            .filter(|u| u["update_id"].as_i64().unwrap() >= offset)
            .take(100)
            .cloned()
            .collect();
        (!fresh.is_empty()).then_some(fresh)
    };
    // Held until something comes or the poll's timeout passes, as Telegram does.
    let held = async {
        loop {
            let mut changed = shared.changed.subscribe();
            if let Some(batch) = found() {
                return batch;
            }
            changed.changed().await.unwrap();
        }
    };
    match tokio::time::timeout(Duration::from_secs(timeout), held).await {
        Ok(batch) => ok(Value::Array(batch)),
        Err(_) => ok(json!([])),
    }
}
