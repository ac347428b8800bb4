//! `paicli -p` end to end: the built binary against the scripted OpenAI-compatible server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

const HELLO: &str = "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"Hello World\");\n    }\n}\n";

/// A project holding `Hello.java`.
fn sandbox() -> CliSandbox {
    let sandbox = CliSandbox::new();
    sandbox.project_file("Hello.java", HELLO);
    sandbox
}

fn hello_edit_script() -> Vec<Reply> {
    vec![
        Reply::reasoning_then_tool_calls(
            "I should read the file first.",
            [("call_read_1", "read_file", json!({"path": "Hello.java"}))],
        ),
        Reply::tool_calls([(
            "call_edit_2",
            "edit_file",
            json!({"path": "Hello.java", "old_text": "Hello World", "new_text": "Hello PaiCLI"}),
        )]),
        Reply::text("已把 Hello.java 里的 Hello World 改成 Hello PaiCLI。"),
    ]
}

#[test]
fn hello_edit_reads_edits_and_answers() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies(hello_edit_script());
    let output = sandbox
        .against(&server)
        .args(["-p", "把 Hello.java 里的 Hello World 改成 Hello PaiCLI"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    assert_eq!(
        stdout_of(&output),
        "已把 Hello.java 里的 Hello World 改成 Hello PaiCLI。\n"
    );
    assert_eq!(
        sandbox.read("Hello.java"),
        HELLO.replace("Hello World", "Hello PaiCLI")
    );
    let progress = stderr_of(&output);
    assert!(
        progress.contains("→ read_file") && progress.contains("→ edit_file"),
        "{progress}"
    );

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 3);
    let first = &requests[0].body;
    assert_eq!(first["model"], "scripted-model");
    assert_eq!(first["stream"], true);
    assert_eq!(
        first["messages"][1]["content"],
        "把 Hello.java 里的 Hello World 改成 Hello PaiCLI"
    );

    // The second request carries the assistant tool call and the wrapped result with the matching id.
    let messages = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    let call = &messages[2];
    assert_eq!(call["role"], "assistant");
    assert_eq!(call["tool_calls"][0]["id"], "call_read_1");
    assert_eq!(call["tool_calls"][0]["type"], "function");
    assert_eq!(call["tool_calls"][0]["function"]["name"], "read_file");
    let args: Value = serde_json::from_str(
        call["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(args, json!({"path": "Hello.java"}));
    let result = &messages[3];
    assert_eq!(result["role"], "tool");
    assert_eq!(result["tool_call_id"], "call_read_1");
    let content = result["content"].as_str().unwrap();
    assert!(
        content.starts_with("<tool_result tool=\"read_file\" trust=\"untrusted-data\">\n"),
        "{content}"
    );
    assert!(content.ends_with("\n</tool_result>"), "{content}");
    assert!(
        content.contains("System.out.println(\"Hello World\");"),
        "{content}"
    );

    let third = requests[2].body["messages"].as_array().unwrap();
    assert_eq!(third[4]["tool_calls"][0]["id"], "call_edit_2");
    assert_eq!(third[5]["tool_call_id"], "call_edit_2");
    // Tool definitions are identical in every request (prompt caches hit).
    assert_eq!(requests[0].body["tools"], requests[2].body["tools"]);
}

#[test]
fn json_output_is_one_object_with_the_result() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies(hello_edit_script());
    let output = sandbox
        .against(&server)
        .args(["--output-format", "json", "-p", "edit it"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let stdout = stdout_of(&output);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let result: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(
        result["result"],
        "已把 Hello.java 里的 Hello World 改成 Hello PaiCLI。"
    );
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["is_error"], false);
    assert_eq!(result["stop_reason"], "end_turn");
    assert_eq!(result["num_turns"], 3);
    assert_eq!(result["changed_files"], json!(["Hello.java"]));
    assert!(result.get("errors").is_none(), "{result}");
    assert!(
        result["usage"]["input_tokens"].as_u64().unwrap() > 0,
        "{result}"
    );
    assert!(result["duration_ms"].is_u64());
    assert!(!result["session_id"].as_str().unwrap().is_empty());
}

#[test]
fn stream_json_prints_one_event_per_line_then_the_result() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies(hello_edit_script());
    let output = sandbox
        .against(&server)
        .args(["--output-format", "stream-json", "-p", "edit it"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let events: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "system",
            "assistant",
            "assistant",
            "user",
            "assistant",
            "user",
            "assistant",
            "result"
        ]
    );
    assert_eq!(events[0]["subtype"], "init");
    // The reasoning before the first call, then the calls in Claude's names and fields.
    assert_eq!(
        events[1]["message"]["content"][0],
        json!({"type": "thinking", "thinking": "I should read the file first.", "signature": ""})
    );
    assert_eq!(
        events[2]["message"]["content"][0]["input"],
        json!({"file_path": "Hello.java"})
    );
    let edit = &events[4]["message"]["content"][0];
    assert_eq!(edit["name"], "Edit");
    assert_eq!(
        edit["input"],
        json!({"file_path": "Hello.java", "old_string": "Hello World", "new_string": "Hello PaiCLI"})
    );
    let edited = &events[5]["message"]["content"][0];
    assert_eq!(edited["tool_use_id"], "call_edit_2");
    assert_eq!(edited["is_error"], false);
    assert_eq!(events[7]["subtype"], "success");
}

#[test]
fn the_task_can_come_from_stdin() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies([Reply::text("pong")]);
    let mut child = sandbox
        .against(&server)
        .args(["-p", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all("ping from stdin\n".as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_of(&output), "pong\n");
    assert_eq!(
        server.chat_requests()[0].body["messages"][1]["content"],
        "ping from stdin\n"
    );
}

#[test]
fn no_api_key_is_a_usage_error_naming_the_variable() {
    let sandbox = sandbox();
    let output = sandbox.paicli().args(["-p", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(stderr.contains("DEEPSEEK_API_KEY"), "{stderr}");
}

#[test]
fn a_bad_config_file_is_a_usage_error_naming_file_and_line() {
    let sandbox = sandbox();
    sandbox.project_file(".paicli/config.toml", "[llm]\nmodel = \"x\"\ntimeout = 3\n");
    let output = sandbox.paicli().args(["-p", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("config.toml") && stderr.contains("line 3") && stderr.contains("timeout"),
        "{stderr}"
    );
}

#[test]
fn a_rejected_key_is_a_model_failure_with_a_hint() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies([Reply::status(
        401,
        r#"{"error":{"message":"invalid api key"}}"#,
    )]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("invalid api key") && stderr.contains("hint:"),
        "{stderr}"
    );
    assert_eq!(server.chat_requests().len(), 1, "401 is never retried");
}

#[test]
fn the_token_budget_flag_exits_3_with_a_partial_report() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "list_dir", json!({"path": "."}))]).usage(900, 200),
        Reply::text("Done: looked. Verified: nothing. Not done: all. Next steps: continue."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "--token-budget",
            "1000",
            "--output-format",
            "json",
            "-p",
            "big task",
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(3),
        "stderr: {}",
        stderr_of(&output)
    );
    let result: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    assert_eq!(result["partial_reason"], "TOKEN_BUDGET_EXCEEDED");
    assert!(
        result["result"]
            .as_str()
            .unwrap()
            .starts_with("⚠️ partial completion (TOKEN_BUDGET_EXCEEDED)")
    );
    assert!(server.chat_requests()[1].body.get("tools").is_none());
}

