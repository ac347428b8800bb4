//! The resume picker (`paicli --resume`), `/sessions`, `/fork` and `/history clear` in the real terminal.

use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use super::Sandbox;
use super::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

/// Records a finished `-p` session with `task` in the sandbox's project; returns its id.
fn record_session(sandbox: &Sandbox, task: &str) -> String {
    let server = ScriptedServer::with_replies([Reply::text(format!("answer to {task}"))]);
    let output = Command::cargo_bin("paicli")
        .unwrap()
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", sandbox.home.path())
        .env("PAICLI_HOME", sandbox.paicli_home())
        .arg("-C")
        .arg(sandbox.project.path())
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["--output-format", "json", "-p", task])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let result: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    result["session_id"].as_str().unwrap().to_string()
}

fn start_picker(sandbox: &Sandbox, server: &ScriptedServer) -> Terminal {
    let t = Terminal::start_with_args(
        server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[],
        &["--resume"],
    );
    t.wait_for("Resume which?");
    t
}

#[test]
fn the_resume_picker_lists_sessions_and_resumes_the_chosen_one() {
    let sandbox = Sandbox::new();
    let older = record_session(&sandbox, "the older task");
    let newer = record_session(&sandbox, "the newer task");

    let server = ScriptedServer::with_replies([Reply::text("continuing the older one")]);
    let t = start_picker(&sandbox, &server);
    let screen = t.screen();
    let first = screen.find(&newer).expect("newer listed");
    let second = screen.find(&older).expect("older listed");
    assert!(first < second, "newest first:\n{screen}");
    assert!(
        screen.contains(" 1. ") && screen.contains("1 turn ") && screen.contains("scripted-model")
    );
    assert!(screen.contains("the older task"), "{screen}");
    t.submit("2");
    t.wait_for(&format!("resumed session {older}: 1 turn(s) so far"));
    let screen = t.wait_prompt(1, terminal::DEADLINE);
    // Where it left off.
    assert!(
        screen.contains("  › the older task\n    answer to the older task"),
        "{screen}"
    );
    t.submit("and now?");
    t.wait_for("continuing the older one");
    t.wait_prompt(2, terminal::DEADLINE);
    let messages = server.chat_requests()[0].body["messages"].clone();
    assert_eq!(messages[1]["content"], "the older task");
    assert_eq!(messages[2]["content"], "answer to the older task");
    assert_eq!(messages[3]["content"], "and now?");

    t.submit("/sessions");
    let screen = t.wait_for("* 2. ");
    assert!(screen.contains(&older), "{screen}");
}

#[test]
fn esc_ctrl_c_and_enter_at_the_picker_start_a_new_session() {
    let sandbox = Sandbox::new();
    record_session(&sandbox, "an old task");
    for key in ["Escape", "C-c", "Enter"] {
        let server = ScriptedServer::with_replies([Reply::text("fresh")]);
        let t = start_picker(&sandbox, &server);
        t.keys(&[key]);
        t.wait_prompt(1, terminal::DEADLINE);
        t.submit("new work");
        t.wait_for("fresh");
        t.wait_prompt(2, terminal::DEADLINE);
        let messages = server.chat_requests()[0].body["messages"].clone();
        assert_eq!(
            messages.as_array().unwrap().len(),
            2,
            "{key}: a new session"
        );
        t.submit("/exit");
        t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    }
}

#[test]
fn fork_export_and_history_clear_work_on_this_projects_sessions() {
    let sandbox = Sandbox::new();
    let first = record_session(&sandbox, "first");
    record_session(&sandbox, "second");
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let t = sandbox.start(&server);
    t.submit("a task here");
    t.wait_for("ok");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/fork");
    t.wait_for("forked: this is now session");
    t.submit(&format!("/export {}", &first[..5]));
    t.wait_for(&format!("session-{first}.md"));
    let exported = std::fs::read_to_string(
        sandbox
            .paicli_home()
            .join(format!("exports/session-{first}.md")),
    )
    .unwrap();
    assert!(exported.contains("## User\n\nfirst\n") && exported.contains("answer to first"));
    t.submit("/history clear");
    t.wait_for("Delete the 3 other recorded session(s) of this project?");
    t.keys(&["n", "Enter"]);
    t.wait_for("nothing deleted");
    t.submit("/history clear");
    t.wait_until("second question", terminal::DEADLINE, |s| {
        s.matches("Delete the 3 other").count() == 2
    });
    t.keys(&["Escape"]);
    t.wait_until("second nothing deleted", terminal::DEADLINE, |s| {
        s.matches("nothing deleted").count() == 2
    });
    t.submit("/history clear");
    t.wait_until("third question", terminal::DEADLINE, |s| {
        s.matches("Delete the 3 other").count() == 3
    });
    t.keys(&["y", "Enter"]);
    t.wait_for("deleted 3 session ledger(s); the running session is kept");
    t.submit("/sessions");
    t.wait_for("* 1. ");
}
