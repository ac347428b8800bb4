//! `paicli acp` end to end: the built binary driven over stdio by the real TypeScript ACP SDK (a small Node
//! client in tests/fixtures/acp/), against the scripted model.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{Reply, ScriptedServer, skip_missing_peer};

/// The SDK's folder: `$PAICLI_TEST_ACP_SDK`, else where scripts/test installs it. `None` (with a note) when it
/// is missing outside CI.
pub(super) fn sdk_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PAICLI_TEST_ACP_SDK").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join(".ci/node/node_modules/@agentclientprotocol/sdk")
        },
        PathBuf::from,
    );
    if dir.join("package.json").is_file() {
        return Some(dir);
    }
    skip_missing_peer(
        "@agentclientprotocol/sdk is not installed (scripts/test installs it into .ci/node)",
    );
    None
}

pub(super) fn updates_of<'a>(run: &'a Value, kind: &str) -> Vec<&'a Value> {
    run["updates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["sessionUpdate"] == kind)
        .collect()
}

#[test]
fn an_editor_edits_a_file_answers_a_permission_and_cancels_a_running_command() {
    let Some(sdk) = sdk_dir() else { return };
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("notes.txt"), "helo world\n").unwrap();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_edit",
            "edit_file",
            json!({"path": "notes.txt", "old_text": "helo", "new_text": "hello"}),
        )]),
        Reply::text("Fixed the greeting."),
        Reply::tool_calls([(
            "call_long",
            "execute_command",
            json!({"command": "touch started.txt && sleep 60"}),
        )]),
    ]);
    let client = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/acp/client.mjs");
    let output = Command::new("node")
        .arg(client)
        .arg(&sdk)
        .arg(project.path())
        .arg("--")
        .arg(assert_cmd::cargo::cargo_bin("paicli"))
        .arg("-C")
        .arg(project.path())
        .args(["--base-url", &model.url(), "--model", "scripted-model"])
        .args(["--approval", "ask", "acp"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("PAICLI_HOME", home.path().join(".paicli"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the client failed: {stderr}");
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();

    assert_eq!(seen["loadSession"], true);
    // The first prompt: the edit asked, ran, and showed its diff; the answer streamed as message chunks.
    let first = &seen["first"];
    assert_eq!(first["stopReason"], "end_turn");
    let started = updates_of(first, "tool_call");
    assert_eq!(started.len(), 1, "{first}");
    assert_eq!(started[0]["toolCallId"], "call_edit");
    assert_eq!(started[0]["kind"], "edit");
    assert_eq!(started[0]["status"], "in_progress");
    // Paths reach the editor absolute (ACP requires it), in the project the editor opened.
    let notes = std::fs::canonicalize(project.path())
        .unwrap()
        .join("notes.txt")
        .display()
        .to_string();
    assert_eq!(started[0]["locations"], json!([{"path": notes}]));
    let finished = updates_of(first, "tool_call_update");
    assert_eq!(finished.len(), 1, "{first}");
    assert_eq!(finished[0]["status"], "completed");
    let diff = &finished[0]["content"][0];
    assert_eq!(diff["type"], "diff");
    assert_eq!(diff["path"], notes.as_str());
    assert_eq!(
        (diff["oldText"].as_str(), diff["newText"].as_str()),
        (Some("helo"), Some("hello"))
    );
    let message: String = updates_of(first, "agent_message_chunk")
        .iter()
        .map(|u| u["content"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(message, "Fixed the greeting.");
    assert_eq!(
        std::fs::read_to_string(project.path().join("notes.txt")).unwrap(),
        "hello world\n"
    );
    assert_eq!(seen["permissions"][0]["tool"], "edit_file");
    assert_eq!(
        seen["permissions"][0]["options"],
        json!(["allow_once", "allow_always", "reject_once"])
    );

    // The second prompt was cancelled mid-command: it stopped as cancelled and its call still got a result.
    let second = &seen["second"];
    assert_eq!(second["stopReason"], "cancelled");
    let started = updates_of(second, "tool_call");
    let finished = updates_of(second, "tool_call_update");
    assert_eq!(started.len(), 1, "{second}");
    assert_eq!(started[0]["toolCallId"], "call_long");
    assert_eq!(started[0]["kind"], "execute");
    assert_eq!(finished.len(), 1, "{second}");
    assert_eq!(finished[0]["toolCallId"], "call_long");
    assert_eq!(finished[0]["status"], "failed");
    assert_eq!(
        model.chat_requests().len(),
        3,
        "no model request after the cancel"
    );
}
