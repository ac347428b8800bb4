//! Unit tests for the accumulator rules (fixture-level tests live in `tests/suite/sse_fixtures.rs`).

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::llm::ToolCall;

fn push(acc: &mut StreamAccumulator, chunk: Value) -> Vec<StreamDelta> {
    match acc.push_data(&chunk.to_string()) {
        Ok(deltas) => deltas,
        Err(e) => panic!("unexpected error {e:?} for {chunk}"),
    }
}

fn delta_chunk(delta: Value) -> Value {
    json!({"model":"m","choices":[{"index":0,"delta":delta,"finish_reason":null}]})
}

fn finish_chunk(reason: &str) -> Value {
    json!({"model":"m","choices":[{"index":0,"delta":{},"finish_reason":reason}]})
}

fn reply(chunks: Vec<Value>) -> Result<ChatResponse, LlmError> {
    let mut acc = StreamAccumulator::new();
    for chunk in chunks {
        acc.push_data(&chunk.to_string())?;
    }
    acc.finish()
}

#[test]
fn content_and_reasoning_are_forwarded_and_collected() {
    let mut acc = StreamAccumulator::new();
    assert_eq!(
        push(
            &mut acc,
            delta_chunk(json!({"role":"assistant","content":null}))
        ),
        vec![]
    );
    assert!(!acc.has_streamed_text());
    assert_eq!(
        push(&mut acc, delta_chunk(json!({"reasoning_content":"think"}))),
        vec![StreamDelta::Reasoning("think".into())]
    );
    assert!(acc.has_streamed_text());
    assert_eq!(
        push(
            &mut acc,
            delta_chunk(json!({"content":"", "reasoning_content":""}))
        ),
        vec![]
    );
    assert_eq!(
        push(&mut acc, delta_chunk(json!({"content":"Hi"}))),
        vec![StreamDelta::Content("Hi".into())]
    );
    push(&mut acc, finish_chunk("stop"));
    assert!(acc.is_complete());
    assert!(!acc.saw_done());
    assert_eq!(
        acc.finish().ok(),
        Some(ChatResponse {
            content: "Hi".into(),
            reasoning: "think".into(),
            tool_calls: vec![],
            finish_reason: Some("stop".into()),
            usage: None,
            model: Some("m".into()),
        })
    );
}

#[test]
fn done_without_finish_reason_is_complete() {
    let mut acc = StreamAccumulator::new();
    push(&mut acc, delta_chunk(json!({"content":"x"})));
    assert!(!acc.is_complete());
    assert_eq!(acc.push_data("[DONE]").ok(), Some(vec![]));
    assert!(acc.is_complete());
    assert!(acc.saw_done());
    let response = acc.finish().ok();
    assert_eq!(
        response.map(|r| (r.content, r.finish_reason)),
        Some(("x".into(), None))
    );
}

#[test]
fn data_after_done_is_ignored() {
    let mut acc = StreamAccumulator::new();
    push(&mut acc, delta_chunk(json!({"content":"x"})));
    assert_eq!(acc.push_data(" [DONE] ").ok(), Some(vec![]));
    assert_eq!(
        acc.push_data(&delta_chunk(json!({"content":"y"})).to_string())
            .ok(),
        Some(vec![])
    );
    assert_eq!(acc.push_data("not json").ok(), Some(vec![]));
    assert_eq!(acc.finish().ok().map(|r| r.content), Some("x".into()));
}

#[test]
fn missing_terminator_is_interrupted() {
    let result = reply(vec![delta_chunk(json!({"content":"partial"}))]);
    assert!(
        matches!(result, Err(LlmError::StreamInterrupted(_))),
        "{result:?}"
    );
    let result = reply(vec![]);
    assert!(
        matches!(result, Err(LlmError::StreamInterrupted(_))),
        "{result:?}"
    );
}

#[test]
fn nothing_at_all_is_empty_response() {
    let mut acc = StreamAccumulator::new();
    push(
        &mut acc,
        delta_chunk(json!({"role":"assistant","content":""})),
    );
    push(&mut acc, finish_chunk("stop"));
    assert!(matches!(acc.finish(), Err(LlmError::EmptyResponse)));

    // A tool call without a name is dropped, leaving nothing.
    let result = reply(vec![
        delta_chunk(json!({"tool_calls":[{"index":0,"id":"a","function":{"arguments":"{}"}}]})),
        finish_chunk("tool_calls"),
    ]);
    assert!(matches!(result, Err(LlmError::EmptyResponse)), "{result:?}");
}

