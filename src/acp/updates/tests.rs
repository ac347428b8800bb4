#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::plan::CallTasks;
use crate::protocol::ToolKind as Kind;
use crate::protocol::plan::{Plan, PlanTask, PlanTaskOutcome};
use crate::tools::project::CreateProject;
use crate::tools::{SpillStore, ToolLimits, core_tools};

/// The core tools and `create_project`, for a project at `/project` (the replay's tests share it).
pub(in crate::acp) fn calls() -> CallTools {
    let root = PathBuf::from("/project");
    let spill = SpillStore::new(&root, true, 32_000);
    let mut tools = core_tools(&ToolLimits::default(), &spill);
    tools.push(Arc::new(CreateProject));
    CallTools {
        tools: Arc::new(ToolRegistry::with_tools(tools)),
        root,
    }
}

fn mapper() -> UpdateMapper {
    UpdateMapper::new(calls(), CallTasks::default())
}

fn started(id: &str, name: &str, args: Value) -> AgentEvent {
    AgentEvent::ToolCallStarted {
        id: id.into(),
        name: name.into(),
        arguments: args.to_string(),
        kind: Kind::Other,
        summary: String::new(),
    }
}

fn finished(id: &str, name: &str) -> AgentEvent {
    AgentEvent::ToolCallFinished {
        id: id.into(),
        name: name.into(),
        status: ToolStatus::Ok,
        detail: String::new(),
        duration_ms: 1,
        output_chars: 0,
        diff: None,
    }
}

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
    let mut mapper = mapper();
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
    let mut mapper = mapper();
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
    let mut mapper = mapper();
    let wrap = |event| AgentEvent::PlanTaskEvent {
        task_id: "a".into(),
        event: Box::new(event),
    };
    let started = mapper.map(wrap(started(
        "call_1",
        "edit_file",
        json!({"path": "a.txt", "old_text": "x", "new_text": "y"}),
    )));
    let text = mapper.map(wrap(AgentEvent::TextDelta {
        text: "done".into(),
    }));
    let started = wire(started);
    assert_eq!(started[0]["sessionUpdate"], "tool_call");
    assert_eq!(started[0]["toolCallId"], "call_1");
    assert_eq!(started[0]["kind"], "edit");
    assert_eq!(started[0]["locations"], json!([{"path": "/project/a.txt"}]));
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
    let mut mapper = mapper();
    let left = mapper.map(AgentEvent::Notice {
        notice: Notice::PlanModeLeft { mode: "ask".into() },
    });
    assert_eq!(
        wire(left),
        [json!({"sessionUpdate": "current_mode_update", "currentModeId": "ask"})]
    );
    let other = mapper.map(AgentEvent::Notice {
        notice: Notice::PlanRepairing { error: "x".into() },
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
    let mut mapper = UpdateMapper::new(calls(), tasks.clone());
    let in_task = |task: &str, event| AgentEvent::PlanTaskEvent {
        task_id: task.into(),
        event: Box::new(event),
    };
    let started = |id: &str| started(id, "write_file", json!({}));
    mapper.map(in_task("B", started("call_1")));
    assert_eq!(tasks.titled("call_1", "write_file"), "[B] write_file");
    assert_eq!(tasks.titled("call_9", "write_file"), "write_file");
    mapper.map(in_task("B", finished("call_1", "write_file")));
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

#[test]
fn each_call_shows_the_kind_and_absolute_locations_its_tool_declares() {
    let mut mapper = mapper();
    let cases = [
        (
            "read_file",
            json!({"path": "src/a.rs"}),
            "read",
            json!([{"path": "/project/src/a.rs"}]),
        ),
        (
            "grep_code",
            json!({"pattern": "fn", "path": "./src"}),
            "search",
            json!([{"path": "/project/src"}]),
        ),
        (
            "execute_command",
            json!({"command": "make"}),
            "execute",
            Value::Null,
        ),
        // create_project writes a folder of files: an edit, about that folder.
        (
            "create_project",
            json!({"name": "demo", "type": "rust"}),
            "edit",
            json!([{"path": "/project/demo"}]),
        ),
        (
            "write_file",
            json!({"path": "/project/b.txt", "content": "x"}),
            "edit",
            json!([{"path": "/project/b.txt"}]),
        ),
    ];
    for (i, (name, args, kind, locations)) in cases.into_iter().enumerate() {
        let call = wire(mapper.map(started(&format!("c{i}"), name, args)));
        assert_eq!(call[0]["kind"], kind, "{name}");
        assert_eq!(call[0]["locations"], locations, "{name}");
    }
    // A tool the session does not have reads as `other` (the default, left out on the wire).
    let unknown = wire(mapper.map(started("u", "mcp__x__y", json!({"path": "a"}))));
    assert_eq!(unknown[0].get("kind"), None);
    assert_eq!(unknown[0].get("locations"), None);
}

#[test]
fn a_finished_edit_carries_the_diff_its_tool_asked_for_at_an_absolute_path() {
    let mut mapper = mapper();
    mapper.map(started(
        "e",
        "edit_file",
        json!({"path": "notes.txt", "old_text": "helo", "new_text": "hello"}),
    ));
    mapper.map(started(
        "w",
        "write_file",
        json!({"path": "new.txt", "content": "hi\n"}),
    ));
    mapper.map(started(
        "r",
        "execute_command",
        json!({"command": "cat notes.txt"}),
    ));
    let edit = wire(mapper.map(finished("e", "edit_file")));
    assert_eq!(
        edit[0]["content"],
        json!([{"type": "diff", "path": "/project/notes.txt", "oldText": "helo", "newText": "hello"}])
    );
    let write = wire(mapper.map(finished("w", "write_file")));
    assert_eq!(
        write[0]["content"],
        json!([{"type": "diff", "path": "/project/new.txt", "newText": "hi\n"}])
    );
    let run = wire(mapper.map(finished("r", "execute_command")));
    assert_eq!(run[0]["content"], json!([]));
}

#[test]
fn a_delegated_agents_calls_are_titled_with_its_name_and_name_their_parent_call() {
    let mut mapper = mapper();
    let wrap = |event| AgentEvent::SubAgent {
        parent_call_id: "call_agent".into(),
        agent: "explore".into(),
        event: Box::new(event),
    };
    let started = wire(mapper.map(wrap(started(
        "call_2",
        "read_file",
        json!({"path": "a.txt"}),
    ))));
    let done = wire(mapper.map(wrap(finished("call_2", "read_file"))));
    let answer = mapper.map(wrap(AgentEvent::TextDelta {
        text: "report".into(),
    }));
    let meta = json!({"paicli": {"agent": "explore", "parentToolCallId": "call_agent"}});
    assert_eq!(started[0]["title"], "[explore] read_file");
    assert_eq!(started[0]["_meta"], meta);
    assert_eq!(done[0]["_meta"], meta);
    assert!(
        answer.is_empty(),
        "the sub-agent's answer is the agent call's result"
    );
}

#[test]
fn the_models_task_list_is_a_whole_plan_update() {
    use crate::protocol::{StepStatus, TaskList, TaskStep};
    let mut mapper = mapper();
    let list = TaskList {
        explanation: None,
        plan: vec![
            TaskStep {
                step: "read".into(),
                status: StepStatus::Completed,
            },
            TaskStep {
                step: "fix".into(),
                status: StepStatus::InProgress,
            },
        ],
    };
    let updates = wire(mapper.map(AgentEvent::TaskList { list }));
    assert_eq!(
        updates,
        [json!({"sessionUpdate": "plan", "entries": [
            {"content": "read", "priority": "medium", "status": "completed"},
            {"content": "fix", "priority": "high", "status": "in_progress"}
        ]})]
    );
}
