//! A reply stopped at the output limit: its tool calls never run, its text is marked, and an empty answer is an
//! error.

use serde_json::{Value, json};

use super::json_result;
use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

/// A call that would leave `marker` behind if it ran.
fn touch(id: &str, marker: &str) -> Reply {
    Reply::tool_calls([(
        id,
        "execute_command",
        json!({"command": format!("touch {marker}")}),
    )])
    .finish_reason("length")
}

fn run_json(sandbox: &CliSandbox, server: &ScriptedServer) -> std::process::Output {
    sandbox
        .paicli()
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["--approval", "full", "--output-format", "json", "-p", "go"])
        .output()
        .unwrap()
}

/// Every assistant tool call in a wire request is answered by the tool message right after it.
fn assert_paired(messages: &[Value]) {
    let mut i = 0;
    while i < messages.len() {
        assert_ne!(messages[i]["role"], "tool", "orphan tool message at {i}");
        let calls = messages[i]["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        i += 1;
        for call in calls {
            assert_eq!(messages[i]["role"], "tool", "no result for {call}");
            assert_eq!(messages[i]["tool_call_id"], call["id"]);
            i += 1;
        }
    }
}

#[test]
fn a_cut_off_tool_call_is_not_run_and_the_model_is_told_why() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        touch("call_1", "marker"),
        Reply::text("Done in a shorter step."),
    ]);
    let output = run_json(&sandbox, &server);
    assert!(
        !sandbox.project.path().join("marker").exists(),
        "the cut-off call ran"
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let result = json_result(&output);
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["stop_reason"], "end_turn");
    assert_eq!(result["result"], "Done in a shorter step.");

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    let messages = requests[1].body["messages"].as_array().unwrap().clone();
    assert_paired(&messages);
    let call = &messages[messages.len() - 2];
    assert_eq!(call["tool_calls"][0]["id"], "call_1");
    let answer = &messages[messages.len() - 1];
    assert_eq!(answer["tool_call_id"], "call_1");
    assert!(
        answer["content"]
            .as_str()
            .unwrap()
            .contains("the reply was cut off before this call was complete; make a shorter step"),
        "{answer}"
    );
}

#[test]
fn a_second_cut_off_reply_ends_the_task_as_partial() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        touch("call_1", "first"),
        touch("call_2", "second"),
        Reply::text("never asked for"),
    ]);
    let output = run_json(&sandbox, &server);
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let result = json_result(&output);
    // Stopped before the task was done: an error result (exit 3, partial), as Claude's turn limits are.
    assert_eq!(result["subtype"], "error_during_execution");
    assert_eq!(result["partial_reason"], "OUTPUT_LIMIT");
    assert_eq!(result["is_error"], true);
    for marker in ["first", "second"] {
        assert!(
            !sandbox.project.path().join(marker).exists(),
            "{marker} ran"
        );
    }
    assert_eq!(server.chat_requests().len(), 2, "no third request");
    assert_eq!(server.remaining_replies(), 1);

    // The next turn of the same session would start from a valid history: both rounds are answered.
    let text = sandbox
        .paicli()
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["--approval", "full", "-c", "-p", "again"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(0), "{}", stderr_of(&text));
    let messages = server.chat_requests()[2].body["messages"]
        .as_array()
        .unwrap()
        .clone();
    assert_paired(&messages);
    let cut_results = messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .filter(|m| m["content"].as_str().unwrap_or("").contains("cut off"))
        .count();
    assert_eq!(cut_results, 2, "{messages:#?}");
}

#[test]
fn a_cut_off_answer_keeps_its_text_and_says_max_tokens() {
    let sandbox = CliSandbox::new();
    let server =
        ScriptedServer::with_replies([Reply::text("The first half of").finish_reason("length")]);
    let output = run_json(&sandbox, &server);
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let result = json_result(&output);
    assert_eq!(result["stop_reason"], "max_tokens");
    assert_eq!(result["result"], "The first half of");
    assert_eq!(result["is_error"], false);

    let server =
        ScriptedServer::with_replies([Reply::text("The first half of").finish_reason("length")]);
    let text = sandbox
        .paicli()
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["-p", "go"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(3));
    assert_eq!(stdout_of(&text), "The first half of\n");
    let stderr = stderr_of(&text);
    assert!(
        stderr.contains("the answer was cut off at the model's output limit")
            && stderr.contains("--max-output-tokens"),
        "{stderr}"
    );
}

#[test]
fn an_answer_of_only_reasoning_is_an_error_with_a_reason() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::reasoning_then_text(
        "Let me think about this very carefully",
        "",
    )]);
    let output = run_json(&sandbox, &server);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let result = json_result(&output);
    assert_eq!(result["is_error"], true);
    assert_eq!(result["subtype"], "error_during_execution");
    assert_eq!(result["result"], "");
    assert_eq!(
        result["errors"],
        serde_json::json!(["the model gave no answer: its reply held only reasoning"])
    );

    let server = ScriptedServer::with_replies([
        Reply::reasoning_then_text("Hmm", "").finish_reason("length")
    ]);
    let text = sandbox
        .paicli()
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["-p", "go"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(1));
    assert_eq!(
        stdout_of(&text),
        "",
        "reasoning is not printed as the answer"
    );
    assert!(
        stderr_of(&text).contains("still reasoning when the reply reached the output limit"),
        "{}",
        stderr_of(&text)
    );
}
