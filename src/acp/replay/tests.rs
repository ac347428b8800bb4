#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::acp::updates::tests::calls;
use crate::tools::boundary::wrap;

fn call(id: &str, name: &str, args: Value) -> CallRequest {
    CallRequest {
        id: id.into(),
        name: name.into(),
        arguments: args.to_string(),
    }
}

fn wire(updates: Vec<SessionUpdate>) -> Vec<Value> {
    updates
        .into_iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect()
}

#[test]
fn a_stored_turn_replays_as_the_updates_seen_live() {
    let edit = json!({"path": "notes.txt", "old_text": "helo", "new_text": "hello"});
    let history = vec![
        Message::system("you are paicli"),
        Message::user("fix notes.txt"),
        Message::assistant_tool_calls(
            "",
            Some("the typo".into()),
            vec![
                call("call_edit", "edit_file", edit.clone()),
                call("call_run", "execute_command", json!({"command": "make"})),
            ],
        ),
        Message::tool(
            "call_edit",
            wrap("edit_file", "Edited notes.txt: 1 replacement"),
        ),
        Message::tool(
            "call_run",
            wrap("execute_command", "[denied: REJECTED] the user said no"),
        ),
        Message::assistant("Fixed."),
    ];
    let updates = wire(replay(&history, &calls()));
    let kinds: Vec<&str> = updates
        .iter()
        .map(|u| u["sessionUpdate"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "user_message_chunk",
            "agent_thought_chunk",
            "tool_call",
            "tool_call",
            "agent_message_chunk"
        ]
    );
    assert_eq!(updates[0]["content"]["text"], "fix notes.txt");
    assert_eq!(updates[1]["content"]["text"], "the typo");
    let edited = &updates[2];
    assert_eq!(edited["toolCallId"], "call_edit");
    assert_eq!(edited["status"], "completed");
    assert_eq!(edited["rawInput"], edit);
    assert_eq!(
        edited["content"],
        json!([{"type": "diff", "path": "/project/notes.txt", "oldText": "helo", "newText": "hello"}])
    );
    let refused = &updates[3];
    assert_eq!(refused["toolCallId"], "call_run");
    assert_eq!(refused["status"], "failed");
    assert_eq!(
        refused["content"][0]["content"]["text"],
        "[denied: REJECTED] the user said no"
    );
    assert_eq!(updates[4]["content"]["text"], "Fixed.");
}

#[test]
fn every_failed_outcome_reads_as_failed() {
    for body in [
        "[error] cannot write",
        "[aborted by user]",
        "[aborted by user] partial output:\nx",
        "[denied: PATH] outside",
    ] {
        assert!(
            !succeeded(crate::tools::boundary::unwrap(&wrap("t", body))),
            "{body}"
        );
    }
    assert!(succeeded(crate::tools::boundary::unwrap(&wrap(
        "t",
        "[info] fine"
    ))));
    assert_eq!(
        crate::tools::boundary::unwrap(&wrap("t", "two\nlines")),
        "two\nlines"
    );
    assert_eq!(crate::tools::boundary::unwrap("not wrapped"), "not wrapped");
}
