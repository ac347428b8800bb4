//! `/task` in the real terminal: queue, list, log and cancel background tasks while the prompt stays free.

use std::time::{Duration, Instant};

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

#[test]
fn tasks_run_in_the_background_and_a_cancelled_ones_log_shows_its_call_ended() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_sleep",
            "execute_command",
            json!({"command": "sleep 30"}),
        )]),
        Reply::text("quick one done"),
    ]);
    let t = terminal::Terminal::start_with_args(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[],
        &["--approval", "full"],
    );
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("/task add wait a while");
    t.wait_for("queued task 1");
    server.wait_chat_request_blocking(0);
    t.submit("/task add quick one");
    t.wait_for("queued task 2");
    server.wait_chat_request_blocking(1);

    // The prompt stays free: list, then cancel the sleeping one and read its log until it ended.
    t.submit("/task cancel 1");
    t.wait_for("cancelling task 1");
    // The queue file says when it ended; then its log shows the call with its result.
    let queue_file = std::fs::read_dir(sandbox.paicli_home().join("tasks"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join("queue.json");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&queue_file)
        .unwrap_or_default()
        .contains("\"cancelled\"")
    {
        assert!(Instant::now() < deadline, "task 1 never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    t.submit("/task log 1");
    let screen = t.wait_for("✗ cancelled");
    assert!(
        screen.contains("→ execute_command") && screen.contains("← execute_command cancelled"),
        "{screen}"
    );
    t.submit("/task list");
    let screen = t.wait_until("task 2 finished", terminal::DEADLINE, |s| {
        s.lines()
            .any(|l| l.contains("quick one") && l.contains("finished"))
    });
    assert!(
        screen
            .lines()
            .any(|l| l.contains("wait a while") && l.contains("cancelled")),
        "{screen}"
    );
}

#[test]
fn one_paicli_runs_the_queue_and_another_takes_over_when_it_is_killed() {
    let sandbox = Sandbox::new();
    // Each paicli talks to its own model server, so the requests say which process ran a task.
    let server_a = ScriptedServer::with_replies([Reply::tool_calls([(
        "call_sleep",
        "execute_command",
        json!({"command": "sleep 30"}),
    )])]);
    let server_b = ScriptedServer::with_replies([Reply::text("first done")]);
    let start = |server: &ScriptedServer| {
        let t = terminal::Terminal::start_with_args(
            server,
            sandbox.project.path(),
            sandbox.home.path(),
            &[],
            &["--approval", "full"],
        );
        t.wait_prompt(1, terminal::DEADLINE);
        t
    };
    let a = start(&server_a);
    let b = start(&server_b);

    // B only queues: A holds the runner lock and runs the task.
    b.submit("/task add first");
    b.wait_for("another paicli in this project runs the queue");
    server_a.wait_chat_request_blocking(0);
    b.submit("/task list");
    b.wait_until("task 1 running", terminal::DEADLINE, |s| {
        s.lines()
            .any(|l| l.contains("first") && l.contains("running"))
    });
    assert_eq!(
        server_b.chat_requests().len(),
        0,
        "B ran nothing while A runs the queue"
    );

    // A dies without cleaning up: the OS drops its lock, B takes over and runs the orphaned task again.
    let killed = std::process::Command::new("kill")
        .args(["-9", &a.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    server_b.wait_chat_request_blocking(0);
    // The request is out; the list is only worth reading once the queue records the answer.
    let queue = sandbox.home.path().join(".paicli").join("tasks");
    let deadline = std::time::Instant::now() + terminal::DEADLINE;
    while !queue_has_a_finished_task(&queue) {
        assert!(
            std::time::Instant::now() < deadline,
            "task 1 never finished in B"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    b.submit("/task list");
    b.wait_until("task 1 finished in B", terminal::DEADLINE, |s| {
        s.lines()
            .any(|l| l.contains("first") && l.contains("finished"))
    });
    assert_eq!(server_a.chat_requests().len(), 1);
    drop(a);
}

/// Whether a project's `queue.json` under `tasks` holds a task in the `finished` state.
fn queue_has_a_finished_task(tasks: &std::path::Path) -> bool {
    let Ok(projects) = std::fs::read_dir(tasks) else {
        return false;
    };
    projects.flatten().any(|project| {
        std::fs::read_to_string(project.path().join("queue.json"))
            .is_ok_and(|queue| queue.contains("\"finished\""))
    })
}