#[test]
fn reasoning_only_reply_is_not_empty() {
    let result = reply(vec![
        delta_chunk(json!({"reasoning":"hmm"})),
        finish_chunk("length"),
    ]);
    assert_eq!(result.ok().map(|r| r.reasoning), Some("hmm".into()));
}

#[test]
fn tool_calls_merge_across_chunks() {
    let result = reply(vec![
        delta_chunk(
            json!({"tool_calls":[{"index":0,"id":"call_a","type":"function",
            "function":{"name":"read_file","arguments":""}}]}),
        ),
        delta_chunk(
            json!({"tool_calls":[{"index":0,"id":"","function":{"name":"","arguments":"{\"path\":"}}]}),
        ),
        delta_chunk(json!({"tool_calls":[{"index":0,"function":{"arguments":"\"a\"}"}}]})),
        delta_chunk(json!({"tool_calls":[{"index":1,"function":{"name":"ls","arguments":"{}"}}]})),
        finish_chunk("tool_calls"),
    ]);
    assert_eq!(
        result.ok().map(|r| r.tool_calls),
        Some(vec![
            ToolCall {
                id: "call_a".into(),
                name: "read_file".into(),
                arguments: "{\"path\":\"a\"}".into()
            },
            ToolCall {
                id: "call_1".into(),
                name: "ls".into(),
                arguments: "{}".into()
            },
        ])
    );
}

#[test]
fn usage_is_read_from_all_three_places_latest_wins() {
    let usage = |p: u64| Usage::tokens(p, 1, 0, 0);
    // Top-level on the finish chunk.
    let mut finish = finish_chunk("stop");
    finish["usage"] = json!({"prompt_tokens":1,"completion_tokens":1});
    let mut acc = StreamAccumulator::new();
    push(&mut acc, delta_chunk(json!({"content":"x"})));
    push(&mut acc, finish);
    assert_eq!(acc.usage, Some(usage(1)));
    // Inside the choice.
    push(
        &mut acc,
        json!({"choices":[{"index":0,"delta":{},"usage":{"prompt_tokens":2,"completion_tokens":1}}]}),
    );
    assert_eq!(acc.usage, Some(usage(2)));
    // On a `choices: []` chunk.
    push(
        &mut acc,
        json!({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}}),
    );
    assert_eq!(acc.usage, Some(usage(3)));
    // `usage: null` and malformed usage keep the last good one.
    push(&mut acc, json!({"choices":[],"usage":null}));
    push(
        &mut acc,
        json!({"choices":[],"usage":{"prompt_tokens":-4,"completion_tokens":1}}),
    );
    assert_eq!(acc.finish().ok().and_then(|r| r.usage), Some(usage(3)));
}

#[test]
fn model_is_none_when_chunks_disagree() {
    let mut acc = StreamAccumulator::new();
    push(
        &mut acc,
        json!({"model":"a","choices":[{"delta":{"content":"x"}}]}),
    );
    push(&mut acc, json!({"choices":[{"delta":{"content":"y"}}]}));
    push(
        &mut acc,
        json!({"model":"b","choices":[{"delta":{},"finish_reason":"stop"}]}),
    );
    assert_eq!(acc.finish().ok().map(|r| r.model), Some(None));

    let result = reply(vec![
        json!({"model":"a","choices":[{"delta":{"content":"x"}}]}),
        json!({"model":"","choices":[{"delta":{},"finish_reason":"stop"}]}),
    ]);
    assert_eq!(result.ok().and_then(|r| r.model), Some("a".into()));
}

