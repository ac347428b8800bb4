//! What is typed while a task runs: a queued message shows its text under the working line, a queued command
//! says it waits for the task, `/cancel` runs at once, and stopping the task (ESC, Ctrl-C, `/cancel`) puts the
//! queued text back into the prompt instead of sending it.

use std::time::{Duration, Instant};

use serde_json::json;

use super::terminal::{self, Terminal};
use super::{Sandbox, pgrep};
use crate::support::{Reply, ScriptedServer};

/// A task that runs a command until cancelled; returns the terminal once the command runs.
fn start_long_task(sandbox: &Sandbox, env: &[(&str, &str)]) -> (Terminal, ScriptedServer, String) {
    let marker = format!("sleep 30.{}", fastrand::u32(100_000..999_999));
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({ "command": marker }))]),
        Reply::text("Never asked for."),
    ]);
    let t = sandbox.start_with(&server, env);
    t.submit("first");
    t.wait_for("● execute_command");
    let deadline = Instant::now() + terminal::DEADLINE;
    while !pgrep(&marker) {
        assert!(
            Instant::now() < deadline,
            "the command never started:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (t, server, marker)
}

fn last_line(screen: &str) -> String {
    screen
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn slash_cancel_runs_at_once_and_the_queued_message_comes_back_unsent() {
    let sandbox = Sandbox::new();
    let (t, server, marker) = start_long_task(&sandbox, &[]);
    t.keys(&["-l", "next message"]);
    t.keys(&["Enter"]);
    t.wait_for("queued › next message");
    t.keys(&["-l", "/cost"]);
    t.keys(&["Enter"]);
    t.wait_for("queued (+1 more) › next message");

    t.keys(&["-l", "/cancel"]);
    t.keys(&["Enter"]);
    let pressed = Instant::now();
    let screen = t.wait_until("the queued text in the prompt", terminal::DEADLINE, |s| {
        last_line(s) == "› next message /cost"
    });
    assert!(pressed.elapsed() < Duration::from_secs(5), "{screen}");
    assert!(screen.contains("cancelled by user"), "{screen}");
    assert!(!pgrep(&marker), "the command still runs");
    assert!(!screen.contains("no running task"), "{screen}");
    assert_eq!(server.chat_requests().len(), 1, "nothing was sent");
}

#[test]
fn esc_or_ctrl_c_stop_and_put_the_queued_text_back_in_chinese() {
    for key in ["Escape", "C-c"] {
        let sandbox = Sandbox::new();
        let (t, server, marker) = start_long_task(&sandbox, &[("LC_ALL", "zh_CN.UTF-8")]);
        t.keys(&["-l", "/cost"]);
        t.keys(&["Enter"]);
        t.wait_for("排队中 › /cost（任务结束后执行）");
        t.keys(&["-l", "再看看"]);
        t.keys(&["Enter"]);
        t.wait_for("排队中（另有 1 条） › /cost（任务结束后执行）");

        t.keys(&[key]);
        let screen = t.wait_until("the queued text in the prompt", terminal::DEADLINE, |s| {
            last_line(s) == "› /cost 再看看"
        });
        assert!(screen.contains("已被用户取消"), "{key}: {screen}");
        assert!(!pgrep(&marker), "{key}: the command still runs");
        assert_eq!(server.chat_requests().len(), 1, "{key}: nothing was sent");
    }
}
