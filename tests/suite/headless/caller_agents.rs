//! Agents the caller gives in Claude's shape (`--agents`, `initialize`'s `agents`): the model may delegate to
//! them, the `agent` tool lists them, and the client is told they exist.

use serde_json::{Value, json};

use super::print_json::lines;
use crate::support::{CliSandbox, Reply, ScriptedServer, run_with_stdin, stderr_of};

const SCOUT: &str = r#"{"scout": {"description": "Finds files.", "prompt": "You are scout, who finds files.",
    "tools": ["Read", "Glob"], "model": "haiku"}}"#;

/// A lead that hands "find the notes" to `scout`, a scout that answers, and the lead's answer.
fn delegating_server() -> ScriptedServer {
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_task",
            "agent",
            json!({"agent": "scout", "prompt": "find the notes", "description": "find notes"}),
        )]),
        Reply::text("Scout found notes.txt."),
    ]);
    server.route_task("find the notes", [Reply::text("notes.txt is at the root.")]);
    server
}

/// The `agent` tool's description in a request.
fn agent_tool_description(request: &Value) -> String {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "agent")
        .map(|t| t["function"]["description"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

/// Checks that the lead offered scout and that scout ran with its own prompt, tools and the lead's model.
fn assert_scout_ran(server: &ScriptedServer) {
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 3, "lead, scout, lead");
    assert!(
        agent_tool_description(&requests[0].body).contains("- scout: Finds files."),
        "{}",
        agent_tool_description(&requests[0].body)
    );
    let scout = requests
        .iter()
        .find(|r| r.body["messages"].to_string().contains("find the notes"))
        .unwrap();
    let system = scout.body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("You are scout, who finds files."),
        "{system}"
    );
    let mut tools: Vec<&str> = scout.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    tools.sort();
    assert_eq!(tools, ["glob_files", "read_file"]);
    // `haiku` without an Anthropic provider is the lead's model.
    assert_eq!(scout.body["model"], requests[0].body["model"]);
}

#[test]
fn agents_on_the_command_line_are_delegated_to_and_listed_in_init() {
    let sandbox = CliSandbox::new();
    let server = delegating_server();
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "delegate it",
            "--output-format=stream-json",
            "--verbose",
        ])
        .args(["--agents", SCOUT])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_scout_ran(&server);
    let messages = lines(&output);
    let init = &messages[0];
    assert_eq!(init["subtype"], "init");
    let agents: Vec<&str> = init["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        agents.contains(&"scout") && agents.contains(&"general"),
        "{agents:?}"
    );
    // The scout's answer came back as the `Task` call's result.
    let result = messages
        .iter()
        .find(|m| m["type"] == "user" && m["parent_tool_use_id"].is_null())
        .unwrap();
    assert!(
        result["message"]["content"][0]["content"]
            .as_str()
            .unwrap()
            .contains("notes.txt is at the root."),
        "{result}"
    );
}

#[test]
fn agents_sent_with_initialize_are_answered_and_offered_from_the_next_turn() {
    let sandbox = CliSandbox::new();
    let server = delegating_server();
    let mut cmd = sandbox.against(&server);
    cmd.args([
        "--input-format=stream-json",
        "--output-format=stream-json",
        "--verbose",
    ]);
    let agents: Value = serde_json::from_str(SCOUT).unwrap();
    let input = [
        json!({"type": "control_request", "request_id": "init_1",
               "request": {"subtype": "initialize", "hooks": null, "agents": agents}}),
        json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
               "message": {"role": "user", "content": "delegate it"}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect::<String>();
    let output = run_with_stdin(cmd, input.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let messages = lines(&output);
    let answer = messages
        .iter()
        .find(|m| m["type"] == "control_response")
        .unwrap();
    let listed = answer["response"]["response"]["agents"].as_array().unwrap();
    assert!(
        listed.contains(&json!({"name": "scout", "description": "Finds files.", "model": "haiku"})),
        "{listed:?}"
    );
    assert_scout_ran(&server);
}

#[test]
fn a_broken_agents_flag_is_refused_at_start() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi", "--output-format=json"])
        .args(["--agents", r#"{"scout": {"description": "No prompt."}}"#])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("scout"),
        "{}",
        stderr_of(&output)
    );
    assert!(server.chat_requests().is_empty());
}
