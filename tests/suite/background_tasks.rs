//! Background tasks (`paicli::app::tasks`): at most two at once, never asking, cancellable, kept across restarts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use paicli::app::tasks::{TaskQueue, TaskState};
use paicli::config::{ApprovalMode, Config, Overrides};
use serde_json::{Value, json};

use crate::support::{Reply, ScriptedServer};

struct Project {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Project {
    fn new() -> Self {
        Project {
            root: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn config(&self, server: &ScriptedServer, mode: ApprovalMode) -> Config {
        let env = vec![(
            "PAICLI_HOME".to_string(),
            self.home.path().display().to_string(),
        )];
        let overrides = Overrides {
            base_url: Some(server.url()),
            model: Some("scripted-model".to_string()),
            approval: Some(mode),
            ..Overrides::default()
        };
        Config::load_with_env(self.root.path(), env, &overrides).unwrap()
    }
}

/// Polls `done` until it holds; fails after 30 s with `what`.
async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn events(queue: &TaskQueue, id: u64) -> Vec<Value> {
    queue
        .log(id)
        .unwrap()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn has_event(queue: &TaskQueue, id: u64, kind: &str) -> bool {
    events(queue, id).iter().any(|e| e["type"] == kind)
}

fn state(queue: &TaskQueue, id: u64) -> TaskState {
    queue.get(id).unwrap().state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_run_a_third_waits_cancel_ends_one_with_results_and_the_queue_survives_a_restart() {
    let project = Project::new();
    let sleep = || {
        Reply::tool_calls([(
            "call_sleep",
            "execute_command",
            json!({"command": "sleep 30"}),
        )])
    };
    let server = ScriptedServer::with_replies([sleep(), sleep(), Reply::text("third done")]);
    let config = project.config(&server, ApprovalMode::Full);

    // Queued before anything runs, then paicli "restarts": the queue is read back from disk.
    let queue = TaskQueue::open(&config, 2);
    for text in ["first", "second", "third"] {
        queue.add(text, ApprovalMode::Full).unwrap();
    }
    drop(queue);
    let queue = TaskQueue::open(&config, 2);
    let listed: Vec<(u64, &str, TaskState)> = queue
        .list()
        .iter()
        .map(|t| {
            (
                t.id,
                if t.text == "first" { "first" } else { "other" },
                t.state,
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (1, "first", TaskState::Queued),
            (2, "other", TaskState::Queued),
            (3, "other", TaskState::Queued)
        ]
    );
    assert_eq!(server.request_count(), 0, "nothing runs before start");

    queue.start();
    wait_until("both commands running", || {
        has_event(&queue, 1, "tool_call_started") && has_event(&queue, 2, "tool_call_started")
    })
    .await;
    assert_eq!(state(&queue, 3), TaskState::Queued, "at most two at once");

    queue.cancel(1).unwrap();
    wait_until("task 1 cancelled", || {
        state(&queue, 1) == TaskState::Cancelled
    })
    .await;
    let finished: Vec<Value> = events(&queue, 1)
        .into_iter()
        .filter(|e| e["type"] == "tool_call_finished")
        .collect();
    assert_eq!(finished.len(), 1, "the cancelled call got its result");
    assert_eq!(finished[0]["status"], "cancelled");
    assert!(has_event(&queue, 1, "turn_cancelled"));

    // The freed slot goes to the third task.
    wait_until("task 3 finished", || {
        state(&queue, 3) == TaskState::Finished
    })
    .await;
    assert_eq!(queue.get(3).unwrap().result.as_deref(), Some("third done"));
    assert_eq!(state(&queue, 2), TaskState::Running);

    // Each task is a session that can be resumed.
    let session = queue.get(3).unwrap().session_id.unwrap();
    let store = paicli::session::ledger::SessionStore::new(&config.home);
    assert!(store.find(&session, &config.project_root).is_ok());

    // Leaving paicli stops the running task and queues it again for the next start.
    queue.shutdown().await;
    assert_eq!(state(&queue, 2), TaskState::Queued);
    let reopened = TaskQueue::open(&config, 2);
    assert_eq!(state(&reopened, 2), TaskState::Queued);
    assert_eq!(state(&reopened, 3), TaskState::Finished);
    reopened.cancel(2).unwrap();
    assert_eq!(state(&reopened, 2), TaskState::Cancelled);
    assert!(
        reopened.cancel(2).is_err(),
        "an ended task cannot be cancelled"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_never_asks_a_call_that_needs_a_person_is_denied() {
    let project = Project::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            json!({"path": "out.txt", "content": "x"}),
        )]),
        Reply::text("could not write"),
    ]);
    let queue = TaskQueue::open(&project.config(&server, ApprovalMode::Full), 2);
    queue.start();
    // The session is in ask mode: the write needs a person, and a task has none.
    let id = queue.add("write out.txt", ApprovalMode::Ask).unwrap();
    wait_until("the task finished", || {
        state(&queue, id) == TaskState::Finished
    })
    .await;
    let denied = events(&queue, id)
        .into_iter()
        .find(|e| e["type"] == "tool_call_finished")
        .unwrap();
    assert_eq!(denied["status"], "denied", "{denied}");
    assert!(!project.root.path().join("out.txt").exists());
    let sent = server.chat_requests()[1].body.to_string();
    assert!(
        sent.contains("non-interactive"),
        "the model is told why: {sent}"
    );
    queue.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_queued_in_plan_mode_makes_the_plan_and_runs_none_of_it() {
    let project = Project::new();
    let server = ScriptedServer::start();
    let plan = json!({"tasks": [
        {"id": "A", "title": "Write the file", "description": "", "depends_on": []},
        {"id": "B", "title": "Check it", "description": "", "depends_on": ["A"]},
    ]});
    server.route_task("Make a plan for this goal", [Reply::text(plan.to_string())]);
    let queue = TaskQueue::open(&project.config(&server, ApprovalMode::Auto), 2);
    queue.start();
    // Nobody can approve a plan in a background task: the plan is its result.
    let id = queue
        .add(
            "Write out.txt, then check that it is there",
            ApprovalMode::Plan,
        )
        .unwrap();
    wait_until("the task finished", || {
        state(&queue, id) == TaskState::Finished
    })
    .await;
    let result = queue.get(id).unwrap().result.unwrap();
    assert!(result.starts_with("Plan proposed, not run:"), "{result}");
    assert!(result.contains("2. [B] Check it (after A)"), "{result}");
    assert!(has_event(&queue, id, "plan_proposed"));
    assert!(!has_event(&queue, id, "plan_task_started"));
    assert_eq!(server.chat_requests().len(), 1, "only the planner ran");
    assert!(!project.root.path().join("out.txt").exists());
    queue.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_that_does_not_run_the_tasks_cancels_through_the_one_that_does() {
    let project = Project::new();
    let server = ScriptedServer::with_replies([Reply::tool_calls([(
        "call_sleep",
        "execute_command",
        json!({"command": "sleep 30"}),
    )])]);
    let config = project.config(&server, ApprovalMode::Full);
    // The runner lock is an OS lock per open file, so a second queue in this process stands for a second paicli.
    let runner = TaskQueue::open(&config, 2);
    runner.start();
    let other = TaskQueue::open(&config, 2);
    other.start();
    assert!(runner.runs_here());
    assert!(!other.runs_here());

    let id = other.add("sleep", ApprovalMode::Full).unwrap();
    wait_until("the runner started the command", || {
        has_event(&runner, id, "tool_call_started")
    })
    .await;
    other.cancel(id).unwrap();
    wait_until("task cancelled", || {
        state(&other, id) == TaskState::Cancelled
    })
    .await;
    assert!(has_event(&other, id, "turn_cancelled"));
    assert_eq!(server.chat_requests().len(), 1);

    // Once the runner is gone, the other queue takes over at its next look.
    runner.shutdown().await;
    wait_until("the other queue took over", || other.runs_here()).await;
    other.shutdown().await;
}
