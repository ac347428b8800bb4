//! Plan mode from an editor (`paicli acp` on the real TypeScript SDK): the approval modes are the session's modes,
//! a prompt in plan mode is planned, the plan goes out as a `plan` update and a `think` call the editor is asked
//! to run, and approving it returns the session to the mode it had before plan mode.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use super::acp::updates_of;
use super::acp_editor::{Editor, edit};
use crate::support::{Reply, ScriptedServer};

/// The first message of the planner's requests.
const PLANNER: &str = "Make a plan for this goal";

fn task(id: &str) -> String {
    format!("Your task (id `{id}`)")
}

/// A scripted model whose planner proposes A, then B after A; A fixes the greeting, B reports.
fn planning_model() -> ScriptedServer {
    let server = ScriptedServer::start();
    let tasks = json!({"tasks": [
        {"id": "A", "title": "Fix the greeting", "description": "Correct helo in notes.txt", "depends_on": []},
        {"id": "B", "title": "Report", "description": "", "depends_on": ["A"]},
    ]});
    server.route_task(PLANNER, [Reply::text(tasks.to_string())]);
    server.route_task(
        task("A"),
        [
            Reply::tool_calls([("call_edit", "edit_file", edit("notes.txt", "helo", "hello"))]),
            Reply::text("The greeting is fixed."),
        ],
    );
    server.route_task(task("B"), [Reply::text("Both steps are done.")]);
    server
}

/// An editor on a project whose notes.txt has the typo, and the planning model; `None` without the SDK.
fn greeting_project() -> Option<(Editor, std::path::PathBuf, ScriptedServer)> {
    let editor = Editor::new()?;
    let root = editor.root.clone();
    std::fs::write(root.join("notes.txt"), "helo world\n").unwrap();
    Some((editor, root, planning_model()))
}

const GOAL: &str = "Fix the greeting in notes.txt, then report that it is done";

fn plan_entries(update: &Value) -> Vec<(String, String)> {
    update["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["content"].as_str().unwrap().to_string(),
                e["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_plan_made_in_plan_mode_is_shown_asked_about_run_and_the_mode_returns() {
    let Some((editor, root, model)) = greeting_project() else {
        return;
    };
    let seen = editor.run(
        &model,
        json!({"steps": [{"new": root}, {"mode": "plan"}, {"prompt": GOAL}]}),
    );

    // The approval modes are the session modes; the flags chose `ask`.
    let modes = &seen["steps"][0]["modes"];
    assert_eq!(modes["currentModeId"], "ask", "{modes}");
    let ids: Vec<&str> = modes["availableModes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["auto", "plan", "ask", "full"]);

    let run = &seen["steps"][2];
    assert_eq!(run["stopReason"], "end_turn", "{run}");
    // The plan is asked about first, then (back in ask mode) the edit its task makes.
    assert_eq!(
        seen["permissions"],
        json!([
            {"toolCallId": "plan_1", "tool": "Plan: 2 tasks"},
            {"toolCallId": "call_edit", "tool": "[A] edit_file"},
        ])
    );
    let shown = updates_of(run, "tool_call");
    let plan_call = shown.iter().find(|c| c["toolCallId"] == "plan_1").unwrap();
    assert_eq!(plan_call["kind"], "think");
    let listed = plan_call["content"][0]["content"]["text"].as_str().unwrap();
    assert!(listed.contains("1. **Fix the greeting** `A`"), "{listed}");
    assert!(listed.contains("Correct helo in notes.txt"), "{listed}");
    assert!(listed.contains("2. **Report** `B` (after A)"), "{listed}");
    assert_eq!(
        updates_of(run, "current_mode_update")
            .iter()
            .map(|u| u["currentModeId"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["ask"]
    );
    let plans = updates_of(run, "plan");
    let pending = [
        ("Fix the greeting".to_string(), "pending".to_string()),
        ("Report".to_string(), "pending".to_string()),
    ];
    assert_eq!(plan_entries(plans[0]), pending);
    let done = [
        ("Fix the greeting".to_string(), "completed".to_string()),
        ("Report".to_string(), "completed".to_string()),
    ];
    assert_eq!(plan_entries(plans.last().unwrap()), done);
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "hello world\n"
    );
    let said: String = updates_of(run, "agent_message_chunk")
        .iter()
        .filter_map(|u| u["content"]["text"].as_str())
        .collect();
    assert!(said.contains("Both steps are done."), "{said}");

    // The planner only researched: it was offered no tool that writes.
    let requests = model.chat_requests();
    let planner = requests
        .iter()
        .find(|r| r.body["messages"].to_string().contains(PLANNER))
        .unwrap();
    let offered = planner.body["tools"].to_string();
    assert!(offered.contains("read_file"), "{offered}");
    assert!(!offered.contains("edit_file"), "{offered}");
}

#[test]
fn a_declined_plan_runs_nothing_and_the_next_turn_knows_what_it_was() {
    let Some((editor, root, model)) = greeting_project() else {
        return;
    };
    model.push(Reply::text("I will wait until you want it run."));
    let seen = editor.run(
        &model,
        json!({
            "answers": {"plan_1": "reject_once"},
            "steps": [
                {"new": root},
                {"mode": "plan"},
                {"prompt": GOAL},
                {"mode": "auto"},
                {"prompt": "what did you propose?"},
            ],
        }),
    );
    let declined = &seen["steps"][2];
    assert_eq!(declined["stopReason"], "end_turn", "{declined}");
    assert!(updates_of(declined, "current_mode_update").is_empty());
    let plan_call = updates_of(declined, "tool_call_update")
        .into_iter()
        .find(|u| u["toolCallId"] == "plan_1")
        .unwrap();
    assert_eq!(plan_call["status"], "failed");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "helo world\n"
    );
    // Only the planner and then the next turn asked the model: no task ran.
    let requests = model.chat_requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    let next = requests[1].body["messages"].to_string();
    assert!(next.contains("Plan proposed, not run"), "{next}");
    assert!(next.contains("[A] Fix the greeting"), "{next}");
    assert_eq!(seen["steps"][4]["stopReason"], "end_turn");
}

#[test]
fn stopping_the_prompt_at_the_plan_question_runs_nothing_and_answers_cancelled() {
    let Some((editor, root, model)) = greeting_project() else {
        return;
    };
    let seen = editor.run(
        &model,
        json!({
            "answers": {"plan_1": "cancel"},
            "steps": [{"new": root}, {"mode": "plan"}, {"prompt": GOAL}],
        }),
    );
    let run = &seen["steps"][2];
    assert_eq!(run["stopReason"], "cancelled", "{run}");
    assert!(updates_of(run, "current_mode_update").is_empty());
    assert_eq!(model.chat_requests().len(), 1, "only the planner ran");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).unwrap(),
        "helo world\n"
    );
}
