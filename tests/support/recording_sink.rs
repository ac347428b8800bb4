//! A `DeltaSink` that records what streamed, and a provider pointed at a scripted server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::watch;

use paicli::llm::providers::{self, ResolvedProvider};
use paicli::llm::{DeltaSink, StreamDelta};

use super::scripted_server::ScriptedServer;

/// Records every delta in arrival order; tests can await the n-th delta.
#[derive(Debug)]
pub struct RecordingSink {
    deltas: Mutex<Vec<StreamDelta>>,
    count: watch::Sender<usize>,
}

impl Default for RecordingSink {
    fn default() -> Self {
        RecordingSink {
            deltas: Mutex::new(Vec::new()),
            count: watch::channel(0).0,
        }
    }
}

impl RecordingSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Waits until at least `n` deltas arrived (panics after 10 s).
    pub async fn wait_for_deltas(&self, n: usize) {
        let mut rx = self.count.subscribe();
        let waited = tokio::time::timeout(Duration::from_secs(10), rx.wait_for(|c| *c >= n)).await;
        assert!(
            matches!(waited, Ok(Ok(_))),
            "timed out waiting for delta #{n}"
        );
    }

    /// Every delta received so far.
    pub fn deltas(&self) -> Vec<StreamDelta> {
        self.deltas.lock().unwrap().clone()
    }

    /// The concatenated content deltas.
    pub fn content(&self) -> String {
        self.joined(|d| match d {
            StreamDelta::Content(t) => Some(t),
            _ => None,
        })
    }

    /// The concatenated reasoning deltas.
    pub fn reasoning(&self) -> String {
        self.joined(|d| match d {
            StreamDelta::Reasoning(t) => Some(t),
            _ => None,
        })
    }

    fn joined(&self, pick: impl Fn(&StreamDelta) -> Option<&String>) -> String {
        let deltas = self.deltas.lock().unwrap();
        deltas.iter().filter_map(pick).map(String::as_str).collect()
    }
}

impl DeltaSink for RecordingSink {
    fn on_delta(&self, delta: StreamDelta) {
        let mut deltas = self.deltas.lock().unwrap();
        deltas.push(delta);
        self.count.send_replace(deltas.len());
    }
}

/// The known provider `id` with `model`, its base URL pointed at `server`, and `key` as API key.
pub fn provider_for(
    server: &ScriptedServer,
    id: &str,
    model: &str,
    key: Option<&str>,
) -> ResolvedProvider {
    let info = providers::lookup(id).unwrap_or_else(|| panic!("unknown provider {id}"));
    ResolvedProvider::new(info, model, Some(&server.url()), key.map(str::to_string))
}