#[test]
fn the_iteration_limit_exits_3_with_a_partial_report() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "list_dir", json!({"path": "."}))]),
        Reply::text("Done: looked. Verified: nothing. Not done: all. Next steps: continue."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "--max-iterations",
            "1",
            "--output-format",
            "json",
            "-p",
            "big task",
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(3),
        "stderr: {}",
        stderr_of(&output)
    );
    let result: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    assert_eq!(result["subtype"], "error_max_turns");
    assert_eq!(result["stop_reason"], Value::Null);
    assert_eq!(result["partial_reason"], "HARD_ITERATION_LIMIT");
    assert!(
        result["result"]
            .as_str()
            .unwrap()
            .starts_with("⚠️ partial completion (HARD_ITERATION_LIMIT)")
    );
    let requests = server.chat_requests();
    assert!(
        requests[1].body.get("tools").is_none(),
        "the report request offers no tools"
    );
}

#[test]
fn ctrl_c_cancels_the_turn_and_exits_130() {
    let sandbox = sandbox();
    let server = ScriptedServer::start();
    let handle = server.push(Reply::text("this never finishes").hang_after(2));
    let child = sandbox
        .against(&server)
        .args(["-p", "wait"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    handle.wait_sent_blocking(2);
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(130),
        "stderr: {}",
        stderr_of(&output)
    );
    assert!(
        stderr_of(&output).contains("cancelled"),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn paths_outside_the_project_are_refused() {
    let sandbox = sandbox();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "top secret").unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "c1",
                "read_file",
                json!({"path": secret.display().to_string()}),
            ),
            (
                "c2",
                "read_file",
                json!({"path": "../../../../../../etc/passwd"}),
            ),
        ]),
        Reply::text("could not read"),
    ]);
    let output = sandbox
        .against(&server)
        .args(["-p", "read it"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let messages = server.chat_requests()[1].body["messages"].clone();
    for i in [3, 4] {
        let text = messages[i]["content"].as_str().unwrap();
        assert!(
            !text.contains("top secret") && !text.contains("root:"),
            "{text}"
        );
        assert!(
            text.contains("out of bounds") || text.contains("PATH_OUT_OF_BOUNDS"),
            "{text}"
        );
    }
    assert!(Path::new(&secret).exists());
}

#[test]
fn path_mentions_in_the_task_are_attached_as_in_the_repl() {
    let sandbox = sandbox();
    let server = ScriptedServer::with_replies([Reply::text("It prints a greeting.")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "what does @Hello.java do? see also @missing.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(stdout_of(&output), "It prints a greeting.\n");
    let requests = server.chat_requests();
    let messages = requests[0].body["messages"].as_array().unwrap();
    let task = messages.last().unwrap()["content"].as_str().unwrap();
    assert_eq!(
        task,
        format!(
            "what does @Hello.java do? see also @missing.txt\n\n<file path=\"Hello.java\">\n{}\n</file>",
            HELLO.trim_end()
        )
    );
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("@missing.txt not attached"),
        "the skipped mention is reported: {stderr}"
    );
}
