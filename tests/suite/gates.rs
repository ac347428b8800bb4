//! Call gates: checks between argument validation and execution, and the `after` report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use paicli::guard::path_guard::PathGuard;
use paicli::llm::ToolCall;
use paicli::tools::executor::NullObserver;
use paicli::tools::{
    CallGate, Executor, ExecutorOptions, GateCall, GateVerdict, SpillStore, Tool, ToolContext,
    ToolLimits, ToolOutcome, ToolRegistry,
};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

/// Counts its runs and echoes its arguments.
struct Echo {
    runs: AtomicUsize,
}

#[async_trait]
impl Tool for Echo {
    fn name(&self) -> &str {
        "echo"
    }
    fn description(&self) -> &str {
        "Echoes."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    }
    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        self.runs.fetch_add(1, Ordering::SeqCst);
        ToolOutcome::ok(Value::Object(args.clone()).to_string())
    }
}

/// Answers with a fixed verdict and records what it saw before and after.
struct Scripted {
    verdict: GateVerdict,
    seen: Mutex<Vec<String>>,
}

impl Scripted {
    fn new(verdict: GateVerdict) -> Arc<Self> {
        Arc::new(Scripted {
            verdict,
            seen: Mutex::default(),
        })
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

#[async_trait]
impl CallGate for Scripted {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        let args = Value::Object(call.args.clone());
        self.seen
            .lock()
            .unwrap()
            .push(format!("check {} {args}", call.name));
        self.verdict.clone()
    }

    async fn after(&self, call: GateCall<'_>, outcome: &ToolOutcome, _duration: Duration) {
        let args = Value::Object(call.args.clone());
        let status = if outcome.is_ok() { "ok" } else { "not ok" };
        self.seen
            .lock()
            .unwrap()
            .push(format!("after {} {args} {status}", call.name));
    }
}

/// Never answers (a human who walked away).
struct Hanging;

#[async_trait]
impl CallGate for Hanging {
    async fn check(&self, _call: GateCall<'_>) -> GateVerdict {
        std::future::pending().await
    }
}

/// Allows after a person took `0` to read the question.
struct Slow(Duration);

#[async_trait]
impl CallGate for Slow {
    async fn check(&self, _call: GateCall<'_>) -> GateVerdict {
        tokio::time::sleep(self.0).await;
        GateVerdict::Allow
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    echo: Arc<Echo>,
    executor: Executor,
    ctx: ToolContext,
}

fn fixture(gates: Vec<Arc<dyn CallGate>>) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let echo = Arc::new(Echo {
        runs: AtomicUsize::new(0),
    });
    let tool: Arc<dyn Tool> = echo.clone();
    let executor = Executor::new(
        Arc::new(ToolRegistry::with_tools([tool])),
        ExecutorOptions::default(),
    );
    let mut ctx = ToolContext::new(
        PathGuard::new(&root).unwrap(),
        SpillStore::new(&root, true, 32_000),
        ToolLimits::default(),
    );
    ctx.gates = gates;
    Fixture {
        _dir: dir,
        echo,
        executor,
        ctx,
    }
}

fn echo_call(n: &str) -> ToolCall {
    ToolCall {
        id: "c1".into(),
        name: "echo".into(),
        arguments: format!("{{\"n\": {n}}}"),
    }
}

#[tokio::test]
async fn a_denial_stops_the_call_and_later_gates_are_not_asked() {
    let deny = Scripted::new(GateVerdict::deny("WEB_FORBIDDEN", "the user said no web"));
    let later = Scripted::new(GateVerdict::Allow);
    let f = fixture(vec![deny.clone(), later.clone()]);
    let results = f
        .executor
        .run_batch(&[echo_call("1")], &f.ctx, &NullObserver)
        .await;
    assert_eq!(
        results[0].outcome,
        ToolOutcome::denied("WEB_FORBIDDEN", "the user said no web")
    );
    assert!(
        results[0]
            .content
            .contains("[denied: WEB_FORBIDDEN] the user said no web")
    );
    assert_eq!(f.echo.runs.load(Ordering::SeqCst), 0);
    assert_eq!(
        deny.seen(),
        ["check echo {\"n\":1}", "after echo {\"n\":1} not ok"]
    );
    assert_eq!(
        later.seen(),
        ["after echo {\"n\":1} not ok"],
        "told of the outcome, never asked"
    );
}

#[tokio::test]
async fn gates_see_coerced_arguments_and_may_rewrite_them() {
    let mut edited = Map::new();
    edited.insert("n".into(), json!("7"));
    let rewrite = Scripted::new(GateVerdict::AllowWith(edited));
    let f = fixture(vec![rewrite.clone()]);
    let results = f
        .executor
        .run_batch(&[echo_call("\"3\"")], &f.ctx, &NullObserver)
        .await;
    assert_eq!(
        results[0].outcome,
        ToolOutcome::ok("{\"n\":7}"),
        "edited and re-validated"
    );
    assert_eq!(
        rewrite.seen(),
        ["check echo {\"n\":3}", "after echo {\"n\":7} ok"]
    );
}

#[tokio::test]
async fn rewritten_arguments_that_break_the_schema_fail_without_running() {
    let rewrite = Scripted::new(GateVerdict::AllowWith(Map::new()));
    let f = fixture(vec![rewrite]);
    let results = f
        .executor
        .run_batch(&[echo_call("1")], &f.ctx, &NullObserver)
        .await;
    match &results[0].outcome {
        ToolOutcome::Failed { reason } => assert!(reason.contains("edited arguments"), "{reason}"),
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(f.echo.runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn cancelling_while_a_gate_waits_gives_an_aborted_result() {
    let mut f = fixture(vec![Arc::new(Hanging)]);
    let cancel = CancellationToken::new();
    f.ctx.cancel = cancel.clone();
    let calls = [echo_call("1")];
    let (results, ()) = tokio::join!(f.executor.run_batch(&calls, &f.ctx, &NullObserver), async {
        cancel.cancel()
    });
    assert!(matches!(results[0].outcome, ToolOutcome::Cancelled { .. }));
    assert_eq!(f.echo.runs.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn the_time_a_person_takes_to_approve_does_not_count_against_the_step_timeout() {
    // Longer than the 90 s step limit: the call still runs once allowed.
    let f = fixture(vec![Arc::new(Slow(Duration::from_secs(300)))]);
    let results = f
        .executor
        .run_batch(&[echo_call("1")], &f.ctx, &NullObserver)
        .await;
    assert!(
        matches!(results[0].outcome, ToolOutcome::Ok(_)),
        "{:?}",
        results[0].outcome
    );
    assert_eq!(f.echo.runs.load(Ordering::SeqCst), 1);
}

/// A person who takes `Duration` to answer the approval prompt, then allows.
struct SlowPerson(Duration);

#[async_trait]
impl CallGate for SlowPerson {
    async fn check(&self, _call: GateCall<'_>) -> GateVerdict {
        tokio::time::sleep(self.0).await;
        GateVerdict::Allow
    }
}

#[tokio::test]
async fn the_time_a_person_takes_to_approve_is_not_the_calls_duration() {
    let answer = Duration::from_millis(600);
    let f = fixture(vec![Arc::new(SlowPerson(answer))]);
    let results = f
        .executor
        .run_batch(&[echo_call("1")], &f.ctx, &NullObserver)
        .await;
    assert!(results[0].outcome.is_ok(), "{:?}", results[0].outcome);
    assert!(
        results[0].duration < answer,
        "the echo took {:?}, the person {answer:?}",
        results[0].duration
    );
}
