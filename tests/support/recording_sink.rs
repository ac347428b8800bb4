//! A `DeltaSink` that records what streamed, and a provider pointed at a scripted server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;

use paicli::llm::providers::{self, ResolvedProvider};
use paicli::llm::{DeltaSink, StreamDelta};

use super::scripted_server::ScriptedServer;

/// Records every delta in arrival order.
#[derive(Debug, Default)]
pub struct RecordingSink {
    deltas: Mutex<Vec<StreamDelta>>,
}

impl RecordingSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every delta received so far.
    pub fn deltas(&self) -> Vec<StreamDelta> {
        self.deltas.lock().unwrap().clone()
    }

    /// The concatenated content deltas.
    pub fn content(&self) -> String {
        self.joined(|d| match d {
            StreamDelta::Content(t) => Some(t),
            StreamDelta::Reasoning(_) => None,
        })
    }

    /// The concatenated reasoning deltas.
    pub fn reasoning(&self) -> String {
        self.joined(|d| match d {
            StreamDelta::Reasoning(t) => Some(t),
            StreamDelta::Content(_) => None,
        })
    }

    fn joined(&self, pick: impl Fn(&StreamDelta) -> Option<&String>) -> String {
        let deltas = self.deltas.lock().unwrap();
        deltas.iter().filter_map(pick).map(String::as_str).collect()
    }
}

impl DeltaSink for RecordingSink {
    fn on_delta(&self, delta: StreamDelta) {
        self.deltas.lock().unwrap().push(delta);
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
