//! `claude -p`-style scripts: `--output-format json` piped into `jq`, a stream-json consumer, the spend caps.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

pub(super) fn lines(output: &std::process::Output) -> Vec<Value> {
    stdout_of(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn json_output_piped_into_jq_gives_the_answer() {
    let Ok(jq) = which_jq() else {
        return crate::support::skip_missing_peer("jq is not installed");
    };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("The answer is 42.")]);
    let mut paicli = sandbox
        .against(&server)
        .args(["-p", "what is the answer?", "--output-format", "json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let output = Command::new(jq)
        .args(["-r", ".result"])
        .stdin(paicli.stdout.take().unwrap())
        .output()
        .unwrap();
    assert_eq!(paicli.wait().unwrap().code(), Some(0));
    assert_eq!(stdout_of(&output), "The answer is 42.\n");
}

fn which_jq() -> Result<String, ()> {
    let found = Command::new("sh")
        .args(["-c", "command -v jq"])
        .output()
        .map_err(|_| ())?;
    let path = stdout_of(&found).trim().to_string();
    if path.is_empty() { Err(()) } else { Ok(path) }
}

#[test]
fn a_stream_json_consumer_reads_init_messages_in_claude_names_and_the_result() {
    let sandbox = CliSandbox::new();
    sandbox.project_file("a.txt", "alpha\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "read_file", json!({"path": "a.txt"}))]),
        Reply::text("It says alpha."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "read a.txt",
            "--output-format=stream-json",
            "--verbose",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let messages = lines(&output);
    let kinds: Vec<&str> = messages
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["system", "assistant", "user", "assistant", "result"]
    );
    assert_eq!(messages[0]["subtype"], "init");
    assert_eq!(messages[0]["model"], "scripted-model");
    let call = &messages[1]["message"]["content"][0];
    assert_eq!(call["name"], "Read");
    assert_eq!(call["input"], json!({"file_path": "a.txt"}));
    let result = &messages[2]["message"]["content"][0];
    assert_eq!(result["tool_use_id"], "call_1");
    assert!(result["content"].as_str().unwrap().contains("alpha"));
    assert_eq!(
        messages[3]["message"]["content"][0]["text"],
        "It says alpha."
    );
    let end = &messages[4];
    assert_eq!(end["subtype"], "success");
    assert_eq!(end["result"], "It says alpha.");
    assert_eq!(end["num_turns"], 2);
    // Every message belongs to the one session.
    for m in &messages {
        assert_eq!(m["session_id"], end["session_id"], "{m}");
    }
}

#[test]
fn max_turns_stops_with_error_max_turns_and_exit_3() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "list_dir", json!({"path": "."}))]),
        // The partial report paicli asks for when the limit stops the turn.
        Reply::text("I listed the folder; more was left to do."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "explore",
            "--output-format",
            "json",
            "--max-turns",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let result: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    assert_eq!(result["subtype"], "error_max_turns", "{result}");
    assert_eq!(result["is_error"], true);
    assert!(!result["errors"].as_array().unwrap().is_empty(), "{result}");
}

#[test]
fn max_budget_usd_is_refused_without_dollar_prices() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "hi",
            "--output-format",
            "json",
            "--max-budget-usd",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("--max-budget-usd needs the model's list prices in US dollars"),
        "{}",
        stderr_of(&output)
    );
    assert_eq!(server.chat_requests().len(), 0);
}

#[test]
fn max_budget_usd_stops_the_turn_once_spent() {
    let sandbox = CliSandbox::new().with_env("KIMI_API_KEY", "test-key");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "list_dir", json!({"path": "."}))]).usage(100_000, 1_000),
        Reply::text("never asked for"),
    ]);
    let output = sandbox
        .paicli()
        .args([
            "--provider",
            "kimi",
            "--base-url",
            &server.url(),
            "--model",
            "kimi-k2.5",
        ])
        .args([
            "-p",
            "explore",
            "--output-format",
            "json",
            "--max-budget-usd=0.01",
        ])
        .output()
        .unwrap();
    let result: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    assert_eq!(result["subtype"], "error_max_budget_usd", "{result}");
    // 100k input tokens at $0.60 per million and 1k output at $3.00: $0.063.
    let cost = result["total_cost_usd"].as_f64().unwrap();
    assert!((cost - 0.063).abs() < 1e-9, "{result}");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(server.chat_requests().len(), 1);
}

