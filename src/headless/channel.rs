//! Both directions of the NDJSON stream: messages written one per line to stdout, and the control requests
//! paicli sends the client (`can_use_tool`) waiting for their `control_response`.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// Where the messages go and which requests to the client are open.
pub struct Channel {
    out: Mutex<Box<dyn Write + Send>>,
    /// Requests sent to the client, by id, and where their answer goes.
    pending: Mutex<HashMap<String, oneshot::Sender<Result<Value, String>>>>,
    /// Set once stdin has closed: nothing can answer a new request.
    closed: std::sync::atomic::AtomicBool,
    next_id: AtomicU64,
}

impl Channel {
    /// A channel writing to `out` (stdout, or a buffer in tests).
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Channel {
            out: Mutex::new(out),
            pending: Mutex::default(),
            closed: std::sync::atomic::AtomicBool::new(false),
            next_id: AtomicU64::new(0),
        }
    }

    /// Writes `message` as one line. A closed stdout (the client went away) is not worth failing a turn for.
    pub fn send<T: Serialize>(&self, message: &T) {
        let mut out = lock(&self.out);
        if serde_json::to_writer(&mut *out, message).is_ok() {
            let _ = out.write_all(b"\n");
            let _ = out.flush();
        }
    }

    /// Answers the client's control request `request_id` with `response`.
    pub fn answer(&self, request_id: &str, response: Value) {
        self.send(&json!({
            "type": "control_response",
            "response": {"subtype": "success", "request_id": request_id, "response": response},
        }));
    }

    /// Answers the client's control request `request_id` with an error.
    pub fn refuse(&self, request_id: &str, error: &str) {
        self.send(&json!({
            "type": "control_response",
            "response": {"subtype": "error", "request_id": request_id, "error": error},
        }));
    }

    /// Sends the client a control request and waits for its answer; `Err` when it answered with an error or
    /// can no longer answer (stdin closed).
    pub async fn request(&self, request: Value) -> Result<Value, String> {
        let id = format!(
            "paicli_req_{}",
            self.next_id.fetch_add(1, Ordering::Relaxed) + 1
        );
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = lock(&self.pending);
            if self.closed.load(Ordering::SeqCst) {
                return Err("the client closed its input".to_string());
            }
            pending.insert(id.clone(), tx);
        }
        self.send(&json!({"type": "control_request", "request_id": id, "request": request}));
        rx.await
            .unwrap_or_else(|_| Err("the client closed its input".to_string()))
    }

    /// Hands the client's `control_response` to the request it answers; false when no request has its id.
    pub fn resolve(&self, response: &Value) -> bool {
        let Some(id) = response.get("request_id").and_then(Value::as_str) else {
            return false;
        };
        let Some(waiting) = lock(&self.pending).remove(id) else {
            return false;
        };
        let answer = match response.get("subtype").and_then(Value::as_str) {
            Some("success") => Ok(response.get("response").cloned().unwrap_or(Value::Null)),
            _ => Err(response
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("the client refused the request")
                .to_string()),
        };
        let _ = waiting.send(answer);
        true
    }

    /// The client withdrew its own request `request_id` (`control_cancel_request`) or ours: an open request of
    /// ours with that id ends as refused.
    pub fn cancel(&self, request_id: &str) {
        if let Some(waiting) = lock(&self.pending).remove(request_id) {
            let _ = waiting.send(Err("cancelled by the client".to_string()));
        }
    }

    /// Whether stdin has closed (nothing can answer a request any more).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Stdin closed: every open request ends as refused, and new ones are refused at once.
    pub fn close(&self) {
        let mut pending = lock(&self.pending);
        self.closed.store(true, Ordering::SeqCst);
        pending.clear();
    }
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A random version-4 UUID, as every message's `uuid` carries.
pub fn uuid() -> String {
    let hex = format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..));
    let variant = ["8", "9", "a", "b"][fastrand::usize(..4)];
    format!(
        "{}-{}-4{}-{variant}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

/// A writer tests read the messages back from.
#[cfg(test)]
pub(super) mod capture {
    #![allow(clippy::unwrap_used)]
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use serde_json::Value;

    use super::lock;

    #[derive(Clone, Default)]
    pub struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        pub fn lines(&self) -> Vec<Value> {
            String::from_utf8(lock(&self.0).clone())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::capture::Buffer;
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn a_request_waits_for_its_answer_and_fails_when_input_closes() {
        let buffer = Buffer::default();
        let channel = Arc::new(Channel::new(Box::new(buffer.clone())));
        let asking = Arc::clone(&channel);
        let asked = tokio::spawn(async move { asking.request(json!({"subtype": "x"})).await });
        while buffer.lines().is_empty() {
            tokio::task::yield_now().await;
        }
        let id = buffer.lines()[0]["request_id"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!channel.resolve(&json!({"subtype": "success", "request_id": "other"})));
        assert!(
            channel
                .resolve(&json!({"subtype": "success", "request_id": id, "response": {"ok": 1}}))
        );
        assert_eq!(asked.await.unwrap(), Ok(json!({"ok": 1})));
        channel.close();
        assert!(channel.request(json!({})).await.is_err());
    }

    #[test]
    fn uuids_have_the_version_4_shape() {
        let id = uuid();
        let parts: Vec<&str> = id.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
    }
}
