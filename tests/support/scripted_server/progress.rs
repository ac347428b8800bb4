//! Progress that tests can wait for: frames sent per reply, requests received.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::watch;

/// How long the `wait_*` helpers wait before failing the test.
const WAIT_LIMIT: Duration = Duration::from_secs(10);

/// A counter that can be awaited from async code and from plain threads.
#[derive(Debug)]
pub(super) struct Counter {
    value: Mutex<usize>,
    /// When the value last changed (benchmarks time the gap between a reply and the next request).
    updated_at: Mutex<Option<Instant>>,
    changed: Condvar,
    watch: watch::Sender<usize>,
}

impl Counter {
    pub(super) fn new() -> Self {
        Counter {
            value: Mutex::new(0),
            updated_at: Mutex::new(None),
            changed: Condvar::new(),
            watch: watch::channel(0).0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, usize> {
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn set(&self, n: usize) {
        *self.updated_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        *self.lock() = n;
        self.changed.notify_all();
        self.watch.send_replace(n);
    }

    pub(super) fn get(&self) -> usize {
        *self.lock()
    }

    pub(super) fn updated_at(&self) -> Option<Instant> {
        *self.updated_at.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) async fn wait_at_least(&self, n: usize, what: &str) {
        let mut rx = self.watch.subscribe();
        let waited = tokio::time::timeout(WAIT_LIMIT, rx.wait_for(|v| *v >= n)).await;
        assert!(
            matches!(waited, Ok(Ok(_))),
            "scripted server: timed out waiting for {what} #{n}"
        );
    }

    pub(super) fn wait_at_least_blocking(&self, n: usize, what: &str) {
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
    pub(super) sent: Arc<Counter>,
}

impl ReplyHandle {
    /// Frames (SSE events) handed to the connection so far; the client may not have read them yet.
    pub fn sent(&self) -> usize {
        self.sent.get()
    }

    /// When the latest frame was handed to the connection (`None` before the first).
    pub fn last_sent_at(&self) -> Option<Instant> {
        self.sent.updated_at()
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
    /// When the server began handling the request.
    pub received_at: Instant,
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

    /// Whether this was a model request: chat completions, or the Responses API (for clients that speak it,
    /// answered from the same script).
    pub fn is_chat(&self) -> bool {
        self.method == "POST"
            && (self.path.ends_with("/chat/completions") || self.path.ends_with("/responses"))
    }
}
