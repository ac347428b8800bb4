//! Delegation end to end: the `agent` tool runs sub-agents defined in the project's agent folders, each on the
//! provider its definition names (its requests reach that provider's server with that provider's key, its own
//! system prompt and only its tools), and a definition naming a provider the user did not configure is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod acp;
mod cost;
mod escape;
mod parallel;
mod repl;
mod resume;
mod review;
mod review_repl;
mod stream_json;
mod task_list;

use serde_json::{Value, json};

use crate::support::{CliSandbox, RecordedRequest, Reply, ScriptedServer, stderr_of};

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews changes strictly.\ntools: Read, Grep\n\
                        model: deepseek/deepseek-chat\n---\nYou review code. Be strict.\n";

/// The first file under `dir` whose name contains `part`.
fn find_file(dir: &std::path::Path, part: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, part) {
                return Some(found);
            }
        } else if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().contains(part))
        {
            return Some(path);
        }
    }
    None
}

fn tool_names(request: &RecordedRequest) -> Vec<String> {
    request.body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn system_prompt(request: &RecordedRequest) -> String {
    request.body["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The tool messages of a request, in order.
fn tool_results(request: &RecordedRequest) -> Vec<(String, String)> {
    request.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap_or_default().to_string(),
                m["content"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn agent_call(id: &str, agent: &str, prompt: &str) -> (String, String, Value) {
    (
        id.to_string(),
        "agent".to_string(),
        json!({"agent": agent, "prompt": prompt, "description": "check"}),
    )
}

#[test]
fn a_project_agent_runs_on_its_own_provider_with_its_own_prompt_and_tools() {
    let lead = ScriptedServer::with_replies([
        Reply::tool_calls([agent_call(
            "call_rev",
            "reviewer",
            "Review the change to a.txt",
        )]),
        Reply::text("The reviewer found nothing."),
    ]);
    let second = ScriptedServer::with_replies([
        Reply::tool_calls([("call_read", "read_file", json!({"path": "a.txt"}))]),
        Reply::text("LGTM: no findings."),
    ]);
    let sandbox = CliSandbox::new()
        .with_env("DEEPSEEK_API_KEY", "sk-second-provider")
        .with_env("DEEPSEEK_BASE_URL", &second.url());
    sandbox.project_file(".claude/agents/reviewer.md", REVIEWER);
    sandbox.project_file("a.txt", "hello\n");
    let output = sandbox
        .against(&lead)
        .args(["--approval", "full", "-p", "review my change"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );

    let lead_requests = lead.chat_requests();
    assert_eq!(lead_requests.len(), 2);
    assert!(tool_names(&lead_requests[0]).contains(&"agent".to_string()));
    for request in &lead_requests {
        assert_ne!(
            request.header("authorization"),
            Some("Bearer sk-second-provider")
        );
    }
    let results = tool_results(&lead_requests[1]);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].0, "call_rev");
    assert!(
        results[0].1.contains("LGTM: no findings."),
        "{}",
        results[0].1
    );

    let sub = second.chat_requests();
    assert_eq!(
        sub.len(),
        2,
        "the reviewer's requests reach the second provider"
    );
    assert!(tool_results(&sub[1])[0].1.contains("hello"));
    assert_eq!(
        sub[0].header("authorization"),
        Some("Bearer sk-second-provider")
    );
    assert_eq!(sub[0].body["model"], "deepseek-chat");
    assert_eq!(system_prompt(&sub[0]), "You review code. Be strict.");
    let mut tools = tool_names(&sub[0]);
    tools.sort();
    assert_eq!(tools, ["grep_code", "read_file"]);
    // The sub-agent is recorded in a sidechain beside the session's ledger.
    let sidechain = find_file(&sandbox.paicli_home(), "reviewer-call_rev").expect("a sidechain");
    let recorded = std::fs::read_to_string(&sidechain).unwrap();
    assert!(
        recorded.contains("LGTM: no findings.") && recorded.contains("Be strict."),
        "{recorded}"
    );
    // The sub-agent's calls are shown tagged with its name.
    let stderr = stderr_of(&output);
    assert!(stderr.contains("→ [reviewer] read_file a.txt"), "{stderr}");
}

#[test]
fn a_project_agent_naming_a_provider_the_user_did_not_configure_is_refused() {
    let lead = ScriptedServer::with_replies([
        Reply::tool_calls([agent_call("call_k", "cheap", "Explore")]),
        Reply::text("done"),
    ]);
    let sandbox = CliSandbox::new();
    sandbox.project_file(
        ".paicli/agents/cheap.md",
        "---\nname: cheap\ndescription: Cheap explorer.\nprovider: kimi\nmodel: kimi-k2\n---\nExplore.\n",
    );
    // A key the project itself supplies does not make the provider the user's.
    sandbox.project_file(".env", "KIMI_API_KEY=sk-from-the-repository\n");
    let output = sandbox
        .against(&lead)
        .args(["--approval", "full", "-p", "explore"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let requests = lead.chat_requests();
    assert_eq!(requests.len(), 2);
    let results = tool_results(&requests[1]);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].1.contains("AGENT_MODEL_REFUSED")
            && results[0]
                .1
                .contains("provider `kimi`, which you have not configured"),
        "{}",
        results[0].1
    );
}

/// The first request's bytes with `env` set, and the names of its tools.
fn first_request(env: &[(&str, &str)]) -> (usize, Vec<String>) {
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let mut sandbox = CliSandbox::new();
    for (name, value) in env {
        sandbox = sandbox.with_env(name, value);
    }
    let output = sandbox
        .against(&server)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let first = server.chat_requests().remove(0);
    (first.raw_body.len(), tool_names(&first))
}

#[test]
fn agent_and_update_plan_add_little_to_the_first_request_and_each_can_be_switched_off() {
    let (with, names) = first_request(&[]);
    assert!(names.contains(&"agent".to_string()) && names.contains(&"update_plan".to_string()));
    let (without, names) =
        first_request(&[("PAICLI_AGENTS", "false"), ("PAICLI_TASK_LIST", "false")]);
    assert!(!names.contains(&"agent".to_string()) && !names.contains(&"update_plan".to_string()));
    let (no_list, names) = first_request(&[("PAICLI_TASK_LIST", "false")]);
    assert!(names.contains(&"agent".to_string()) && !names.contains(&"update_plan".to_string()));
    assert!(no_list < with);
    eprintln!("first request bytes: {with} with agent and update_plan, {without} without");
    assert!(
        with - without <= 1_400,
        "the two tools cost {} bytes",
        with - without
    );
}

#[test]
fn the_planner_runs_on_the_model_plan_planner_model_names() {
    let planner = ScriptedServer::with_replies([Reply::text(
        json!({"tasks": [
            {"id": "A", "title": "Task A", "description": "", "depends_on": []},
            {"id": "B", "title": "Task B", "description": "", "depends_on": ["A"]}
        ]})
        .to_string(),
    )]);
    let lead = ScriptedServer::with_responder(|_| Reply::text("done"));
    let sandbox = CliSandbox::new()
        .with_env("DEEPSEEK_API_KEY", "sk-planner")
        .with_env("DEEPSEEK_BASE_URL", &planner.url());
    sandbox.user_config("[plan]\nplanner_model = \"deepseek/deepseek-reasoner\"\n");
    let output = sandbox
        .against(&lead)
        .args([
            "--approval",
            "full",
            "--plan",
            "-p",
            "write a.txt; then write b.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    let planned = planner.chat_requests();
    assert_eq!(
        planned.len(),
        1,
        "the planner's request reaches its provider"
    );
    assert_eq!(planned[0].body["model"], "deepseek-reasoner");
    assert_eq!(
        planned[0].header("authorization"),
        Some("Bearer sk-planner")
    );
    // The tasks ran on the session's model.
    assert!(lead.chat_requests().len() >= 2);
    for request in lead.chat_requests() {
        assert!(!system_prompt(&request).contains("You are the planner"));
    }
}
