//! Issue 21 in the terminal: a 16k window, a summarizer that refuses, and a task whose results pass the window.
//! The person sees why the summary was skipped and, once, that old history was dropped; the turn finishes.

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

#[test]
fn a_task_past_the_window_trims_once_with_a_notice_and_finishes() {
    let sandbox = Sandbox::new();
    for name in ["a", "b"] {
        let body: String = (0..600)
            .map(|l| format!("{name} line {l}: some long source text\n"))
            .collect();
        std::fs::write(sandbox.project.path().join(format!("{name}.txt")), body).unwrap();
    }
    let server = ScriptedServer::with_responder(|r| {
        let messages = r.body["messages"].as_array().cloned().unwrap_or_default();
        let system = messages[0]["content"].as_str().unwrap_or_default();
        if system.starts_with("You compress") {
            return Reply::status(400, r#"{"error":{"message":"summaries are not allowed"}}"#);
        }
        match messages.iter().filter(|m| m["role"] == "tool").count() {
            0 => Reply::tool_calls([("c1", "read_file", json!({"path": "a.txt"}))]),
            1 => Reply::tool_calls([("c2", "read_file", json!({"path": "b.txt"}))]),
            _ => Reply::text("Both files read."),
        }
    });
    let t = sandbox.start_with(&server, &[("PAICLI_CONTEXT_WINDOW", "16000")]);
    t.submit("read a.txt and b.txt");
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("Both files read."), "{screen}");
    assert!(
        screen.contains("context compaction skipped"),
        "the failed summary is explained: {screen}"
    );
    assert_eq!(
        screen
            .matches("the conversation still did not fit the context window")
            .count(),
        1,
        "{screen}"
    );
    let last = server.chat_requests().last().unwrap().raw_body.len();
    assert!(
        last < 48_000,
        "the last request is inside the window: {last} bytes"
    );
}
