//! A scripted iLink bot API on 127.0.0.1:0. Each endpoint answers from its own script (raw JSON text, so ids
//! above 2^53 go out exactly as written); `getupdates` holds the request when its script says so, or when the
//! script is empty, until a test releases it. Every request is recorded, and tests wait on what was observed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

use paicli::channels::wechat::Account;

/// One request as the stand-in saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    /// The path without the query (`/ilink/bot/getupdates`).
    pub path: String,
    pub query: HashMap<String, String>,
    pub headers: HashMap<String, String>,
    pub body: Value,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
}

/// What `getupdates` does with one request.
pub enum Poll {
    /// Answer at once with this JSON text.
    Answer(String),
    /// Hold the request until [`IlinkStandIn::release`] gives its answer.
    Hold,
    /// Answer with an HTTP status and body.
    Status(u16, String),
}

#[derive(Default)]
struct Script {
    seen: Vec<Seen>,
    qr_codes: VecDeque<(String, String)>,
    statuses: HashMap<String, VecDeque<Value>>,
    polls: VecDeque<Poll>,
    sends: VecDeque<Value>,
    typing_ticket: Option<String>,
}

struct Shared {
    script: Mutex<Script>,
    observed: Notify,
    released_tx: mpsc::UnboundedSender<String>,
    released_rx: tokio::sync::Mutex<mpsc::UnboundedReceiver<String>>,
}

pub struct IlinkStandIn {
    pub url: String,
    shared: Arc<Shared>,
}

impl IlinkStandIn {
    pub async fn start() -> IlinkStandIn {
        let (released_tx, released_rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            script: Mutex::new(Script {
                typing_ticket: Some("dGlja2V0LTE=".into()),
                ..Script::default()
            }),
            observed: Notify::new(),
            released_tx,
            released_rx: tokio::sync::Mutex::new(released_rx),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&shared));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        IlinkStandIn { url, shared }
    }

    /// `host:port`, as `redirect_host` names a host.
    pub fn host(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }

    fn script(&self) -> std::sync::MutexGuard<'_, Script> {
        self.shared.script.lock().unwrap()
    }

    pub fn add_qr_code(&self, qrcode: &str, link: &str) {
        self.script()
            .qr_codes
            .push_back((qrcode.into(), link.into()));
    }

    /// The answers to `get_qrcode_status` for `qrcode`, in order (then `wait`).
    pub fn add_statuses(&self, qrcode: &str, answers: impl IntoIterator<Item = Value>) {
        self.script()
            .statuses
            .entry(qrcode.into())
            .or_default()
            .extend(answers);
    }

    pub fn add_poll(&self, poll: Poll) {
        self.script().polls.push_back(poll);
    }

    /// Answers the held `getupdates` (or the next one to be held).
    pub fn release(&self, raw: &str) {
        self.shared.released_tx.send(raw.to_string()).unwrap();
    }

    /// The next answers to `sendmessage` (then `{"ret":0}`).
    pub fn add_send_answers(&self, answers: impl IntoIterator<Item = Value>) {
        self.script().sends.extend(answers);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.script().seen.clone()
    }

    /// The recorded requests to `path` (`getupdates`, `sendmessage`, …: the last segment is enough).
    pub fn seen_at(&self, path: &str) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| s.path.ends_with(&format!("/{path}")))
            .collect()
    }

    /// Waits until `count` requests to `path` have been observed.
    pub async fn wait_for(&self, path: &str, count: usize) -> Vec<Seen> {
        let waiting = async {
            loop {
                let notified = self.shared.observed.notified();
                tokio::pin!(notified);
                notified.as_mut().enable();
                let seen = self.seen_at(path);
                if seen.len() >= count {
                    return seen;
                }
                notified.await;
            }
        };
        tokio::time::timeout(Duration::from_secs(20), waiting)
            .await
            .unwrap_or_else(|_| panic!("no {count} requests to {path}: {:#?}", self.seen()))
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let query: HashMap<String, String> = uri
        .query()
        .map(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect()
        })
        .unwrap_or_default();
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_string(),
        query: query.clone(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let path = seen.path.clone();
    shared.script.lock().unwrap().seen.push(seen);
    shared.observed.notify_waiters();

    let held = match answer(&shared, &path, &query) {
        Ok(response) => return response,
        Err(Held) => shared
            .released_rx
            .lock()
            .await
            .recv()
            .await
            .unwrap_or_default(),
    };
    json_text(held)
}

