//! `--add-dir`: a folder outside the project the file tools may read and write for this run.

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer, outside_dir, stderr_of};

fn run(sandbox: &CliSandbox, server: &ScriptedServer, extra: &[&str]) -> std::process::Output {
    sandbox
        .against(server)
        .args(["-p", "copy", "--output-format=json"])
        .args(["--permission-mode", "bypassPermissions"])
        .args(extra)
        .output()
        .unwrap()
}

fn script(dir: &std::path::Path) -> ScriptedServer {
    let source = dir.join("in.txt").display().to_string();
    let target = dir.join("sub/out.txt").display().to_string();
    ScriptedServer::with_replies([
        Reply::tool_calls([("call_read", "read_file", json!({"path": source}))]),
        Reply::tool_calls([(
            "call_write",
            "write_file",
            json!({"path": target, "content": "copied"}),
        )]),
        Reply::text("done"),
    ])
}

#[test]
fn add_dir_lets_the_file_tools_read_and_write_outside_the_project() {
    let Some(outside) = outside_dir() else {
        return;
    };
    std::fs::write(outside.path().join("in.txt"), "from outside").unwrap();
    let sandbox = CliSandbox::new();

    // Without the flag the guard keeps both calls inside the project.
    let server = script(outside.path());
    let output = run(&sandbox, &server, &[]);
    assert_ne!(
        output.status.code(),
        Some(0),
        "refused calls are a failed task"
    );
    let told = server.chat_requests()[1].body["messages"].to_string();
    assert!(told.contains("outside the project root"), "{told}");
    assert!(!outside.path().join("sub/out.txt").exists());

    let server = script(outside.path());
    let dir = outside.path().display().to_string();
    let output = run(&sandbox, &server, &["--add-dir", &dir]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let told = server.chat_requests()[1].body["messages"].to_string();
    assert!(told.contains("from outside"), "{told}");
    assert_eq!(
        std::fs::read_to_string(outside.path().join("sub/out.txt")).unwrap(),
        "copied"
    );
}

#[test]
fn a_missing_add_dir_is_a_clear_error() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    let output = run(&sandbox, &server, &["--add-dir", "/no/such/folder/here"]);
    assert_ne!(output.status.code(), Some(0));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("--add-dir /no/such/folder/here"),
        "{stderr}"
    );
    assert!(server.chat_requests().is_empty());
}

#[test]
fn control_files_in_an_added_folder_still_need_the_person() {
    let Some(outside) = outside_dir() else {
        return;
    };
    std::fs::create_dir_all(outside.path().join(".git/hooks")).unwrap();
    let path = |rel: &str| outside.path().join(rel).display().to_string();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "call_hook",
                "write_file",
                json!({"path": path(".git/hooks/pre-commit"), "content": "#!/bin/sh\ntouch pwned\n"}),
            ),
            (
                "call_envrc",
                "write_file",
                json!({"path": path(".envrc"), "content": "touch pwned\n"}),
            ),
            (
                "call_plain",
                "write_file",
                json!({"path": path("notes.txt"), "content": "plain"}),
            ),
        ]),
        Reply::text("done"),
    ]);
    let sandbox = CliSandbox::new();
    let dir = outside.path().display().to_string();
    // acceptEdits runs file edits without asking, but a file that runs code later is never a plain edit.
    sandbox
        .against(&server)
        .args(["-p", "set up", "--output-format=json"])
        .args(["--permission-mode", "acceptEdits", "--add-dir", &dir])
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(outside.path().join("notes.txt")).unwrap(),
        "plain"
    );
    assert!(!outside.path().join(".git/hooks/pre-commit").exists());
    assert!(!outside.path().join(".envrc").exists());
}
