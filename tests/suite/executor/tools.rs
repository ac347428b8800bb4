//! Small tools for executor tests: probes that record order, gates that count concurrency, hangs and echoes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use paicli::llm::ToolCall;
use paicli::tools::fs::ReadFile;
use paicli::tools::{
    SpillRule, SpillStore, Tool, ToolCallResult, ToolContext, ToolObserver, ToolOutcome, ToolTraits,
};
use serde_json::{Map, Value, json};
use tokio::sync::{Barrier, Semaphore, mpsc};

pub type Log = Arc<Mutex<Vec<String>>>;

/// Records start and finish per call id; calls with `"wait": true` meet at a two-party barrier first.
pub struct Probe {
    pub name: &'static str,
    pub parallel: bool,
    pub log: Log,
    pub barrier: Arc<Barrier>,
}

#[async_trait]
impl Tool for Probe {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "Records when it runs."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "id": {"type": "string"},
            "wait": {"type": "boolean"},
        }, "required": ["id"]})
    }
    fn traits(&self) -> ToolTraits {
        if self.parallel {
            ToolTraits::READ_ONLY
        } else {
            ToolTraits::default()
        }
    }
    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let id = args["id"].as_str().unwrap().to_string();
        self.log.lock().unwrap().push(format!("start:{id}"));
        if args.get("wait") == Some(&Value::Bool(true)) {
            self.barrier.wait().await;
        }
        self.log.lock().unwrap().push(format!("finish:{id}"));
        ToolOutcome::ok(format!("done {id}"))
    }
}

/// Parallel-safe; counts calls in flight and blocks each on a gate the test opens one permit at a time.
pub struct Gate {
    pub in_flight: AtomicUsize,
    pub max_in_flight: AtomicUsize,
    pub started: mpsc::UnboundedSender<()>,
    pub gate: Semaphore,
}

#[async_trait]
impl Tool for Gate {
    fn name(&self) -> &str {
        "gate"
    }
    fn description(&self) -> &str {
        "Waits at a gate."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        self.started.send(()).unwrap();
        self.gate.acquire().await.unwrap().forget();
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        ToolOutcome::ok("through")
    }
}

/// Says it started, then never finishes and ignores cancellation.
pub struct Hang {
    pub parallel: bool,
    pub started: mpsc::UnboundedSender<()>,
}

#[async_trait]
impl Tool for Hang {
    fn name(&self) -> &str {
        "hang"
    }
    fn description(&self) -> &str {
        "Never returns."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn traits(&self) -> ToolTraits {
        if self.parallel {
            ToolTraits::READ_ONLY
        } else {
            ToolTraits::default()
        }
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let _ = self.started.send(());
        std::future::pending().await
    }
}

/// Waits for the cancel token and returns its own partial output.
pub struct Cooperative;

#[async_trait]
impl Tool for Cooperative {
    fn name(&self) -> &str {
        "cooperative"
    }
    fn description(&self) -> &str {
        "Stops on cancel."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    async fn execute(&self, _args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        ctx.cancel.cancelled().await;
        ToolOutcome::Cancelled {
            partial: "half done".into(),
        }
    }
}

/// Returns its (validated, coerced) arguments as JSON, or `size` chars of text.
pub struct Echo {
    pub name: &'static str,
    pub runs: AtomicUsize,
}

#[async_trait]
impl Tool for Echo {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "Echoes."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "path": {"type": "string"},
            "n": {"type": "integer"},
            "offset": {"type": "integer"},
            "limit": {"type": "integer"},
            "flag": {"type": "boolean"},
            "size": {"type": "integer"},
        }, "required": ["path"]})
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }
    fn spill_rule(&self, args: &Map<String, Value>, spill: &SpillStore) -> SpillRule {
        // An echo standing in for read_file treats its output as read_file does.
        if self.name == "read_file" {
            ReadFile.spill_rule(args, spill)
        } else {
            SpillRule::Spill
        }
    }
    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        self.runs.fetch_add(1, Ordering::SeqCst);
        match args.get("size").and_then(Value::as_u64) {
            Some(size) => ToolOutcome::ok("e".repeat(size as usize)),
            None => ToolOutcome::ok(Value::Object(args.clone()).to_string()),
        }
    }
}

pub struct Panicker;

#[async_trait]
impl Tool for Panicker {
    fn name(&self) -> &str {
        "panicker"
    }
    fn description(&self) -> &str {
        "Panics."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        panic!("tool bug")
    }
}

/// Records every observer call.
#[derive(Default)]
pub struct Recorder(pub Mutex<Vec<String>>);

impl ToolObserver for Recorder {
    fn on_start(&self, index: usize, call: &ToolCall) {
        self.0
            .lock()
            .unwrap()
            .push(format!("start {index} {}", call.id));
    }
    fn on_finish(&self, index: usize, call: &ToolCall, result: &ToolCallResult) {
        assert_eq!(result.call_id, call.id);
        self.0
            .lock()
            .unwrap()
            .push(format!("finish {index} {}", call.id));
    }
}
