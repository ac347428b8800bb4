//! `paicli -p` with MCP servers: the scripted model calls a real server's tool through the built binary, and
//! project-level servers run only once approved.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

use super::peers;
use crate::support::{Reply, ScriptedServer};

struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        Sandbox {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn paicli_home(&self) -> std::path::PathBuf {
        self.home.path().join(".paicli")
    }

    fn write_mcp_json(&self, path: &Path, name: &str, command: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let config = json!({"mcpServers": {name: {"command": command, "args": ["stdio"]}}});
        std::fs::write(path, config.to_string()).unwrap();
    }

    fn run(&self, server: &ScriptedServer, extra: &[&str]) -> Output {
        Command::cargo_bin("paicli")
            .unwrap()
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.paicli_home())
            .arg("-C")
            .arg(self.project.path())
            .args(["--base-url", &server.url(), "--model", "scripted-model"])
            .args(extra)
            .args(["-p", "echo something"])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_model_calls_an_mcp_tool_and_gets_the_wrapped_result() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let sandbox = Sandbox::new();
    sandbox.write_mcp_json(
        &sandbox.paicli_home().join("mcp.json"),
        "everything",
        &everything,
    );
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "mcp__everything__echo",
            json!({"message": "hi from mcp"}),
        )]),
        Reply::text("done"),
    ]);
    // Auto mode refuses MCP calls without a person (spec §6.3); this test is about the bridge.
    let output = sandbox.run(&server, &["--approval", "full"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "done\n");

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    let names = tool_names(&requests[0].body);
    assert!(
        names.contains(&"mcp__everything__echo".to_string()),
        "{names:?}"
    );
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "MCP tools are sorted in with the built-ins");
    let result = &requests[1].body["messages"][3];
    assert_eq!(result["role"], "tool");
    assert_eq!(result["tool_call_id"], "call_1");
    assert_eq!(
        result["content"],
        "<tool_result tool=\"mcp__everything__echo\" trust=\"untrusted-data\">\nEcho: hi from mcp\n</tool_result>"
    );
}

#[test]
fn project_servers_run_only_once_approved() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let sandbox = Sandbox::new();
    sandbox.write_mcp_json(
        &sandbox.project.path().join(".mcp.json"),
        "proj",
        &everything,
    );
    let has_proj_tools = |server: &ScriptedServer| {
        tool_names(&server.chat_requests()[0].body).contains(&"mcp__proj__echo".to_string())
    };

    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox.run(&server, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(
        stderr.contains("MCP server `proj`") && stderr.contains("--trust-project-mcp"),
        "{stderr}"
    );
    assert!(!has_proj_tools(&server));

    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox.run(&server, &["--trust-project-mcp"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(has_proj_tools(&server));

    // Remembered for this project and command line.
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox.run(&server, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("--trust-project-mcp"), "{stderr}");
    assert!(has_proj_tools(&server));
    assert!(sandbox.paicli_home().join("mcp-trust.json").exists());
}

#[test]
fn the_resource_index_is_in_the_system_prompt_once_and_stays_byte_identical() {
    let Some(python) = peers::python() else {
        return;
    };
    let sandbox = Sandbox::new();
    let config = json!({"mcpServers": {"peer": {
        "command": python, "args": [peers::peer_script(), "resources"]
    }}});
    std::fs::create_dir_all(sandbox.paicli_home()).unwrap();
    std::fs::write(sandbox.paicli_home().join("mcp.json"), config.to_string()).unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "mcp__peer__touch_note", json!({}))]),
        Reply::text("done"),
    ]);
    let output = sandbox.run(&server, &["--approval", "full"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    let system = |i: usize| requests[i].body["messages"][0]["content"].clone();
    let first = system(0);
    let text = first.as_str().unwrap();
    assert_eq!(text.matches("# MCP resources").count(), 1, "{text}");
    assert!(
        text.contains("- @peer:peer://note — A note that changes."),
        "{text}"
    );
    // A `resources/updated` changes no listing: the prefix stays the same bytes.
    assert_eq!(system(1), first);
}

#[test]
fn a_server_that_needs_login_fails_alone_in_print_mode() {
    // A remote server that answers every request with a 401 challenge.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buf = [0u8; 8192];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.paicli_home()).unwrap();
    let config = json!({"mcpServers": {"remote": {"url": url}}});
    std::fs::write(sandbox.paicli_home().join("mcp.json"), config.to_string()).unwrap();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox.run(&server, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "the task goes on: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "ok\n");
    assert_eq!(
        stderr.matches("paicli mcp login remote").count(),
        1,
        "one message naming the command: {stderr}"
    );
}
