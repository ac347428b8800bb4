//! Streamed replies reaching the sink and the response, plus non-SSE bodies in a 200.

use pretty_assertions::assert_eq;

use super::*;

#[tokio::test]
async fn deltas_reach_the_sink_in_order_and_the_reply_is_assembled() {
    let server = ScriptedServer::with_replies([Reply::reasoning_then_text(
        "Let me think.",
        "Hello there, world!",
    )
    .usage(42, 7)]);
    let client = client(provider_for(&server, "deepseek", "deepseek-flash", None));
    let sink = RecordingSink::new();
    let reply = client
        .chat(
            &[Message::user("hi")],
            &[],
            &sink,
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    let deltas = sink.deltas();
    let first_content = deltas
        .iter()
        .position(|d| matches!(d, StreamDelta::Content(_)))
        .unwrap();
    assert!(
        deltas[..first_content]
            .iter()
            .all(|d| matches!(d, StreamDelta::Reasoning(_)))
    );
    assert!(
        deltas[first_content..]
            .iter()
            .all(|d| matches!(d, StreamDelta::Content(_)))
    );
    assert!(
        deltas.len() - first_content > 1,
        "content arrived in several deltas"
    );
    assert_eq!(sink.reasoning(), "Let me think.");
    assert_eq!(sink.content(), "Hello there, world!");
    assert_eq!(
        reply,
        ChatResponse {
            content: "Hello there, world!".into(),
            reasoning: "Let me think.".into(),
            tool_calls: vec![],
            finish_reason: Some("stop".into()),
            usage: Some(Usage {
                prompt_tokens: 42,
                completion_tokens: 7,
                ..Usage::default()
            }),
            model: Some("scripted-model".into()),
        }
    );
}

#[tokio::test]
async fn streamed_tool_calls_are_assembled() {
    let server = ScriptedServer::with_replies([Reply::tool_calls([
        ("call_1", "read_file", json!({"path": "src/main.rs"})),
        ("call_2", "grep", json!({"pattern": "fn main", "path": "."})),
    ])]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let reply = chat(&client, &[Message::user("go")]).await.unwrap();
    assert_eq!(reply.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        reply.tool_calls,
        vec![
            ToolCall {
                id: "call_1".into(),
                name: "read_file".into(),
                arguments: json!({"path": "src/main.rs"}).to_string(),
            },
            ToolCall {
                id: "call_2".into(),
                name: "grep".into(),
                arguments: json!({"pattern": "fn main", "path": "."}).to_string(),
            },
        ]
    );
}

#[tokio::test]
async fn recorded_fixtures_decode_the_same_over_http_in_small_pieces() {
    for name in [
        "openai-gpt4o-parallel-toolcalls.sse",
        "aimock-reasoning-content.sse",
        "llamacpp-server-gemma270m-toolcall-single.sse",
    ] {
        let path = format!("{}/tests/fixtures/sse/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let (expected, _) = decode_sse_bytes(&bytes).unwrap();
        let pieces: Vec<Vec<u8>> = bytes.chunks(7).map(<[u8]>::to_vec).collect();
        let server = ScriptedServer::with_replies([Reply::raw_chunks(pieces)]);
        let client = client(provider_for(&server, "openai", "gpt-4o", None));
        let reply = chat(&client, &[Message::user("go")]).await.unwrap();
        assert_eq!(reply, expected, "{name}");
    }
}

#[tokio::test]
async fn a_non_streamed_json_completion_is_accepted() {
    let completion = json!({
        "id": "x", "object": "chat.completion", "model": "local",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "plain answer"}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    });
    let server = ScriptedServer::with_replies([Reply::json(completion)]);
    let client = client(provider_for(&server, "ollama", "qwen", None));
    let sink = RecordingSink::new();
    let reply = client
        .chat(
            &[Message::user("hi")],
            &[],
            &sink,
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(reply.content, "plain answer");
    assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
    assert_eq!(sink.content(), "plain answer");
}

#[test]
fn the_scripted_server_works_from_a_plain_test_and_reports_an_exhausted_script() {
    let server = ScriptedServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let error = runtime
        .block_on(chat(&client, &[Message::user("hi")]))
        .unwrap_err();
    assert!(
        matches!(&error, LlmError::Server { status: 500, message, .. } if message == "script exhausted"),
        "{error:?}"
    );
    assert_eq!(server.wait_request_blocking(2).path, "/v1/chat/completions");
}

#[tokio::test]
async fn an_html_page_in_a_200_is_an_invalid_response() {
    let server = ScriptedServer::with_replies([
        Reply::status(200, "<html>login</html>").content_type("text/html")
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::InvalidResponse(m) if m.contains("text/html") && m.contains("login")),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn openrouter_asks_for_and_keeps_its_reported_cost() {
    let server = ScriptedServer::with_replies([Reply::sse_events([
        r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}"#,
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        r#"{"choices":[],"usage":{"prompt_tokens":194,"completion_tokens":2,"total_tokens":196,"cost":0.00042}}"#,
        "[DONE]",
    ])]);
    let client = client(provider_for(
        &server,
        "openrouter",
        "deepseek/deepseek-chat",
        None,
    ));
    let reply = client
        .chat(
            &[Message::user("hi")],
            &[],
            &RecordingSink::new(),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    let usage = reply.usage.unwrap();
    assert_eq!(usage.prompt_tokens, 194);
    assert_eq!(usage.reported_cost_nano_usd, Some(420_000));
    let body = &server.chat_requests()[0].body;
    assert_eq!(body["usage"], json!({"include": true}));

    // Other providers are not sent OpenRouter's flag.
    let other = ScriptedServer::with_replies([Reply::text("ok")]);
    let client2 = super::client(provider_for(&other, "deepseek", "deepseek-flash", None));
    client2
        .chat(
            &[Message::user("hi")],
            &[],
            &RecordingSink::new(),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert!(other.chat_requests()[0].body.get("usage").is_none());
}
