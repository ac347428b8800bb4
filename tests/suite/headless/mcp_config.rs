//! MCP servers the caller names: `--mcp-config` (inline or a file, repeatable), `--strict-mcp-config`, and the
//! SDK's `initialize` `mcpServers`, against the real `@modelcontextprotocol/server-everything`.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{Value, json};

use super::print_json::lines;
use crate::suite::mcp_servers::peers;
use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

fn echo_call(server: &str) -> Reply {
    Reply::tool_calls([(
        "call_echo",
        &*format!("mcp__{server}__echo"),
        json!({"message": "hi from the caller"}),
    )])
}

/// The `mcp_servers` of the first `system`/`init` message, by name.
fn init_servers(messages: &[Value]) -> Vec<(String, Value)> {
    let init = messages
        .iter()
        .find(|m| m["type"] == "system" && m["subtype"] == "init")
        .unwrap();
    init["mcp_servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap().to_string(), s.clone()))
        .collect()
}

fn told_echo(server: &ScriptedServer) -> String {
    server.chat_requests()[1].body["messages"].to_string()
}

#[test]
fn mcp_config_flags_add_servers_and_strict_leaves_out_mcp_json() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let sandbox = CliSandbox::new();
    // The user's own mcp.json: left out under --strict-mcp-config.
    std::fs::create_dir_all(sandbox.paicli_home()).unwrap();
    std::fs::write(
        sandbox.paicli_home().join("mcp.json"),
        r#"{"mcpServers": {"fromfile": {"command": "no-such-server-binary"}}}"#,
    )
    .unwrap();
    let inline = json!({"mcpServers": {"every": {"command": everything, "args": []}}});
    // A second flag, as a file, holding an in-process SDK server, which `-p` has no client to reach through.
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        file.path(),
        r#"{"mcpServers": {"inproc": {"type": "sdk", "name": "inproc"}}}"#,
    )
    .unwrap();
    let server = ScriptedServer::with_replies([echo_call("every"), Reply::text("done")]);
    let output = sandbox
        .against(&server)
        .env("PAICLI_MCP_STARTUP_WAIT_SECS", "60")
        .args(["-p", "echo", "--output-format=stream-json", "--verbose"])
        .args([
            "--permission-mode",
            "bypassPermissions",
            "--strict-mcp-config",
        ])
        .arg(format!("--mcp-config={inline}"))
        .arg("--mcp-config")
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let servers = init_servers(&lines(&output));
    let names: Vec<&str> = servers.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"every"), "{names:?}");
    assert!(!names.contains(&"fromfile"), "{names:?}");
    let inproc = &servers.iter().find(|(n, _)| n == "inproc").unwrap().1;
    assert_eq!(inproc["status"], "failed");
    assert!(
        inproc["error"].as_str().unwrap().contains("SDK server"),
        "{inproc}"
    );
    // The server's tool was offered and its answer reached the model.
    assert!(told_echo(&server).contains("Echo: hi from the caller"));
}

#[test]
fn a_bad_mcp_config_is_a_clear_error() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "x",
            "--output-format=json",
            "--mcp-config",
            "{not json",
        ])
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0));
    assert!(
        stderr_of(&output).contains("--mcp-config"),
        "{}",
        stderr_of(&output)
    );
    assert!(server.chat_requests().is_empty());
}

#[test]
fn initialize_mcp_servers_start_and_are_reported() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([echo_call("late"), Reply::text("done")]);
    let mut cmd = sandbox.against(&server);
    cmd.env("PAICLI_MCP_STARTUP_WAIT_SECS", "60").args([
        "--output-format=stream-json",
        "--verbose",
        "--input-format=stream-json",
        "--permission-mode=bypassPermissions",
    ]);
    let initialize = json!({"type": "control_request", "request_id": "req_1", "request": {
        "subtype": "initialize",
        "mcpServers": {"late": {"command": everything}},
    }});
    let user = json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
        "message": {"role": "user", "content": "echo"}});
    let status = json!({"type": "control_request", "request_id": "req_2",
        "request": {"subtype": "mcp_status"}});
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{initialize}\n{user}").unwrap();
    // Asked once the turn is over, so the server has had its start-up wait.
    let mut messages = Vec::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 0 {
        let message: Value = serde_json::from_str(&line).unwrap();
        line.clear();
        let done = message["type"] == "result";
        messages.push(message);
        if done {
            break;
        }
    }
    writeln!(stdin, "{status}").unwrap();
    drop(stdin);
    for line in reader.lines() {
        messages.push(serde_json::from_str(&line.unwrap()).unwrap());
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let answer = |id: &str| {
        messages
            .iter()
            .find(|m| m["type"] == "control_response" && m["response"]["request_id"] == id)
            .unwrap()["response"]["response"]
            .clone()
    };
    assert_eq!(answer("req_1")["mcp_servers_applied"], json!(["late"]));
    assert!(told_echo(&server).contains("Echo: hi from the caller"));
    let listed = answer("req_2")["mcpServers"].clone();
    let of = |name: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(of("late")["status"], "connected");
}
