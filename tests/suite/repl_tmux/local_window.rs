//! The served window in the REPL (issue 25): `/context` and `/model` say it came from the server, and a cut-off
//! tool call is not run.

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

#[test]
fn context_and_model_show_the_window_the_server_reported() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    server.set_route(
        "/props",
        Reply::json(json!({"default_generation_settings": {"n_ctx": 8192}})),
    );
    let t = sandbox.start(&server);
    t.submit("/context");
    let screen = t.wait_for("summary at");
    assert!(
        screen.contains("8192 (reported by the server: llama.cpp /props n_ctx)"),
        "{screen}"
    );
    // 8192 − 2048 output reserve − 1024 buffer; clearing at 0.6 of that.
    assert!(
        screen.contains("old tool results cleared at 3072 tokens, summary at 5120"),
        "{screen}"
    );
    t.submit("/model");
    let screen = t.wait_for("window 8192");
    assert!(
        screen.contains("custom/scripted-model · window 8192 (reported by the server"),
        "{screen}"
    );
}

#[test]
fn a_cut_off_tool_call_is_not_run_and_the_repl_says_so() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({"command": "touch marker"}),
        )])
        .finish_reason("length"),
        Reply::text("Shorter now."),
    ]);
    let t = sandbox.start(&server);
    t.submit("go");
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("none ran"), "{screen}");
    assert!(screen.contains("Shorter now."), "{screen}");
    assert!(!sandbox.project.path().join("marker").exists());
}
