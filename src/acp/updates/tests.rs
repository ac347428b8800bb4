#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::plan::CallTasks;
use crate::protocol::plan::{Plan, PlanTask, PlanTaskOutcome};

fn task(id: &str, title: &str, depends_on: &[&str]) -> PlanTask {
    PlanTask {
        id: id.into(),
        title: title.into(),
        description: String::new(),
        depends_on: depends_on.iter().map(|d| d.to_string()).collect(),
    }
}

fn plan() -> Plan {
    Plan {
        goal: "ship it".into(),
        tasks: vec![
            task("a", "Read the code", &[]),
            task("b", "Change it", &["a"]),
        ],
    }
}

/// The updates as the editor receives them.
fn wire(updates: Vec<SessionUpdate>) -> Vec<Value> {
    updates
        .into_iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect()
}

fn entries(statuses: [&str; 2]) -> Value {
    json!({
        "sessionUpdate": "plan",
        "entries": [
            {"content": "Read the code", "priority": "high", "status": statuses[0]},
            {"content": "Change it", "priority": "medium", "status": statuses[1]},
        ]
    })
}

#[test]
fn a_plan_is_sent_whole_with_each_task_change() {
    let mut mapper = UpdateMapper::default();
    let proposed = mapper.map(AgentEvent::PlanProposed {
        plan: plan(),
        revision: 0,
    });
    assert_eq!(wire(proposed), [entries(["pending", "pending"])]);
    let started = mapper.map(AgentEvent::PlanTaskStarted {
        task_id: "a".into(),
        title: "Read the code".into(),
    });
    assert_eq!(wire(started), [entries(["in_progress", "pending"])]);
    let finished = mapper.map(AgentEvent::PlanTaskFinished {
        task_id: "a".into(),
        state: TaskState::Done,
        summary: "read".into(),
    });
    assert_eq!(wire(finished), [entries(["completed", "pending"])]);
    let failed = mapper.map(AgentEvent::PlanFinished {
        outcomes: vec![PlanTaskOutcome {
            task_id: "b".into(),
            title: "Change it".into(),
            state: TaskState::Skipped,
            summary: "a failed".into(),
        }],
    });
    assert_eq!(wire(failed), [entries(["completed", "completed"])]);
}

#[test]
fn an_unknown_task_sends_nothing() {
    let mut mapper = UpdateMapper::default();
    mapper.map(AgentEvent::PlanProposed {
        plan: plan(),
        revision: 0,
    });
    let updates = mapper.map(AgentEvent::PlanTaskStarted {
        task_id: "zz".into(),
        title: "?".into(),
    });
    assert!(updates.is_empty());
}

#[test]
fn a_sub_agents_events_read_as_ordinary_updates() {
    let mut mapper = UpdateMapper::default();
    let wrap = |event| AgentEvent::PlanTaskEvent {
        task_id: "a".into(),
        event: Box::new(event),
    };
    let started = mapper.map(wrap(AgentEvent::ToolCallStarted {
        id: "call_1".into(),
        name: "edit_file".into(),
        arguments: json!({"path": "a.txt", "old_text": "x", "new_text": "y"}).to_string(),
    }));
    let text = mapper.map(wrap(AgentEvent::TextDelta {
        text: "done".into(),
    }));
    let started = wire(started);
    assert_eq!(started[0]["sessionUpdate"], "tool_call");
    assert_eq!(started[0]["toolCallId"], "call_1");
    assert_eq!(started[0]["kind"], "edit");
    assert_eq!(started[0]["locations"], json!([{"path": "a.txt"}]));
    assert_eq!(started[0]["title"], "[a] edit_file");
    assert_eq!(
        wire(text),
        [
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "done"}})
        ]
    );
}

#[test]
fn leaving_plan_mode_is_a_mode_update_and_other_notices_send_nothing() {
    let mut mapper = UpdateMapper::default();
    let left = mapper.map(AgentEvent::Notice {
        notice: Notice::PlanModeLeft { mode: "ask".into() },
    });
    assert_eq!(
        wire(left),
        [json!({"sessionUpdate": "current_mode_update", "currentModeId": "ask"})]
    );
    let other = mapper.map(AgentEvent::Notice {
        notice: Notice::PlanSingleStep,
    });
    assert!(other.is_empty());
}

#[test]
fn the_plan_for_review_lists_ids_dependencies_and_descriptions() {
    let mut plan = plan();
    plan.tasks[0].description = "Find the parser\n\n  and its tests".into();
    let text = super::super::plan::plan_markdown(crate::text::Lang::En, &plan);
    assert_eq!(
        text,
        "1. **Read the code** `a`\n   Find the parser\n   and its tests\n2. **Change it** `b` (after a)\n"
    );
    let zh = super::super::plan::plan_markdown(crate::text::Lang::Zh, &plan);
    assert!(zh.contains("(依赖 a)"), "{zh}");
}

#[test]
fn the_task_of_a_running_call_is_known_until_it_ends_and_a_shared_id_names_neither() {
    let tasks = CallTasks::default();
    let mut mapper = UpdateMapper::with_tasks(tasks.clone());
    let in_task = |task: &str, event| AgentEvent::PlanTaskEvent {
        task_id: task.into(),
        event: Box::new(event),
    };
    let started = |id: &str| AgentEvent::ToolCallStarted {
        id: id.into(),
        name: "write_file".into(),
        arguments: "{}".into(),
    };
    mapper.map(in_task("B", started("call_1")));
    assert_eq!(tasks.titled("call_1", "write_file"), "[B] write_file");
    assert_eq!(tasks.titled("call_9", "write_file"), "write_file");
    mapper.map(in_task(
        "B",
        AgentEvent::ToolCallFinished {
            id: "call_1".into(),
            name: "write_file".into(),
            status: ToolStatus::Ok,
            detail: String::new(),
            duration_ms: 1,
            output_chars: 0,
            diff: None,
        },
    ));
    assert_eq!(tasks.task_of("call_1"), None);
    // Two running tasks whose model chose the same id: the title names neither.
    mapper.map(in_task("B", started("call_2")));
    let second = wire(mapper.map(in_task("C", started("call_2"))));
    assert_eq!(second[0]["title"], "write_file");
    assert_eq!(tasks.task_of("call_2"), None);
    // The lead's own calls are not tagged.
    let lead = wire(mapper.map(started("call_3")));
    assert_eq!(lead[0]["title"], "write_file");
}
