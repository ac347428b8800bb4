//! The task list and a delegated agent as an editor sees them over ACP (the real TypeScript SDK client): the list
//! as `plan` updates, the sub-agent's calls titled with its name and `_meta` naming the parent `agent` call.

use serde_json::json;

use crate::suite::acp::updates_of;
use crate::suite::acp_editor::Editor;
use crate::support::{Reply, ScriptedServer};

#[test]
fn the_task_list_is_plan_updates_and_a_sub_agents_calls_name_their_parent() {
    let Some(editor) = Editor::new() else { return };
    std::fs::write(editor.root.join("a.txt"), "alpha\n").unwrap();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_plan",
            "update_plan",
            json!({"plan": [{"step": "Look around", "status": "in_progress"}, {"step": "Answer", "status": "pending"}]}),
        )]),
        Reply::tool_calls([(
            "call_agent",
            "agent",
            json!({"agent": "explore", "prompt": "Read a.txt", "description": "read it"}),
        )]),
        // The explorer's own turn: one read, then its report.
        Reply::tool_calls([("call_read", "read_file", json!({"path": "a.txt"}))]),
        Reply::text("a.txt says alpha"),
        Reply::tool_calls([(
            "call_plan_2",
            "update_plan",
            json!({"plan": [{"step": "Look around", "status": "completed"}, {"step": "Answer", "status": "in_progress"}]}),
        )]),
        Reply::text("It says alpha."),
    ]);
    let seen = editor.run(
        &model,
        json!({"steps": [{"new": editor.root}, {"prompt": "what does a.txt say?"}]}),
    );
    let step = &seen["steps"][1];
    assert_eq!(step["stopReason"], "end_turn", "{seen}");
    let plans: Vec<_> = updates_of(step, "plan")
        .into_iter()
        .map(|u| u["entries"].clone())
        .collect();
    assert_eq!(
        plans,
        [
            json!([{"content": "Look around", "priority": "high", "status": "in_progress"},
                   {"content": "Answer", "priority": "medium", "status": "pending"}]),
            json!([{"content": "Look around", "priority": "medium", "status": "completed"},
                   {"content": "Answer", "priority": "high", "status": "in_progress"}]),
        ]
    );
    let read = updates_of(step, "tool_call")
        .into_iter()
        .find(|u| u["toolCallId"] == "call_read")
        .unwrap_or_else(|| panic!("{seen}"));
    assert!(
        read["title"]
            .as_str()
            .unwrap()
            .starts_with("[explore] read_file"),
        "{read}"
    );
    assert_eq!(
        read["_meta"],
        json!({"paicli": {"agent": "explore", "parentToolCallId": "call_agent"}})
    );
    // The explorer's report reached the lead as the agent call's result, not as the lead's words.
    let said: String = updates_of(step, "agent_message_chunk")
        .iter()
        .filter_map(|u| u["content"]["text"].as_str())
        .collect();
    assert_eq!(said, "It says alpha.");
}
