//! The interactive REPL end to end: the real binary in a tmux terminal against the scripted server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

pub(crate) mod terminal;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{Reply, ScriptedServer};
use terminal::Terminal;

struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("notes.txt"), "alpha beta\n").unwrap();
        Sandbox {
            project,
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn start(&self, server: &ScriptedServer) -> Terminal {
        self.start_with(server, &[])
    }

    fn start_with(&self, server: &ScriptedServer, env: &[(&str, &str)]) -> Terminal {
        let t = Terminal::start(server, self.project.path(), self.home.path(), env);
        t.wait_prompt(1, terminal::DEADLINE);
        t
    }

    fn paicli_home(&self) -> std::path::PathBuf {
        self.home.path().join(".paicli")
    }
}

fn pgrep(marker: &str) -> bool {
    Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn tool_messages(server: &ScriptedServer, request: usize) -> Vec<String> {
    let body = &server.chat_requests()[request].body;
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_task_streams_its_answer_and_prints_the_status_line() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::reasoning_then_text(
        "Let me think about it.",
        "# Result\n\nThe answer is **42**.\n\n| key | 值 |\n|---|---|\n| a | 中文 |\n",
    )]);
    let t = sandbox.start(&server);
    let banner = t.screen();
    assert!(
        banner.contains("paicli") && banner.contains("custom/scripted-model"),
        "{banner}"
    );

    t.submit("what is the answer?");
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("Thinking"), "{screen}");
    assert!(screen.contains("Let me think about it."), "{screen}");
    assert!(screen.contains("The answer is 42."), "{screen}");
    assert!(screen.contains("│ a   │ 中文 │"), "{screen}");
    assert!(
        screen.contains("scripted-model · ctx ")
            && screen.contains("turn in 10 out 5 cached 0")
            && screen.contains("full mode (shift+tab)"),
        "{screen}"
    );
    let sent = &server.chat_requests()[0].body;
    let last = sent["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["content"], "what is the answer?");
}

#[test]
fn esc_cancels_a_running_command_within_a_second_and_the_model_learns_it() {
    let sandbox = Sandbox::new();
    // bash execs a lone command, so the marker must be in sleep's own argv: a unique fractional duration.
    let n = fastrand::u32(10_000..99_999);
    let marker = format!("sleep 30.{n}");
    let command = format!("{marker} # paicli-esc-{n}");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "execute_command", json!({ "command": command }))]),
        Reply::text("Stopped as you asked."),
    ]);
    let t = sandbox.start(&server);
    t.submit("run the long command");
    t.wait_for("execute_command");
    let deadline = Instant::now() + terminal::DEADLINE;
    while !pgrep(&marker) {
        assert!(
            Instant::now() < deadline,
            "the sleep never started:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    let pressed = Instant::now();
    t.keys(&["Escape"]);
    let screen = t.wait_prompt(2, Duration::from_secs(5));
    let took = pressed.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "prompt came back after {took:?}"
    );
    assert!(screen.contains("cancelled by user"), "{screen}");
    assert!(!pgrep(&marker), "the sleep process is still running");

    t.submit("never mind");
    t.wait_for("Stopped as you asked.");
    let results = tool_messages(&server, 1);
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].contains("aborted by user"), "{results:?}");
}

#[test]
fn ctrl_c_while_running_cancels_like_esc_and_the_repl_stays() {
    let sandbox = Sandbox::new();
    let n = fastrand::u32(10_000..99_999);
    let marker = format!("sleep 31.{n}");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "execute_command", json!({ "command": marker }))]),
        Reply::text("Back again."),
    ]);
    let t = sandbox.start(&server);
    t.submit("run the long command");
    let deadline = Instant::now() + terminal::DEADLINE;
    while !pgrep(&marker) {
        assert!(
            Instant::now() < deadline,
            "the sleep never started:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pressed = Instant::now();
    t.keys(&["C-c"]);
    let screen = t.wait_prompt(2, Duration::from_secs(5));
    assert!(
        pressed.elapsed() < Duration::from_secs(1),
        "took {:?}",
        pressed.elapsed()
    );
    assert!(screen.contains("cancelled by user"), "{screen}");
    assert!(!pgrep(&marker));
    t.submit("again");
    t.wait_prompt(3, terminal::DEADLINE);
    // The signal handler used during the run must not break Ctrl-C at the prompt.
    t.keys(&["C-c"]);
    t.wait_for("press Ctrl-C again");
    t.keys(&["C-c"]);
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}

#[test]
fn arrow_keys_and_shift_tab_do_not_cancel_a_running_task() {
    let sandbox = Sandbox::new();
    let marker = format!("paicli-arrows-{:08x}", fastrand::u32(..));
    let command = format!("sleep 1.5; echo finished-{marker}");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "execute_command", json!({ "command": command }))]),
        Reply::text("All done."),
    ]);
    let t = sandbox.start(&server);
    t.submit("run it");
    let deadline = Instant::now() + terminal::DEADLINE;
    while !pgrep(&marker) {
        assert!(Instant::now() < deadline, "the command never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    t.keys(&["Up", "Down", "Left", "Right", "BTab"]);
    let screen = t.wait_for("All done.");
    assert!(!screen.contains("cancelled"), "{screen}");
    let results = tool_messages(&server, 1);
    assert!(
        results[0].contains(&format!("finished-{marker}")),
        "{results:?}"
    );
}

#[test]
fn ctrl_c_twice_at_the_prompt_exits_and_ctrl_d_exits() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.keys(&["C-c"]);
    t.wait_for("press Ctrl-C again");
    t.keys(&["C-c"]);
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());

    let t = sandbox.start(&server);
    t.keys(&["C-d"]);
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}

mod approval_keys;
mod approval_whole;
mod browser_cmds;
mod channel_cmd;
mod commands;
mod completion;
mod context_cmds;
mod first_hour;
mod index_cmds;
mod input;
mod io_cmds;
mod local_window;
mod memory_cmds;
mod output;
mod plan;
mod safety_cmds;
mod sandbox_keys;
mod screen_escapes;
mod services_cmds;
mod sessions_cmds;
mod shell_mode;
mod skill_cmds;
mod snapshot_cmds;
mod task_cmds;
mod type_ahead;

#[test]
fn ask_mode_prompts_mid_turn_and_the_answers_reach_the_tools_and_the_model() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({"command": "echo approved-run > ran.txt"}),
        )]),
        Reply::tool_calls([(
            "call_2",
            "execute_command",
            json!({"command": "echo rejected-run > no.txt"}),
        )]),
        Reply::text("All done."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("write the files");
    let prompts = |screen: &str| screen.matches("Approve? [y/Enter]").count();
    t.wait_until("the first approval prompt", terminal::DEADLINE, |s| {
        prompts(s) == 1
    });
    t.keys(&["y"]);
    t.wait_until("the second approval prompt", terminal::DEADLINE, |s| {
        prompts(s) == 2
    });
    // `r` denies with a reason typed in the line editor (`n` alone denies without one).
    t.keys(&["r"]);
    t.wait_for("Reason for the model");
    t.submit("not that one");
    t.wait_for("All done.");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("ran.txt")).unwrap(),
        "approved-run\n"
    );
    assert!(!sandbox.project.path().join("no.txt").exists());
    let rejected = tool_messages(&server, 2);
    assert!(
        rejected.iter().any(|m| m.contains("not that one")),
        "the reason goes back to the model: {rejected:?}"
    );
}
