//! The real Claude Agent SDKs against paicli: small programs of ours written against PyPI's `claude-agent-sdk` and
//! npm's `@anthropic-ai/claude-agent-sdk` (tests/fixtures/headless/agent_sdk.{py,mjs}, pinned in scripts/test)
//! point the SDK at the built binary and report what they saw; the scripted model records what paicli asked.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, skip_missing_peer};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/headless")
        .join(name)
}

/// A peer at `$var`, else where scripts/test installs it (`default`, beneath the repository), found when `marker`
/// exists beneath it (`""`: the path itself); `None` (with a note) when it is missing outside CI.
fn peer(var: &str, default: &str, marker: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default),
        PathBuf::from,
    );
    let found = if marker.is_empty() {
        path.is_file()
    } else {
        path.join(marker).exists()
    };
    if found {
        return Some(path);
    }
    skip_missing_peer(format!(
        "{var}: not installed (scripts/test installs it into {default})"
    ));
    None
}

/// The Python that has `claude-agent-sdk`.
fn python_sdk() -> Option<PathBuf> {
    peer(
        "PAICLI_TEST_AGENT_SDK_PY",
        ".ci/agent-sdk-py/bin/python",
        "",
    )
}

/// The npm prefix that holds `@anthropic-ai/claude-agent-sdk`.
fn ts_sdk() -> Option<PathBuf> {
    peer(
        "PAICLI_TEST_AGENT_SDK_TS",
        ".ci/agent-sdk-ts",
        "node_modules/@anthropic-ai/claude-agent-sdk/package.json",
    )
}

