//! A refused call's megabytes of arguments are not sent back to the provider: the next request keeps the call's
//! id and name with a small placeholder and still answers the call with its result (issue 35).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

const SIX_MB: usize = 6 * 1024 * 1024;

#[test]
fn a_refused_six_megabyte_write_sends_a_small_next_request() {
    let sandbox = CliSandbox::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("big.txt");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_big",
            "write_file",
            json!({ "path": target.display().to_string(), "content": "x".repeat(SIX_MB) }),
        )]),
        Reply::text("Could not write it."),
    ]);
    let output = sandbox
        .against(&server)
        .args(["--approval", "auto", "-p", "write the big file"])
        .output()
        .unwrap();
    assert!(!target.exists());
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2, "{}", stderr_of(&output));
    let next = &requests[1];
    assert!(
        next.raw_body.len() < 64 * 1024,
        "the request after the refusal is {} bytes",
        next.raw_body.len()
    );
    let messages = next.body["messages"].as_array().unwrap();
    let assistant = messages
        .iter()
        .find(|m| m["role"] == "assistant" && m["tool_calls"].is_array())
        .unwrap();
    let call = &assistant["tool_calls"][0];
    assert_eq!(call["id"], "call_big");
    assert_eq!(call["function"]["name"], "write_file");
    let arguments: Value =
        serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert!(arguments.is_object(), "{arguments}");
    assert!(
        arguments["_paicli_omitted"]
            .as_str()
            .unwrap()
            .contains("refused"),
        "{arguments}"
    );
    let result = messages
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == "call_big")
        .unwrap();
    let text = result["content"].to_string();
    assert!(text.contains("too large"), "{text}");
    // Nor does the session file keep them: every file paicli wrote under its home stays small.
    let mut files = vec![sandbox.paicli_home()];
    let mut ledgers = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < 64 * 1024, "{} is {size} bytes", path.display());
        ledgers += usize::from(path.extension().is_some_and(|e| e == "jsonl"));
    }
    assert!(ledgers > 0, "no session file was written");
}