#[test]
fn unknown_flags_are_reported_once_and_ignored() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi", "--output-format", "json", "--effort", "high"])
        .args([
            "--effort=low",
            "--debug-file=/nowhere",
            "--allowedTools",
            "Read,Bash(git log:*)",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let notes: Vec<String> = stderr_of(&output)
        .lines()
        .filter(|l| l.contains("accepted and ignored"))
        .map(str::to_string)
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].ends_with("--effort, --debug-file"), "{notes:?}");
}

#[test]
fn tools_limits_what_is_offered_and_what_runs() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "x.txt", "content": "x"}),
        )]),
        Reply::text("I may only read."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "write x",
            "--output-format",
            "stream-json",
            "--tools",
            "Read,Glob",
        ])
        .args(["--permission-mode", "bypassPermissions"])
        .output()
        .unwrap();
    // The one call with side effects was refused: `-p`'s exit code 4.
    assert_eq!(output.status.code(), Some(4), "{}", stderr_of(&output));
    let messages = lines(&output);
    assert_eq!(messages[0]["tools"], json!(["Glob", "Read"]));
    let requests = server.chat_requests();
    let offered: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(offered, ["glob_files", "read_file"]);
    // A call of another tool is refused even in bypassPermissions.
    assert!(!sandbox.project.path().join("x.txt").exists());
    let end = messages.last().unwrap();
    assert_eq!(end["permission_denials"][0]["tool_name"], "Write", "{end}");
    assert_eq!(end["denials"][0]["code"], "TOOL_NOT_ALLOWED", "{end}");
    assert_eq!(end["all_denied"], true);
}

#[test]
fn accept_edits_runs_edits_and_asks_about_commands() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "a.txt", "content": "a"}),
        )]),
        Reply::tool_calls([("call_2", "execute_command", json!({"command": "echo hi"}))]),
        Reply::text("Wrote a.txt; the command needs you."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "go",
            "--output-format",
            "json",
            "--permission-mode",
            "acceptEdits",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let result: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
    assert_eq!(sandbox.read("a.txt"), "a");
    // Nobody can be asked in `-p`: the command is refused, and no classifier request judged it instead.
    assert_eq!(
        result["permission_denials"][0]["tool_name"], "Bash",
        "{result}"
    );
    assert_eq!(server.chat_requests().len(), 3);
}

#[test]
fn prompt_files_replace_and_extend_the_system_prompt() {
    let sandbox = CliSandbox::new();
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.md");
    let more = dir.path().join("more.md");
    std::fs::write(&own, "You are the file's own reviewer.").unwrap();
    std::fs::write(&more, "Answer in one line.").unwrap();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi", "--output-format", "json"])
        .arg("--system-prompt-file")
        .arg(&own)
        .arg("--append-system-prompt-file")
        .arg(&more)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let first = &server.chat_requests()[0].body["messages"][0];
    assert_eq!(first["role"], "system");
    let system = first["content"].to_string();
    assert!(
        system.starts_with("\"You are the file's own reviewer."),
        "{system}"
    );
    assert!(system.contains("Answer in one line."), "{system}");

    // Plain-text `-p`, as `claude -p` scripts run it, takes them too.
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi", "--append-system-prompt", "Be brief."])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let system = server.chat_requests()[0].body["messages"][0]["content"].to_string();
    assert!(system.ends_with("Be brief.\""), "{system}");

    // A file that cannot be read stops the run before any request.
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi", "--system-prompt-file"])
        .arg(dir.path().join("missing.md"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("missing.md"),
        "{}",
        stderr_of(&output)
    );
    assert!(server.chat_requests().is_empty());
}