#[test]
fn error_object_is_a_typed_error() {
    let mut acc = StreamAccumulator::new();
    push(&mut acc, delta_chunk(json!({"content":"x"})));
    let result = acc.push_data(
        r#"{"error":{"message":"Provider returned error","code":502},"choices":[{"delta":{"content":""},"finish_reason":"error"}]}"#,
    );
    match result {
        Err(LlmError::StreamError { message, retryable }) => {
            assert_eq!(message, "Provider returned error");
            assert!(retryable);
        }
        other => panic!("unexpected {other:?}"),
    }
    let result = StreamAccumulator::new()
        .push_data(r#"{"error":{"message":"invalid api key","type":"invalid_request_error"}}"#);
    assert!(
        matches!(
            result,
            Err(LlmError::StreamError {
                retryable: false,
                ..
            })
        ),
        "{result:?}"
    );
    let result = StreamAccumulator::new()
        .push_data(r#"{"error":{"message":"x","code":"context_length_exceeded"}}"#);
    assert!(
        matches!(result, Err(LlmError::ContextLengthExceeded { .. })),
        "{result:?}"
    );
    let result = StreamAccumulator::new()
        .push_data(r#"{"choices":[{"index":0,"error":{"message":"overloaded"},"delta":{}}]}"#);
    assert!(
        matches!(
            result,
            Err(LlmError::StreamError {
                retryable: true,
                ..
            })
        ),
        "{result:?}"
    );
    // `"error": null` is no error.
    let result = StreamAccumulator::new().push_data(r#"{"error":null,"choices":[]}"#);
    assert_eq!(result.ok(), Some(vec![]));
}

#[test]
fn error_event_is_an_error_whatever_its_data() {
    let event = SseEvent {
        event: Some("error".into()),
        data: "upstream overloaded".into(),
    };
    let result = StreamAccumulator::new().push_event(&event);
    assert!(
        matches!(
            result,
            Err(LlmError::StreamError {
                retryable: true,
                ..
            })
        ),
        "{result:?}"
    );
    let event = SseEvent {
        event: Some("error".into()),
        data: r#"{"error":{"message":"bad","code":400}}"#.into(),
    };
    let result = StreamAccumulator::new().push_event(&event);
    match result {
        Err(LlmError::StreamError { message, retryable }) => {
            assert_eq!(message, "bad");
            assert!(!retryable);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn non_json_payload_is_invalid_response() {
    for payload in ["Internal Server Error", "[1,2]", "42", "{\"a\":1} trailing"] {
        let result = StreamAccumulator::new().push_data(payload);
        assert!(
            matches!(result, Err(LlmError::InvalidResponse(_))),
            "{payload}: {result:?}"
        );
    }
}

#[test]
fn truncated_payload_means_interrupted() {
    for payload in ["{\"choices\":[{\"delta\":{\"content\":\"ab", "[DON"] {
        let result = StreamAccumulator::new().push_data(payload);
        assert!(
            matches!(result, Err(LlmError::StreamInterrupted(_))),
            "{payload}: {result:?}"
        );
    }
}

#[test]
fn empty_payloads_are_ignored() {
    let mut acc = StreamAccumulator::new();
    assert_eq!(acc.push_data("").ok(), Some(vec![]));
    assert_eq!(acc.push_data("  \n").ok(), Some(vec![]));
    assert!(!acc.is_complete());
}

#[test]
fn message_object_is_read_when_there_is_no_delta() {
    let result = reply(vec![json!({"model":"m","choices":[{"index":0,
        "message":{"role":"assistant","content":"whole","tool_calls":[
            {"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
        "finish_reason":"tool_calls"}],
        "usage":{"prompt_tokens":5,"completion_tokens":2}})]);
    let response = result.ok();
    assert_eq!(response.as_ref().map(|r| r.content.as_str()), Some("whole"));
    assert_eq!(response.map(|r| r.tool_calls.len()), Some(1));
}

#[test]
fn decode_sse_bytes_handles_comments_and_missing_final_blank_line() {
    let bytes = b": keep-alive\n\ndata: {\"model\":\"m\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n\
                  data:{\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]";
    let result = decode_sse_bytes(bytes);
    let (response, live) = match result {
        Ok(ok) => ok,
        Err(e) => panic!("{e:?}"),
    };
    assert_eq!(response.content, "ab");
    assert_eq!(
        live,
        vec![
            StreamDelta::Content("a".into()),
            StreamDelta::Content("b".into())
        ]
    );
}

#[test]
fn decode_sse_bytes_cut_mid_chunk_is_interrupted() {
    let bytes =
        b"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"del";
    let result = decode_sse_bytes(bytes);
    assert!(
        matches!(result, Err(LlmError::StreamInterrupted(_))),
        "{result:?}"
    );
}
