//! `paicli "task"` and `/init` with a project's own instruction files, in the real terminal.

use super::Sandbox;
use super::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

#[test]
fn a_task_argument_starts_the_repl_and_runs_it_first() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::text("notes.txt says alpha beta."),
        Reply::text("Second answer."),
    ]);
    let t = Terminal::start_with_args(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[],
        &["what does notes.txt say?"],
    );
    // The task runs without typing; the prompt that follows is the second one shown.
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("› what does notes.txt say?"), "{screen}");
    assert!(screen.contains("notes.txt says alpha beta."), "{screen}");
    let first = &server.chat_requests()[0].body["messages"][1]["content"];
    assert_eq!(first, "what does notes.txt say?");
    // ESC at the idle prompt sends nothing; the session goes on as usual.
    t.keys(&["Escape"]);
    t.submit("and then?");
    t.wait_for("Second answer.");
    t.wait_prompt(3, terminal::DEADLINE);
    assert_eq!(server.chat_requests().len(), 2);
    t.keys(&["C-c"]);
    t.wait_for("press Ctrl-C again");
    t.keys(&["C-c"]);
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}

#[test]
fn init_names_the_instruction_files_it_found() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.project.path().join("CLAUDE.md"),
        "Run make check.\n",
    )
    .unwrap();
    let server = ScriptedServer::with_replies([Reply::text("Wrote nothing.")]);
    let t = sandbox.start(&server);
    t.submit("/init");
    let screen = t.wait_for("Wrote nothing.");
    assert!(
        screen.contains("project instructions found: CLAUDE.md"),
        "{screen}"
    );
    let body = &server.chat_requests()[0].body;
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("## CLAUDE.md\nRun make check."), "{system}");
    let task = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        task.contains("already has these instruction files"),
        "{task}"
    );
    assert!(task.contains("CLAUDE.md"), "{task}");
}

#[test]
fn ctrl_v_without_a_clipboard_image_says_how_to_attach_one() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("hello back")]);
    // No display: neither wl-paste nor xclip can read a clipboard here.
    let t = sandbox.start_with(&server, &[("DISPLAY", ""), ("WAYLAND_DISPLAY", "")]);
    t.keys(&["C-v"]);
    t.wait_for("no image on the clipboard");
    t.wait_for("attach a file with @image:path");
    // The line still works afterwards, and ESC at the prompt sends nothing.
    t.keys(&["Escape"]);
    t.submit("hello");
    t.wait_for("hello back");
    assert_eq!(server.chat_requests().len(), 1);
}
