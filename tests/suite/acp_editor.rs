//! `paicli acp` with a scripted editor (tests/fixtures/acp/steps.mjs on the real TypeScript SDK): a session
//! loaded after a restart replays its history and keeps its context, reads and writes go through the editor's
//! buffers when it offers them, and two calls of one tool each get their own permission request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::acp::{sdk_dir, updates_of};
use crate::support::{Reply, ScriptedServer};

/// A project and a paicli home for the scripted editor, and the SDK it runs on.
pub(super) struct Editor {
    sdk: PathBuf,
    _project: tempfile::TempDir,
    home: tempfile::TempDir,
    /// The project by its canonical path (the path guard hands the editor canonical paths).
    pub(super) root: PathBuf,
}

impl Editor {
    /// `None` when the SDK is not installed (see `sdk_dir`).
    pub(super) fn new() -> Option<Editor> {
        let sdk = sdk_dir()?;
        let project = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(project.path()).unwrap();
        Some(Editor {
            sdk,
            _project: project,
            home: tempfile::tempdir().unwrap(),
            root,
        })
    }

    /// One run of the editor's `script` against a fresh `paicli acp`.
    pub(super) fn run(&self, model: &ScriptedServer, script: Value) -> Value {
        let home = self.home.path();
        let script_file = home.join("script.json");
        std::fs::write(&script_file, script.to_string()).unwrap();
        let client = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/acp/steps.mjs");
        let output = Command::new("node")
            .arg(client)
            .arg(&self.sdk)
            .arg(&script_file)
            .arg("--")
            .arg(assert_cmd::cargo::cargo_bin("paicli"))
            .arg("-C")
            .arg(&self.root)
            .args(["--base-url", &model.url(), "--model", "scripted-model"])
            .args(["--approval", "ask", "acp"])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("PAICLI_HOME", home.join(".paicli"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "the client failed: {stderr}");
        serde_json::from_slice(&output.stdout).unwrap()
    }
}

/// The arguments of an `edit_file` call.
pub(super) fn edit(path: &str, old: &str, new: &str) -> Value {
    json!({"path": path, "old_text": old, "new_text": new})
}

pub(super) fn kinds(step: &Value) -> Vec<String> {
    step["updates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["sessionUpdate"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_loaded_session_replays_its_history_and_keeps_its_context_after_a_restart() {
    let Some(editor) = Editor::new() else { return };
    let root = editor.root.clone();
    std::fs::write(root.join("notes.txt"), "helo world\n").unwrap();
    let edit = edit("notes.txt", "helo", "hello");
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([("call_edit", "edit_file", edit.clone())]),
        Reply::text("Fixed the greeting."),
        Reply::text("You asked me to fix the greeting."),
    ]);
    let first = editor.run(
        &model,
        json!({"steps": [{"new": root}, {"prompt": "fix the greeting in notes.txt"}]}),
    );
    let session = first["steps"][0]["sessionId"].as_str().unwrap().to_string();
    assert_eq!(first["steps"][1]["stopReason"], "end_turn");

    // A new paicli process lists it (for this project, and among every project's) and loads it: the history
    // arrives before the answer, then a prompt continues it.
    let second = editor.run(
        &model,
        json!({"steps": [
            {"list": root},
            {"list": null},
            {"load": session, "cwd": root},
            {"prompt": "what did I ask?"},
        ]}),
    );
    assert_eq!(second["loadSession"], true);
    assert_eq!(second["listSessions"], true);
    for listed in [&second["steps"][0], &second["steps"][1]] {
        let sessions = listed["sessions"].as_array().unwrap();
        assert_eq!(sessions.len(), 1, "{listed}");
        assert_eq!(sessions[0]["sessionId"], session.as_str());
        assert_eq!(sessions[0]["cwd"], root.display().to_string());
        assert_eq!(sessions[0]["title"], "fix the greeting in notes.txt");
        assert!(sessions[0]["updatedAt"].as_str().unwrap().ends_with('Z'));
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let none = editor.run(&model, json!({"steps": [{"list": elsewhere.path()}]}));
    assert_eq!(none["steps"][0]["sessions"], json!([]), "{none}");
    let replayed = &second["steps"][2];
    assert_eq!(
        kinds(replayed),
        ["user_message_chunk", "tool_call", "agent_message_chunk"],
        "{replayed}"
    );
    let user = &updates_of(replayed, "user_message_chunk")[0]["content"]["text"];
    assert!(
        user.as_str()
            .unwrap()
            .contains("fix the greeting in notes.txt"),
        "{user}"
    );
    let call = updates_of(replayed, "tool_call")[0];
    assert_eq!(call["toolCallId"], "call_edit");
    assert_eq!(call["status"], "completed");
    assert_eq!(call["kind"], "edit");
    assert_eq!(call["rawInput"], edit);
    let notes = root.join("notes.txt").display().to_string();
    assert_eq!(call["locations"], json!([{"path": notes}]));
    assert_eq!(
        call["content"],
        json!([{"type": "diff", "path": notes, "oldText": "helo", "newText": "hello"}])
    );
    assert_eq!(
        updates_of(replayed, "agent_message_chunk")[0]["content"]["text"],
        "Fixed the greeting."
    );
    assert_eq!(second["steps"][3]["stopReason"], "end_turn");

    let requests = model.chat_requests();
    assert_eq!(requests.len(), 3);
    let sent = requests[2].body["messages"].to_string();
    for earlier in [
        "fix the greeting in notes.txt",
        "call_edit",
        "Fixed the greeting.",
        "what did I ask?",
    ] {
        assert!(
            sent.contains(earlier),
            "`{earlier}` missing from the request after load: {sent}"
        );
    }
}

#[test]
fn reads_and_writes_go_through_the_editors_buffers_when_it_offers_them() {
    let Some(editor) = Editor::new() else { return };
    let root = editor.root.clone();
    let notes = root.join("notes.txt");
    std::fs::write(&notes, "saved on disk\n").unwrap();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([("call_read", "read_file", json!({"path": "notes.txt"}))]),
        Reply::tool_calls([("call_edit", "edit_file", edit("notes.txt", "helo", "hello"))]),
        Reply::text("Fixed the unsaved greeting."),
    ]);
    let seen = editor.run(
        &model,
        json!({
            "capabilities": {"fs": {"readTextFile": true, "writeTextFile": true}},
            "buffers": {notes.display().to_string(): "unsaved helo\n"},
            "steps": [{"new": root}, {"prompt": "fix the greeting"}],
        }),
    );
    assert_eq!(seen["steps"][1]["stopReason"], "end_turn", "{seen}");
    // read_file saw the buffer, not the disk.
    let requests = model.chat_requests();
    let after_read = requests[1].body["messages"].to_string();
    assert!(after_read.contains("unsaved helo"), "{after_read}");
    assert!(!after_read.contains("saved on disk"), "{after_read}");
    // edit_file read the buffer and wrote the result back to the editor; the disk is as it was.
    assert_eq!(
        seen["writes"],
        json!([{"path": notes.display().to_string(), "content": "unsaved hello\n"}])
    );
    assert_eq!(seen["reads"].as_array().unwrap().len(), 2, "{seen}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "saved on disk\n");
    let finished = updates_of(&seen["steps"][1], "tool_call_update");
    assert_eq!(finished.len(), 2);
    assert!(
        finished.iter().all(|u| u["status"] == "completed"),
        "{finished:?}"
    );
}

