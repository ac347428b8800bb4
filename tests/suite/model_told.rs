//! What the model is told about its tools is true for the session: `execute_command`'s description states the
//! limits from the settings (time limit, output kept inline, where long output goes) and the OS sandbox only when
//! commands run in one, the system prompt when a result is saved to a file, and both are the same bytes on every
//! request of a session. Checked on
//! the requests the built binary sends to the scripted model, as is the size of a first request offering every tool.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

/// A URL in the task, so every web tool is offered too.
const TASK: &str = "read https://docs.example/notes and list the files";

/// The system prompt and the tool definitions of one request.
fn told(body: &Value) -> (String, Vec<Value>) {
    let system = body["messages"][0]["content"].as_str().unwrap().to_string();
    let tools = body["tools"].as_array().unwrap().clone();
    (system, tools)
}

fn description<'a>(tools: &'a [Value], name: &str) -> &'a str {
    tools
        .iter()
        .find(|t| t["function"]["name"] == name)
        .and_then(|t| t["function"]["description"].as_str())
        .unwrap_or_else(|| panic!("{name} not offered: {tools:?}"))
}

/// The requests of one `-p` run in `sandbox`: a command, then the answer.
fn run(sandbox: &CliSandbox) -> Vec<Value> {
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({"command": "ls"}))]),
        Reply::text("Two files."),
    ]);
    let output = sandbox
        .against(&server)
        .args(["--approval", "full", "-p", TASK])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let requests: Vec<Value> = server.chat_requests().into_iter().map(|r| r.body).collect();
    assert_eq!(requests.len(), 2);
    requests
}

#[test]
fn with_other_limits_and_no_sandbox_nothing_promises_the_defaults_or_a_sandbox() {
    let sandbox = CliSandbox::new();
    sandbox.user_config(
        "[tools]\ncommand_timeout_secs = 7\ncommand_inline_chars = 3000\n\n[tools.offload]\nthreshold_chars = \
         20000\n\n[web]\nfetch_max_chars = 5000\n\n[sandbox]\nmode = \"off\"\n",
    );
    let requests = run(&sandbox);
    let (system, tools) = told(&requests[0]);
    let command = description(&tools, "execute_command");
    assert!(command.contains("killed after 7 seconds"), "{command}");
    assert!(
        command.contains("Output beyond 3000 characters"),
        "{command}"
    );
    assert!(
        command.contains("background processes stop when it ends"),
        "{command}"
    );
    // The time limit is the tool's to state, once.
    assert!(!system.contains("7 s"), "{system}");
    assert!(
        system.contains("A result longer than 20000 characters"),
        "{system}"
    );
    let fetch = tools
        .iter()
        .find(|t| t["function"]["name"] == "web_fetch")
        .unwrap();
    assert_eq!(
        fetch["function"]["parameters"]["properties"]["max_chars"]["description"],
        "Default 5000."
    );
    // Everything the model reads: the prompt and every tool's name, description and parameters.
    let everything = format!("{system}\n{}", Value::from(tools.clone())).to_lowercase();
    for untrue in ["60 s", "60s", "60 seconds", "8000", "32000", "sandbox"] {
        assert!(
            !everything.contains(untrue),
            "`{untrue}` told to the model: {everything}"
        );
    }
    // The same bytes on the session's next request: provider caches keep hitting.
    assert_eq!(told(&requests[1]), (system, tools));
}

#[test]
fn the_sandbox_is_mentioned_exactly_when_commands_run_in_it() {
    let sandbox = CliSandbox::new();
    sandbox.user_config("[sandbox]\nmode = \"auto\"\nnetwork = false\n");
    let requests = run(&sandbox);
    let (_, tools) = told(&requests[0]);
    let command = description(&tools, "execute_command");
    let support = paicli::sandbox::probe();
    if support.is_available() {
        assert!(
            command.contains("The command runs in an OS sandbox where writes outside the project"),
            "{command}"
        );
        assert_eq!(
            command.contains("network connections are refused"),
            support.confines_network(),
            "{command}"
        );
    } else {
        // `auto` without support runs commands unconfined: no sandbox is promised.
        assert!(!command.to_lowercase().contains("sandbox"), "{command}");
    }
    // The defaults, stated as the defaults.
    assert!(command.contains("killed after 60 seconds"), "{command}");
    assert!(
        command.contains("Output beyond 8000 characters is saved"),
        "{command}"
    );
}

/// Every tool a session offers by default, plus `web_search` (a search key is set).
const EVERY_TOOL: [&str; 19] = [
    "agent",
    "browser_connect",
    "browser_disconnect",
    "browser_status",
    "create_project",
    "edit_file",
    "execute_command",
    "glob_files",
    "grep_code",
    "list_dir",
    "load_skill",
    "read_file",
    "revert_turn",
    "save_memory",
    "search_code",
    "update_plan",
    "web_fetch",
    "web_search",
    "write_file",
];

/// Most bytes of a first request (system prompt, every tool, the task): each turn re-sends them.
const FIRST_REQUEST_MAX_BYTES: usize = 11 * 1024;

#[test]
fn the_first_request_with_every_tool_offered_stays_within_11_kb() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("Nothing to do.")]);
    let output = sandbox
        .against(&server)
        .env("TAVILY_API_KEY", "test-key")
        .args(["-p", TASK])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let first = server.chat_requests().remove(0);
    let (_, tools) = told(&first.body);
    let offered: Vec<&str> = tools
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(offered, EVERY_TOOL);
    assert!(
        first.raw_body.len() <= FIRST_REQUEST_MAX_BYTES,
        "the first request takes {} bytes",
        first.raw_body.len()
    );
}