/// `getupdates` was told to hold the request.
struct Held;

fn answer(shared: &Shared, path: &str, query: &HashMap<String, String>) -> Result<Response, Held> {
    let mut script = shared.script.lock().unwrap();
    Ok(match path {
        "/ilink/bot/get_bot_qrcode" => match script.qr_codes.pop_front() {
            Some((qrcode, link)) => {
                json_text(json!({"qrcode": qrcode, "qrcode_img_content": link}).to_string())
            }
            None => json_text(json!({"ret": -1, "errmsg": "no QR code scripted"}).to_string()),
        },
        "/ilink/bot/get_qrcode_status" => {
            let qrcode = query.get("qrcode").cloned().unwrap_or_default();
            let answer = script
                .statuses
                .get_mut(&qrcode)
                .and_then(VecDeque::pop_front)
                .unwrap_or_else(|| json!({"status": "wait"}));
            json_text(answer.to_string())
        }
        "/ilink/bot/getupdates" => match script.polls.pop_front().unwrap_or(Poll::Hold) {
            Poll::Answer(raw) => json_text(raw),
            Poll::Status(code, raw) => (StatusCode::from_u16(code).unwrap(), raw).into_response(),
            Poll::Hold => return Err(Held),
        },
        "/ilink/bot/sendmessage" => json_text(
            script
                .sends
                .pop_front()
                .unwrap_or_else(|| json!({"ret": 0}))
                .to_string(),
        ),
        "/ilink/bot/getconfig" => {
            json_text(json!({"ret": 0, "typing_ticket": script.typing_ticket}).to_string())
        }
        "/ilink/bot/sendtyping" | "/ilink/bot/msg/notifystart" | "/ilink/bot/msg/notifystop" => {
            json_text(json!({"ret": 0, "errmsg": ""}).to_string())
        }
        _ => (StatusCode::NOT_FOUND, "no such endpoint").into_response(),
    })
}

fn json_text(raw: String) -> Response {
    ([("content-type", "application/json")], raw).into_response()
}

/// A `getupdates` answer with `msgs` (raw JSON objects) and the next cursor.
pub fn updates(msgs: &[String], cursor: &str) -> String {
    format!(
        r#"{{"ret":0,"msgs":[{}],"get_updates_buf":"{cursor}","longpolling_timeout_ms":35000}}"#,
        msgs.join(",")
    )
}

/// A text message from `user`, its id written as given (a bare number or a quoted string).
pub fn text_message(id: &str, seq: u64, user: &str, token: &str, text: &str) -> String {
    json!({
        "seq": seq, "message_id": 0, "from_user_id": user, "to_user_id": "bot@im.bot",
        "create_time_ms": 1_760_000_000_000u64 + seq, "message_type": 1, "message_state": 2,
        "context_token": token, "item_list": [{"type": 1, "text_item": {"text": text}}],
    })
    .to_string()
    .replace(r#""message_id":0"#, &format!(r#""message_id":{id}"#))
}

/// The account a finished setup would have saved, for tests that start from a login.
pub fn saved_account(home: &std::path::Path, user: &str) -> Account {
    let account = Account {
        bot_token: "bot-token-secret".into(),
        bot_id: "b0f5860fdecb@im.bot".into(),
        user_id: user.into(),
        base_url: None,
        saved_at: "2026-01-01T00:00:00Z".into(),
    };
    account.save(home).unwrap();
    account
}