#[test]
fn two_calls_of_one_tool_each_ask_for_their_own_call() {
    let Some(editor) = Editor::new() else { return };
    let root = editor.root.clone();
    std::fs::write(root.join("a.txt"), "old a\n").unwrap();
    std::fs::write(root.join("b.txt"), "old b\n").unwrap();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("call_a", "edit_file", edit("a.txt", "old", "new")),
            ("call_b", "edit_file", edit("b.txt", "old", "new")),
        ]),
        Reply::text("One of two."),
    ]);
    let seen = editor.run(
        &model,
        json!({
            "answers": {"call_a": "allow_once", "call_b": "reject_once"},
            "steps": [{"new": root}, {"prompt": "update both files"}],
        }),
    );
    assert_eq!(
        seen["permissions"],
        json!([
            {"toolCallId": "call_a", "tool": "edit_file"},
            {"toolCallId": "call_b", "tool": "edit_file"},
        ])
    );
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "new a\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("b.txt")).unwrap(),
        "old b\n"
    );
    let status: Vec<(String, String)> = updates_of(&seen["steps"][1], "tool_call_update")
        .iter()
        .map(|u| {
            (
                u["toolCallId"].as_str().unwrap().to_string(),
                u["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        status,
        [
            ("call_a".to_string(), "completed".to_string()),
            ("call_b".to_string(), "failed".to_string())
        ]
    );
}

#[test]
fn each_call_shows_its_tools_kind_with_absolute_paths() {
    let Some(editor) = Editor::new() else { return };
    let root = editor.root.clone();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_new",
            "create_project",
            json!({"name": "demo", "type": "rust"}),
        )]),
        Reply::tool_calls([
            (
                "call_read",
                "read_file",
                json!({"path": "./demo/src/../Cargo.toml"}),
            ),
            (
                "call_grep",
                "grep_code",
                json!({"pattern": "fn main", "path": "demo"}),
            ),
        ]),
        Reply::tool_calls([(
            "call_write",
            "write_file",
            json!({"path": "demo/NOTES.md", "content": "notes\n"}),
        )]),
        Reply::text("Made a Rust project."),
    ]);
    let seen = editor.run(
        &model,
        json!({"steps": [{"new": root}, {"prompt": "make a rust project called demo"}]}),
    );
    let step = &seen["steps"][1];
    assert_eq!(step["stopReason"], "end_turn", "{seen}");
    let at = |rel: &str| json!([{"path": root.join(rel).display().to_string()}]);
    let started: Vec<(&str, &str, Value)> = updates_of(step, "tool_call")
        .iter()
        .map(|u| {
            (
                u["toolCallId"].as_str().unwrap(),
                u["kind"].as_str().unwrap_or("other"),
                u["locations"].clone(),
            )
        })
        .collect();
    assert_eq!(
        started,
        [
            // create_project writes files: an edit, about the folder it makes.
            ("call_new", "edit", at("demo")),
            ("call_read", "read", at("demo/Cargo.toml")),
            ("call_grep", "search", at("demo")),
            ("call_write", "edit", at("demo/NOTES.md")),
        ]
    );
    assert!(root.join("demo/Cargo.toml").is_file());
    let written = updates_of(step, "tool_call_update")
        .into_iter()
        .find(|u| u["toolCallId"] == "call_write")
        .unwrap();
    assert_eq!(
        written["content"][0],
        json!({"type": "diff", "path": root.join("demo/NOTES.md").display().to_string(), "newText": "notes\n"})
    );
}
