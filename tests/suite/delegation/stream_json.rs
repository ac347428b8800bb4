//! Delegation in `-p --output-format stream-json`: the `agent` call reads as Claude's `Task`, the sub-agent's
//! messages carry that call's id as `parent_tool_use_id` (the lead's carry `null`), the task list is a `system`
//! message `task_list`, and the result's `modelUsage` has a line for the sub-agent's model apart from the lead's.

use serde_json::{Value, json};

use super::{REVIEWER, agent_call};
use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

#[test]
fn a_sub_agents_messages_name_their_task_and_its_model_is_counted_apart() {
    let plan = json!({"plan": [{"step": "Review", "status": "in_progress"}]});
    let lead = ScriptedServer::with_replies([
        Reply::tool_calls([("call_plan", "update_plan", plan)]).usage(100, 10),
        Reply::tool_calls([agent_call("call_rev", "reviewer", "Review a.txt")]).usage(200, 20),
        Reply::text("The reviewer found nothing.").usage(300, 30),
    ]);
    let second = ScriptedServer::with_replies([
        Reply::tool_calls([("call_read", "read_file", json!({"path": "a.txt"}))]).usage(7, 1),
        Reply::text("LGTM: no findings.").usage(9, 2),
    ]);
    let sandbox = CliSandbox::new()
        .with_env("DEEPSEEK_API_KEY", "sk-second-provider")
        .with_env("DEEPSEEK_BASE_URL", &second.url());
    sandbox.project_file(".claude/agents/reviewer.md", REVIEWER);
    sandbox.project_file("a.txt", "hello\n");
    let output = sandbox
        .against(&lead)
        .args([
            "--approval",
            "full",
            "--output-format",
            "stream-json",
            "--verbose",
            "-p",
            "review my change",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let tool_use = |m: &Value| -> Option<Value> {
        m["message"]["content"]
            .as_array()?
            .iter()
            .find(|b| b["type"] == "tool_use")
            .cloned()
    };

    // The lead's call is Claude's Task, and its messages belong to no task.
    let task = lines
        .iter()
        .find(|m| tool_use(m).is_some_and(|b| b["id"] == "call_rev"))
        .expect("the agent call");
    assert_eq!(task["parent_tool_use_id"], Value::Null, "{task}");
    assert_eq!(tool_use(task).unwrap()["name"], "Task", "{task}");
    assert_eq!(
        tool_use(task).unwrap()["input"],
        json!({"subagent_type": "reviewer", "prompt": "Review a.txt", "description": "check"})
    );
    // The sub-agent's call, its result and its answer name the Task call as their parent.
    let read = lines
        .iter()
        .find(|m| tool_use(m).is_some_and(|b| b["id"] == "call_read"))
        .expect("the sub-agent's call");
    assert_eq!(read["parent_tool_use_id"], "call_rev", "{read}");
    assert_eq!(read["message"]["model"], "deepseek-chat", "{read}");
    let read_result = lines
        .iter()
        .find(|m| m["type"] == "user" && m["message"]["content"][0]["tool_use_id"] == "call_read")
        .expect("the sub-agent's call result");
    assert_eq!(read_result["parent_tool_use_id"], "call_rev");
    let answer = lines
        .iter()
        .find(|m| {
            m["type"] == "assistant" && m["message"]["content"][0]["text"] == "LGTM: no findings."
        })
        .expect("the sub-agent's answer");
    assert_eq!(answer["parent_tool_use_id"], "call_rev");
    let task_result = lines
        .iter()
        .find(|m| m["type"] == "user" && m["message"]["content"][0]["tool_use_id"] == "call_rev")
        .expect("the Task result");
    assert_eq!(task_result["parent_tool_use_id"], Value::Null);

    // The task list is a system message; update_plan keeps its own name.
    let list = lines
        .iter()
        .find(|m| m["type"] == "system" && m["subtype"] == "task_list")
        .expect("a task_list message");
    assert_eq!(list["list"]["plan"][0]["step"], "Review", "{list}");
    assert!(
        lines
            .iter()
            .any(|m| tool_use(m).is_some_and(|b| b["name"] == "update_plan")),
        "{stdout}"
    );

    // modelUsage: the reviewer's model apart from the lead's.
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    let usage = &result["modelUsage"];
    // Another provider's model is named with its provider, as `/cost` names it.
    assert_eq!(
        usage["deepseek/deepseek-chat"]["inputTokens"], 16,
        "{usage}"
    );
    assert_eq!(
        usage["deepseek/deepseek-chat"]["outputTokens"], 3,
        "{usage}"
    );
    let lead_model = result["model"].as_str().unwrap();
    assert_eq!(usage[lead_model]["inputTokens"], 600, "{usage}");
    assert_eq!(usage[lead_model]["outputTokens"], 60, "{usage}");
}