/// Runs the SDK program `cmd` in a clean environment whose provider is `server`; returns its report.
fn report(mut cmd: Command, sandbox: &CliSandbox, server: &ScriptedServer) -> Value {
    let output = cmd
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", sandbox.home.path())
        .env("PAICLI_HOME", sandbox.paicli_home())
        .env("PAICLI_BASE_URL", server.url())
        .env("PAICLI_MODEL", "scripted-model")
        .env("PAICLI_API_KEY", "test-key")
        .env("PAICLI_BIN", assert_cmd::cargo::cargo_bin("paicli"))
        .env("PROJ", sandbox.project.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the SDK program failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap()
}

fn python(sdk: &Path, scenario: &str) -> Command {
    let mut cmd = Command::new(sdk);
    cmd.arg(fixture("agent_sdk.py")).arg(scenario);
    cmd
}

fn node(sdk: &Path, scenario: &str) -> Command {
    let mut cmd = Command::new("node");
    cmd.arg(fixture("agent_sdk.mjs")).arg(sdk).arg(scenario);
    cmd
}

/// The replies of the session scenarios: a write (allowed, rewritten), a command (denied), the answer; with
/// `extra_turn`, a second plain turn; then a turn that streams and waits for the interrupt, and one after it.
fn session_replies(extra_turn: bool) -> Vec<Reply> {
    let mut replies = vec![
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
    ];
    if extra_turn {
        replies.push(Reply::text("Nothing else."));
    }
    replies.push(Reply::text("Once upon a time there was a long story").hang_after(4));
    replies.push(Reply::text("Yes."));
    replies
}

/// What both SDKs' session scenarios must have seen and caused.
fn check_session(seen: &Value, sandbox: &CliSandbox, server: &ScriptedServer, subtypes: &[&str]) {
    assert_eq!(
        seen["asked"],
        json!([
            {"tool": "Write", "input": {"file_path": "notes.txt", "content": "draft"}},
            {"tool": "Bash", "input": {"command": "make deploy"}},
        ]),
        "{seen}"
    );
    assert_eq!(seen["hooked"], json!(["Write"]), "{seen}");
    // `updatedInput` replaced what the model asked to write.
    assert_eq!(sandbox.read("notes.txt"), "final");
    let results = seen["results"].as_array().unwrap();
    let got: Vec<&str> = results
        .iter()
        .map(|r| r["subtype"].as_str().unwrap())
        .collect();
    assert_eq!(got, subtypes, "{seen}");
    let interrupted = results.iter().find(|r| r["subtype"] != "success").unwrap();
    assert!(
        !interrupted["errors"].as_array().unwrap().is_empty(),
        "{seen}"
    );
    assert_eq!(results.last().unwrap()["result"], "Yes.");
    // One session throughout, and the partial messages arrived.
    assert!(
        results
            .iter()
            .all(|r| r["session_id"] == results[0]["session_id"])
    );
    assert!(seen["partials"].as_u64().unwrap() > 0, "{seen}");
    let requests = server.chat_requests();
    // The preset's `append` reached paicli's own system prompt.
    let system = requests[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.ends_with("Answer briefly."), "{system}");
    // The denial's message is what the model was told.
    assert!(
        requests[2].body["messages"]
            .to_string()
            .contains("not in this repository")
    );
}

/// What both SDKs' in-process MCP scenarios must have seen and caused.
fn check_sdk_mcp(seen: &Value, server: &ScriptedServer) {
    assert_eq!(seen["calls"], json!([{"a": 2, "b": 3}]), "{seen}");
    let init_tools = seen["init_tools"].as_array().unwrap();
    assert!(init_tools.contains(&json!("mcp__calc__add")), "{seen}");
    // `disallowed_tools=["Bash"]` took the tool out, as Claude does.
    assert!(!init_tools.contains(&json!("Bash")), "{seen}");
    let calc = seen["init_servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "calc")
        .unwrap();
    assert_eq!(calc["status"], "connected", "{seen}");
    assert_eq!(seen["tool_results"], json!(["the sum is 5"]), "{seen}");
    assert_eq!(seen["result"], "It is 5.");
    let requests = server.chat_requests();
    let offered: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(offered.contains(&"mcp__calc__add"), "{offered:?}");
    assert!(!offered.contains(&"execute_command"), "{offered:?}");
    assert!(
        requests[1].body["messages"]
            .to_string()
            .contains("the sum is 5")
    );
}

fn sdk_mcp_replies() -> [Reply; 2] {
    [
        Reply::tool_calls([("call_add", "mcp__calc__add", json!({"a": 2, "b": 3}))]),
        Reply::text("It is 5."),
    ]
}

#[test]
fn python_sdk_client_runs_turns_asks_hooks_and_interrupts() {
    let Some(sdk) = python_sdk() else { return };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies(session_replies(true));
    let seen = report(python(&sdk, "session"), &sandbox, &server);
    check_session(
        &seen,
        &sandbox,
        &server,
        &["success", "success", "error_during_execution", "success"],
    );
}

#[test]
fn python_sdk_in_process_mcp_tools_reach_the_model_and_run() {
    let Some(sdk) = python_sdk() else { return };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies(sdk_mcp_replies());
    let seen = report(python(&sdk, "sdk_mcp"), &sandbox, &server);
    check_sdk_mcp(&seen, &server);
}

#[test]
fn python_sdk_structured_output_resume_and_max_turns() {
    let Some(sdk) = python_sdk() else { return };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::text(r#"{"n": 3}"#),
        Reply::text("Again."),
        Reply::tool_calls([("call_ls", "list_dir", json!({"path": "."}))]),
        Reply::text("unused"),
    ]);
    let seen = report(python(&sdk, "structured"), &sandbox, &server);
    assert_eq!(seen["structured_output"], json!({"n": 3}), "{seen}");
    assert_eq!(seen["resumed"]["result"], "Again.");
    assert_eq!(seen["resumed"]["session_id"], seen["session_id"]);
    // The resumed run sent the first run's conversation.
    let requests = server.chat_requests();
    assert!(
        requests[1].body["messages"]
            .to_string()
            .contains("how many?")
    );
    // An error result ends the run with exit code 1, which the SDK raises after handing on the result.
    assert_eq!(seen["max_turns"], "error_max_turns", "{seen}");
    assert_eq!(seen["max_turns_raised"], "ResultError", "{seen}");
}

#[test]
fn typescript_sdk_streams_turns_asks_hooks_and_interrupts() {
    let Some(sdk) = ts_sdk() else { return };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies(session_replies(false));
    let seen = report(node(&sdk, "session"), &sandbox, &server);
    check_session(
        &seen,
        &sandbox,
        &server,
        &["success", "error_during_execution", "success"],
    );
}

#[test]
fn typescript_sdk_in_process_mcp_tools_reach_the_model_and_run() {
    let Some(sdk) = ts_sdk() else { return };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies(sdk_mcp_replies());
    let seen = report(node(&sdk, "sdk_mcp"), &sandbox, &server);
    check_sdk_mcp(&seen, &server);
}
