//! `--json-schema`: a validated object in `result.structured_output`, one retry with the validator's errors, and
//! `error_max_structured_output_retries` when the answers stay invalid.

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

const SCHEMA: &str =
    r#"{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}"#;

fn run(server: &ScriptedServer) -> (Option<i32>, Value, String) {
    let sandbox = CliSandbox::new();
    let output = sandbox
        .against(server)
        .args([
            "-p",
            "count the files",
            "--output-format",
            "json",
            "--json-schema",
            SCHEMA,
        ])
        .output()
        .unwrap();
    let result = serde_json::from_str(&stdout_of(&output)).unwrap_or(Value::Null);
    (output.status.code(), result, stderr_of(&output))
}

#[test]
fn a_valid_answer_is_the_structured_output() {
    let server = ScriptedServer::with_replies([Reply::text(r#"{"count": 3}"#)]);
    let (code, result, stderr) = run(&server);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["structured_output"], json!({"count": 3}));
    // The model was told the schema with the task.
    let task = server.chat_requests()[0].body["messages"][1]["content"].to_string();
    assert!(task.contains("\\\"required\\\":[\\\"count\\\"]"), "{task}");
}

#[test]
fn an_invalid_answer_is_sent_back_once_with_the_errors() {
    let server = ScriptedServer::with_replies([
        Reply::text(r#"{"count": "three"}"#),
        Reply::text(r#"{"count": 3}"#),
    ]);
    let (code, result, stderr) = run(&server);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(result["structured_output"], json!({"count": 3}));
    assert_eq!(result["num_turns"], 2);
    let retry = server.chat_requests()[1].body["messages"].to_string();
    assert!(retry.contains("/count: "), "{retry}");
}

#[test]
fn answers_that_stay_invalid_end_with_the_retries_subtype() {
    let server = ScriptedServer::with_replies([
        Reply::text("three"),
        Reply::text("still three"),
        Reply::text(r#"{"n": 3}"#),
    ]);
    let (code, result, stderr) = run(&server);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(result["subtype"], "error_max_structured_output_retries");
    assert_eq!(result["is_error"], true);
    assert!(
        result["errors"][0].as_str().unwrap().contains("count"),
        "{result}"
    );
    assert!(result.get("structured_output").is_none());
    assert_eq!(server.chat_requests().len(), 3);
}
