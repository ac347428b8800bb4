//! The conversation's invariants seen from outside: after `/clear`, a model switch, malformed tool-call
//! arguments or repeated call ids, every request the provider receives is well formed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod clear_and_model;
mod learned_window;
mod valid_history;

use std::sync::Arc;

use serde_json::Value;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;
use paicli::llm::client::{ClientOptions, OpenAiClient};

use crate::support::agent_harness::Project;
use crate::support::{RecordedRequest, ScriptedServer, provider_for};

/// A client for `server` (custom provider, model `m`).
fn client_for(server: &ScriptedServer) -> Arc<OpenAiClient> {
    Arc::new(
        OpenAiClient::new(
            provider_for(server, "custom", "m", None),
            ClientOptions::default(),
        )
        .unwrap(),
    )
}

/// A summary with the four required headings.
fn summary() -> String {
    REQUIRED_HEADINGS
        .iter()
        .map(|h| format!("{h}\n- kept short for the test"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn messages(request: &RecordedRequest) -> Vec<Value> {
    request.body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// What a provider checks before it accepts a request: every tool call is answered exactly once by the tool
/// messages right after it, no tool message stands alone, call ids are unique in their message and every
/// call's arguments are a JSON object.
fn assert_request_valid(request: &RecordedRequest) {
    let messages = messages(request);
    let mut i = 0;
    while i < messages.len() {
        let m = &messages[i];
        assert_ne!(
            m["role"], "tool",
            "orphan tool message at {i}: {messages:#?}"
        );
        i += 1;
        let calls = m["tool_calls"].as_array().cloned().unwrap_or_default();
        let mut ids: Vec<&str> = calls.iter().filter_map(|c| c["id"].as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), calls.len(), "repeated call ids: {calls:#?}");
        for call in &calls {
            let arguments = call["function"]["arguments"].as_str().unwrap();
            let parsed: Value = serde_json::from_str(arguments)
                .unwrap_or_else(|e| panic!("arguments {arguments:?} are not JSON: {e}"));
            assert!(parsed.is_object(), "{arguments}");
            let answer = messages.get(i).expect("a tool result is missing");
            assert_eq!(
                answer["role"], "tool",
                "expected the result of {call} at {i}"
            );
            assert_eq!(answer["tool_call_id"], call["id"]);
            i += 1;
        }
    }
}

/// A project with `count` files `f<i>.txt` of about `chars` characters each.
fn project_with_files(count: usize, chars: usize) -> Project {
    let project = Project::new();
    let line = "some source text in a file that the model reads\n";
    let body = line.repeat(chars / line.len() + 1);
    for i in 0..count {
        project.write(&format!("f{i}.txt"), &body);
    }
    project
}
