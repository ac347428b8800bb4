//! Two parallel plan tasks changing one file: the per-path lock shared by all sub-agents runs their changes one
//! after the other, so neither update is lost.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use std::time::Duration;

use async_trait::async_trait;
use serde_json::Map;
use tokio::sync::watch;

use paicli::tools::{ToolContext, ToolOutcome, ToolOutput, ToolTraits, path_arg_target};

use super::*;

/// Appends a line by reading the file, waiting for the other call, then writing it back: without the lock, both
/// calls read the file before either writes and one line is lost. Counts how many of its calls ran at once.
struct SlowAppend {
    running: AtomicUsize,
    most: AtomicUsize,
    started: watch::Sender<usize>,
}

impl Default for SlowAppend {
    fn default() -> Self {
        SlowAppend {
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            started: watch::channel(0).0,
        }
    }
}

#[async_trait]
impl Tool for SlowAppend {
    fn name(&self) -> &str {
        "slow_append"
    }
    fn description(&self) -> &str {
        "append a line"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"path": {"type": "string"}, "line": {"type": "string"}},
               "required": ["path", "line"]})
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits::FILE_EDIT
    }
    fn write_targets(&self, args: &Map<String, Value>, ctx: &ToolContext) -> Vec<PathBuf> {
        path_arg_target(args, ctx)
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        let path = ctx.root.join(args["path"].as_str().unwrap());
        let before = std::fs::read_to_string(&path).unwrap_or_default();
        // The other call starts now unless the lock holds it back; then this one stops waiting after a second.
        self.started.send_modify(|n| *n += 1);
        let mut started = self.started.subscribe();
        let _ = tokio::time::timeout(Duration::from_secs(1), started.wait_for(|n| *n >= 2)).await;
        let line = args["line"].as_str().unwrap();
        std::fs::write(&path, format!("{before}{line}\n")).unwrap();
        self.running.fetch_sub(1, Ordering::SeqCst);
        ToolOutcome::Ok(ToolOutput::text("appended"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_parallel_tasks_editing_one_file_lose_no_update() {
    let setup = Setup::planned(&[("B", &[]), ("C", &[])]);
    setup.project.write("notes.txt", "");
    let server = &setup.server;
    for id in ["B", "C"] {
        let call = Reply::tool_calls([(
            format!("call_{id}"),
            "slow_append",
            json!({"path": "notes.txt", "line": format!("from {id}")}),
        )]);
        // Both calls are handed out only once both tasks asked: they arrive together.
        server.route_task(
            task(id),
            [
                call.after_chat_requests(3),
                Reply::text(format!("{id} done")),
            ],
        );
    }
    let tool = Arc::new(SlowAppend::default());
    let mut agent = setup.agent(vec![tool.clone()]);

    let (report, _) = run_ok(&mut agent, "Append B, and append C", PlanMode::Plan).await;

    assert_eq!(states(&report), all_done(&["B", "C"]));
    let text = std::fs::read_to_string(setup.project.root.join("notes.txt")).unwrap();
    assert!(
        text.contains("from B\n") && text.contains("from C\n"),
        "{text:?}"
    );
    assert_eq!(tool.most.load(Ordering::SeqCst), 1, "the edits overlapped");
}
