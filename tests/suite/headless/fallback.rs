//! `--fallback-model`: a turn the model fails with an overload (after the retries) goes on once on the fallback
//! model, and a `system` message says so.

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

use super::print_json::lines;

#[test]
fn an_overloaded_model_falls_back_once_and_says_so() {
    let sandbox = CliSandbox::new();
    // One attempt per request, so the script is the failure and then the fallback's answer.
    sandbox.user_config("[llm.retry]\nmax_attempts = 1\nbase_delay_ms = 0\n");
    let server = ScriptedServer::with_replies([
        Reply::status(
            529,
            r#"{"error":{"message":"Overloaded","type":"overloaded_error"}}"#,
        ),
        Reply::text("Answer from the fallback."),
    ]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hello", "--output-format=stream-json", "--verbose"])
        .args(["--fallback-model", "backup-model"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let messages = lines(&output);
    let note = messages
        .iter()
        .find(|m| m["type"] == "system" && m["subtype"] == "model_fallback")
        .unwrap_or_else(|| panic!("no fallback message: {messages:?}"));
    assert_eq!(note["model"], "scripted-model");
    assert_eq!(note["fallback_model"], "backup-model");
    let result = messages.last().unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["is_error"], false);
    assert_eq!(result["result"], "Answer from the fallback.");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].body["model"], "scripted-model");
    assert_eq!(requests[1].body["model"], "backup-model");
    // The failed request is in the history the fallback sees.
    assert!(requests[1].body["messages"].to_string().contains("hello"));
}

#[test]
fn a_rejected_request_does_not_fall_back() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::status(400, "bad request")]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hello", "--output-format=stream-json", "--verbose"])
        .args(["--fallback-model", "backup-model"])
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0));
    assert!(
        lines(&output)
            .iter()
            .all(|m| m["subtype"] != "model_fallback")
    );
    assert_eq!(server.chat_requests().len(), 1);
}
