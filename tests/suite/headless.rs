//! Claude Code's headless protocol end to end: the built binary driven by a client of our own written from the
//! protocol description (`tests/fixtures/headless/sdk_client.py`, the way the Agent SDKs drive `claude`), and
//! `claude -p`-style scripts reading `--output-format json|stream-json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod add_dir;
mod caller_agents;
mod fallback;
mod mcp_config;
mod partial_calls;
mod print_json;
mod real_sdk;
mod sdk_callbacks;
mod session_id;
mod settings;
mod structured;

use std::path::PathBuf;
use std::process::Command;

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer};

fn python() -> String {
    std::env::var("PAICLI_TEST_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The SDK's command line: no `-p`, stream-json both ways, questions over stdio, and a flag this version does
/// not know (the SDKs add new ones often).
const SDK_FLAGS: &[&str] = &[
    "--output-format=stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--system-prompt",
    "",
    "--permission-prompt-tool=stdio",
    "--permission-mode=default",
    "--include-partial-messages",
    "--thinking",
    "adaptive",
];

/// Runs the client's `scenario` against `paicli` started as `cmd`; panics with the client's report on failure.
fn drive(cmd: &Command, scenario: &str) {
    let argv: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env: serde_json::Map<String, serde_json::Value> = cmd
        .get_envs()
        .filter_map(|(k, v)| {
            Some((
                k.to_string_lossy().into_owned(),
                json!(v?.to_string_lossy()),
            ))
        })
        .collect();
    let client =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/headless/sdk_client.py");
    let output = Command::new(python())
        .arg(client)
        .arg(scenario)
        .env("PAICLI_CMD", serde_json::to_string(&argv).unwrap())
        .env("PAICLI_ENV", serde_json::to_string(&env).unwrap())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the client's {scenario} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn hello() -> Reply {
    Reply::reasoning_then_text("The user greets me.", "Hello there.")
}

#[test]
fn an_sdk_session_streams_two_turns_asks_about_calls_and_is_interrupted() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        hello(),
        Reply::tool_calls([(
            "call_write",
            "write_file",
            json!({"path": "notes.txt", "content": "draft"}),
        )]),
        Reply::tool_calls([(
            "call_bash",
            "execute_command",
            json!({"command": "make deploy"}),
        )]),
        Reply::text("Wrote notes.txt."),
        // Streams a little, then keeps the connection open until the interrupt.
        Reply::text("Once upon a time there was a long story").hang_after(4),
    ]);
    let mut cmd = sandbox.against(&server);
    cmd.args(SDK_FLAGS);
    drive(&cmd, "session");
    // `updatedInput` replaced what the model asked to write.
    assert_eq!(sandbox.read("notes.txt"), "final");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 5);
    // `appendSystemPrompt` from `initialize` reached the system prompt; `--system-prompt ""` kept paicli's own.
    let system = requests[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.ends_with("\n\nAnswer briefly."), "{system}");
    assert!(system.len() > 200, "{system}");
    // The denial's message is what the model was told.
    let told = requests[3].body["messages"].to_string();
    assert!(told.contains("not in this repository"), "{told}");
}

#[test]
fn a_user_message_before_initialize_is_still_run() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([hello()]);
    let mut cmd = sandbox.against(&server);
    cmd.args(SDK_FLAGS);
    drive(&cmd, "user_before_initialize");
}

#[test]
fn stdin_closed_right_after_the_first_message_still_runs_the_turn() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([hello()]);
    let mut cmd = sandbox.against(&server);
    cmd.args([
        "--output-format",
        "stream-json",
        "--verbose",
        "--input-format",
        "stream-json",
    ]);
    drive(&cmd, "close_after_first");
}

#[test]
fn a_failed_last_turn_exits_1_with_errors_in_the_result() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::status(401, "invalid api key")]);
    let mut cmd = sandbox.against(&server);
    cmd.args(SDK_FLAGS);
    drive(&cmd, "failing");
}

#[test]
fn the_mode_and_the_model_switch_between_turns() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_write",
            "write_file",
            json!({"path": "notes.txt", "content": "text"}),
        )]),
        Reply::text("Done."),
    ]);
    let mut cmd = sandbox.against(&server);
    cmd.args(SDK_FLAGS);
    drive(&cmd, "steering");
    assert_eq!(sandbox.read("notes.txt"), "text");
    for request in server.chat_requests() {
        assert_eq!(request.body["model"], "other-model");
    }
}

#[test]
fn an_sdk_pre_tool_use_callback_rewrites_and_denies_calls() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "execute_command", json!({"command": "echo one"}))]),
        Reply::tool_calls([(
            "call_2",
            "execute_command",
            json!({"command": "make deploy"}),
        )]),
        Reply::text("Done."),
    ]);
    let mut cmd = sandbox.against(&server);
    cmd.args(
        SDK_FLAGS
            .iter()
            .filter(|f| !f.starts_with("--permission-mode")),
    );
    cmd.arg("--permission-mode=bypassPermissions");
    drive(&cmd, "sdk_hook");
}
