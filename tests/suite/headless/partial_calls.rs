//! `--include-partial-messages` streams a tool call as Anthropic does: a `tool_use` block whose arguments arrive
//! as `input_json_delta` pieces, inside a message that stops with `tool_use`.

use serde_json::{Value, json};

use super::print_json::lines;
use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

/// The `stream_event` events of the first model reply (up to its `message_stop`).
fn first_reply_events(messages: &[Value]) -> Vec<Value> {
    let mut events = Vec::new();
    for message in messages.iter().filter(|m| m["type"] == "stream_event") {
        events.push(message["event"].clone());
        if message["event"]["type"] == "message_stop" {
            break;
        }
    }
    events
}

#[test]
fn tool_calls_stream_as_tool_use_blocks_with_input_json_deltas() {
    let sandbox = CliSandbox::new();
    sandbox.project_file("a.txt", "alpha\n");
    let server = ScriptedServer::with_replies([
        Reply::reasoning_then_tool_calls(
            "Look first.",
            [
                ("call_glob", "glob_files", json!({"pattern": "**/*.txt"})),
                ("call_read", "read_file", json!({"path": "a.txt"})),
            ],
        ),
        Reply::text("It says alpha."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "-p",
            "read the text files",
            "--output-format=stream-json",
            "--verbose",
            "--include-partial-messages",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let messages = lines(&output);
    let events = first_reply_events(&messages);
    let kinds: Vec<String> = events
        .iter()
        .map(|e| {
            let kind = e["type"].as_str().unwrap();
            let sub = e["content_block"]["type"]
                .as_str()
                .or(e["delta"]["type"].as_str())
                .unwrap_or("");
            format!("{kind} {sub}").trim().to_string()
        })
        .collect();
    // The scripted server sends a call's arguments in three pieces.
    let glob_args = r#"{"pattern":"**/*.txt"}"#.len();
    let glob_pieces = glob_args.div_ceil(glob_args.div_ceil(3));
    let mut expected = vec!["message_start", "content_block_start thinking"];
    expected.extend(["content_block_delta thinking_delta"; 3]);
    expected.extend(["content_block_stop", "content_block_start tool_use"]);
    // `Glob`'s fields are paicli's: its pieces stream as they come.
    expected.extend(vec!["content_block_delta input_json_delta"; glob_pieces]);
    // `Read` renames `path`: its input comes whole, in Claude's fields, when the block stops.
    expected.extend([
        "content_block_stop",
        "content_block_start tool_use",
        "content_block_delta input_json_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]);
    assert_eq!(kinds, expected, "{events:#?}");

    let starts: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "content_block_start")
        .collect();
    assert_eq!(
        starts[1]["content_block"],
        json!({"type": "tool_use", "id": "call_glob", "name": "Glob", "input": {}})
    );
    assert_eq!(starts[1]["index"], 1);
    assert_eq!(
        starts[2]["content_block"],
        json!({"type": "tool_use", "id": "call_read", "name": "Read", "input": {}})
    );
    assert_eq!(starts[2]["index"], 2);
    let partial = |index: u64| -> String {
        events
            .iter()
            .filter(|e| e["index"] == index && e["delta"]["type"] == "input_json_delta")
            .map(|e| e["delta"]["partial_json"].as_str().unwrap())
            .collect()
    };
    assert_eq!(partial(1), r#"{"pattern":"**/*.txt"}"#);
    assert_eq!(
        serde_json::from_str::<Value>(&partial(2)).unwrap(),
        json!({"file_path": "a.txt"})
    );
    let end = events
        .iter()
        .find(|e| e["type"] == "message_delta")
        .unwrap();
    assert_eq!(end["delta"]["stop_reason"], "tool_use");

    // The whole calls follow as `assistant` messages with the same inputs, after the partial stream.
    let stop_at = messages
        .iter()
        .position(|m| m["event"]["type"] == "message_stop")
        .unwrap();
    let calls: Vec<(usize, &Value)> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m["type"] == "assistant")
        .flat_map(|(i, m)| {
            m["message"]["content"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["type"] == "tool_use")
                .map(move |b| (i, b))
        })
        .collect();
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|(i, _)| *i > stop_at));
    assert_eq!(calls[1].1["input"], json!({"file_path": "a.txt"}));
}

#[test]
fn without_the_flag_no_stream_events_are_written() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_glob", "glob_files", json!({"pattern": "*"}))]),
        Reply::text("Nothing."),
    ]);
    let output = sandbox
        .against(&server)
        .args(["-p", "look", "--output-format=stream-json", "--verbose"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(lines(&output).iter().all(|m| m["type"] != "stream_event"));
}
