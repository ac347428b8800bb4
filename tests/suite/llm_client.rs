//! The OpenAI-compatible client against the scripted server: request shape, streaming, retries, cancellation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::llm::client::{ClientOptions, OpenAiClient};
use paicli::llm::models::list_models;
use paicli::llm::providers::ResolvedProvider;
use paicli::llm::retry::RetryPolicy;
use paicli::llm::stream::decode_sse_bytes;
use paicli::llm::{
    ChatResponse, LlmClient, LlmError, Message, NullSink, StreamDelta, ToolCall, ToolSpec, Usage,
};

use crate::support::{RecordingSink, Reply, ScriptedServer, provider_for};

fn fast_options() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(50),
        },
    }
}

fn client(provider: ResolvedProvider) -> OpenAiClient {
    OpenAiClient::new(provider, fast_options()).unwrap()
}

async fn chat(client: &OpenAiClient, messages: &[Message]) -> Result<ChatResponse, LlmError> {
    client
        .chat(messages, &[], &NullSink, &CancellationToken::new())
        .await
}

fn read_file_tool() -> ToolSpec {
    ToolSpec {
        name: "read_file".into(),
        description: "Reads a file".into(),
        parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
    }
}

/// A history with a reasoning-carrying tool-call turn, its result and a final answer.
fn history() -> Vec<Message> {
    let call = ToolCall {
        id: "call_1".into(),
        name: "read_file".into(),
        arguments: r#"{"path":"a.txt"}"#.into(),
    };
    vec![
        Message::system("sys"),
        Message::user("read a.txt"),
        Message::assistant_tool_calls("", Some("I should read it".into()), vec![call]),
        Message::tool("call_1", "hello"),
        Message::assistant("It says hello"),
        Message::user("thanks"),
    ]
}

fn wire_history(echo: bool) -> Value {
    let mut tool_turn = json!({
        "role": "assistant", "content": "",
        "tool_calls": [{"id": "call_1", "type": "function",
                        "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}],
    });
    if echo {
        tool_turn["reasoning_content"] = json!("I should read it");
    }
    json!([
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "read a.txt"},
        tool_turn,
        {"role": "tool", "content": "hello", "tool_call_id": "call_1"},
        {"role": "assistant", "content": "It says hello"},
        {"role": "user", "content": "thanks"},
    ])
}

fn wire_tools() -> Value {
    json!([{"type": "function", "function": {
        "name": "read_file", "description": "Reads a file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}])
}

async fn sent_body(
    provider: ResolvedProvider,
    server: &ScriptedServer,
    tools: &[ToolSpec],
) -> Value {
    server.push(Reply::text("ok"));
    let client = client(provider);
    let reply = client
        .chat(&history(), tools, &NullSink, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.content, "ok");
    server.wait_request(0).await.body
}

#[tokio::test]
async fn deepseek_body_has_thinking_extras_and_echoes_reasoning() {
    let server = ScriptedServer::start();
    let provider = provider_for(&server, "deepseek", "deepseek-flash", Some("sk-test"));
    let body = sent_body(provider, &server, &[read_file_tool()]).await;
    assert_eq!(
        body,
        json!({
            "model": "deepseek-flash", "stream": true,
            "messages": wire_history(true),
            "tools": wire_tools(),
            "stream_options": {"include_usage": true},
            "temperature": 1.0, "top_p": 0.95, "reasoning_effort": "max",
            "thinking": {"type": "enabled"},
        })
    );
    let request = server.wait_request(0).await;
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(request.header("accept"), Some("text/event-stream"));
    assert_eq!(request.header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn glm_5_3_body_adds_clear_thinking_and_tool_stream() {
    let server = ScriptedServer::start();
    let provider = provider_for(&server, "glm", "glm-5.3-flash", Some("k"));
    let body = sent_body(provider, &server, &[read_file_tool()]).await;
    assert_eq!(
        body,
        json!({
            "model": "glm-5.3-flash", "stream": true,
            "messages": wire_history(true),
            "tools": wire_tools(),
            "stream_options": {"include_usage": true},
            "temperature": 1.0, "top_p": 0.95, "reasoning_effort": "max",
            "thinking": {"type": "enabled", "clear_thinking": false},
            "tool_stream": true,
        })
    );
}

#[tokio::test]
async fn hunyuan_body_asks_for_high_effort_and_echoes_reasoning() {
    let server = ScriptedServer::start();
    let provider = provider_for(&server, "hunyuan", "hy4-preview", Some("k"));
    let body = sent_body(provider, &server, &[]).await;
    assert_eq!(
        body,
        json!({
            "model": "hy4-preview", "stream": true,
            "messages": wire_history(true),
            "stream_options": {"include_usage": true},
            "reasoning_effort": "high",
        })
    );
}

#[tokio::test]
async fn openai_like_body_has_no_echo_no_extras_and_no_empty_tools() {
    let server = ScriptedServer::start();
    let provider = provider_for(&server, "openai", "gpt-4o", None);
    let body = sent_body(provider, &server, &[]).await;
    assert_eq!(
        body,
        json!({
            "model": "gpt-4o", "stream": true,
            "messages": wire_history(false),
            "stream_options": {"include_usage": true},
        })
    );
    let request = server.wait_request(0).await;
    assert_eq!(request.header("authorization"), None);
}

#[tokio::test]
async fn provider_headers_are_sent_and_tools_withheld_where_unsupported() {
    let server = ScriptedServer::start();
    let mut provider = provider_for(&server, "xfyun", "Qwen3.6-35B-A3B", Some("k"));
    provider.headers = vec![("lora_id".into(), "0".into())];
    let body = sent_body(provider, &server, &[read_file_tool()]).await;
    assert!(body.get("tools").is_none());
    assert!(body.get("stream_options").is_none());
    assert_eq!(server.wait_request(0).await.header("lora_id"), Some("0"));
}

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
async fn a_429_is_retried_after_its_retry_after() {
    let server = ScriptedServer::with_replies([
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "0.2"),
        Reply::text("ok"),
    ]);
    // A backoff of seconds would show if Retry-After were ignored.
    let options = ClientOptions {
        retry: RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_secs(8),
            max_delay: Duration::from_secs(30),
        },
        ..fast_options()
    };
    let client =
        OpenAiClient::new(provider_for(&server, "openai", "gpt-4o", None), options).unwrap();
    let started = Instant::now();
    let reply = chat(&client, &[Message::user("hi")]).await.unwrap();
    let waited = started.elapsed();
    assert_eq!(reply.content, "ok");
    assert!(waited >= Duration::from_millis(200), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].raw_body, requests[1].raw_body);
}

#[tokio::test]
async fn server_errors_are_retried_up_to_the_attempt_limit() {
    let server = ScriptedServer::with_replies([
        Reply::status(503, "busy"),
        Reply::status(502, "bad gateway"),
        Reply::status(500, r#"{"error":{"message":"boom"}}"#),
        Reply::text("never"),
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Server { status: 500, message, .. } if message == "boom"),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 3);
    assert_eq!(server.remaining_replies(), 1);
}

#[tokio::test]
async fn a_stream_cut_before_any_delta_is_retried() {
    let server = ScriptedServer::with_replies([
        Reply::text("lost").cut_after(1),
        Reply::text("also lost").end_after(1),
        Reply::text("ok"),
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
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
    assert_eq!(reply.content, "ok");
    assert_eq!(sink.content(), "ok");
    assert_eq!(server.chat_requests().len(), 3);
}

#[tokio::test]
async fn no_retry_once_text_was_streamed() {
    let server = ScriptedServer::with_replies([
        Reply::text("Hello there, world").cut_after(3),
        Reply::text("unused"),
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let sink = RecordingSink::new();
    let error = client
        .chat(
            &[Message::user("hi")],
            &[],
            &sink,
            &CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert!(matches!(error, LlmError::StreamInterrupted(_)), "{error:?}");
    assert_eq!(sink.content(), "Hello th");
    assert_eq!(server.chat_requests().len(), 1);
    assert_eq!(server.remaining_replies(), 1);
}

#[tokio::test]
async fn no_retry_once_reasoning_was_streamed() {
    let server = ScriptedServer::with_replies([
        Reply::reasoning_then_text("thinking hard", "x").cut_after(2),
        Reply::text("unused"),
    ]);
    let client = client(provider_for(&server, "deepseek", "deepseek-flash", None));
    let sink = RecordingSink::new();
    let error = client
        .chat(
            &[Message::user("hi")],
            &[],
            &sink,
            &CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert!(error.is_retryable(), "{error:?}");
    assert_eq!(sink.reasoning(), "thin");
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_400_is_rejected_without_retry() {
    let server = ScriptedServer::with_replies([
        Reply::status(400, r#"{"error":{"message":"messages[2]: bad role"}}"#),
        Reply::text("unused"),
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Rejected { status: 400, message } if message == "messages[2]: bad role"),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_401_is_an_auth_error() {
    let server = ScriptedServer::with_replies([
        Reply::status(
            401,
            r#"{"error":{"message":"Invalid API key","type":"auth"}}"#,
        ),
        Reply::text("unused"),
    ]);
    let client = client(provider_for(
        &server,
        "deepseek",
        "deepseek-flash",
        Some("bad"),
    ));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Auth { status: 401, message } if message == "Invalid API key"),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_context_length_400_is_typed_for_compaction() {
    let body = r#"{"error":{"message":"This model's maximum context length is 131072 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#;
    let server = ScriptedServer::with_replies([Reply::status(400, body), Reply::text("unused")]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::ContextLengthExceeded { message } if message.contains("131072")),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_json_error_in_a_200_carries_the_provider_message() {
    let server = ScriptedServer::with_replies([
        Reply::json(json!({"error": {"message": "Insufficient Balance", "type": "unknown_error"}})),
        Reply::text("unused"),
    ]);
    let client = client(provider_for(&server, "deepseek", "deepseek-flash", None));
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::StreamError { message, retryable: false } if message == "Insufficient Balance"),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_json_rate_limit_in_a_200_is_retried() {
    let server = ScriptedServer::with_replies([
        Reply::json(json!({"error": {"message": "Too many requests", "code": 429}})),
        Reply::text("ok"),
    ]);
    let client = client(provider_for(&server, "openai", "gpt-4o", None));
    assert_eq!(
        chat(&client, &[Message::user("hi")]).await.unwrap().content,
        "ok"
    );
    assert_eq!(server.chat_requests().len(), 2);
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

#[tokio::test]
async fn cancellation_mid_stream_returns_promptly() {
    let server = ScriptedServer::start();
    // Role chunk plus two content chunks, then silence with the connection open.
    let sent = server.push(Reply::text("a long answer that never ends").hang_after(3));
    let client = Arc::new(client(provider_for(&server, "openai", "gpt-4o", None)));
    let sink = Arc::new(RecordingSink::new());
    let cancel = CancellationToken::new();
    let task = {
        let (client, sink, cancel) = (Arc::clone(&client), Arc::clone(&sink), cancel.clone());
        tokio::spawn(async move {
            client
                .chat(&[Message::user("hi")], &[], sink.as_ref(), &cancel)
                .await
        })
    };
    sent.wait_sent(3).await;
    sink.wait_for_deltas(2).await;
    let cancelled_at = Instant::now();
    cancel.cancel();
    let result = task.await.unwrap();
    assert!(matches!(result, Err(LlmError::Cancelled)), "{result:?}");
    assert!(cancelled_at.elapsed() < Duration::from_secs(2));
    assert_eq!(sink.content(), "a long a");
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn cancellation_during_a_retry_wait_returns_promptly() {
    let server = ScriptedServer::with_replies([
        Reply::status(429, "slow down").header("Retry-After", "20"),
        Reply::text("unused"),
    ]);
    let options = ClientOptions {
        retry: RetryPolicy::default(),
        ..fast_options()
    };
    let client = Arc::new(
        OpenAiClient::new(provider_for(&server, "openai", "gpt-4o", None), options).unwrap(),
    );
    let cancel = CancellationToken::new();
    let task = {
        let (client, cancel) = (Arc::clone(&client), cancel.clone());
        tokio::spawn(async move {
            client
                .chat(&[Message::user("hi")], &[], &NullSink, &cancel)
                .await
        })
    };
    server.wait_request(0).await;
    let cancelled_at = Instant::now();
    cancel.cancel();
    let result = task.await.unwrap();
    assert!(matches!(result, Err(LlmError::Cancelled)), "{result:?}");
    assert!(cancelled_at.elapsed() < Duration::from_secs(2));
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_silent_stream_hits_the_idle_timeout_and_is_retried() {
    let server = ScriptedServer::with_replies([
        Reply::text("x").hang_after(1),
        Reply::text("y").hang_after(1),
        Reply::text("unused"),
    ]);
    let options = ClientOptions {
        idle_timeout: Duration::from_millis(200),
        retry: RetryPolicy {
            max_attempts: 2,
            ..fast_options().retry
        },
        ..fast_options()
    };
    let client =
        OpenAiClient::new(provider_for(&server, "openai", "gpt-4o", None), options).unwrap();
    let error = chat(&client, &[Message::user("hi")]).await.unwrap_err();
    assert!(
        matches!(error, LlmError::IdleTimeout(d) if d == Duration::from_millis(200)),
        "{error:?}"
    );
    assert_eq!(server.chat_requests().len(), 2);
}

#[tokio::test]
async fn list_models_reads_sorted_unique_ids_with_auth() {
    let server = ScriptedServer::start();
    server.set_models(["zeta", "alpha", "zeta", "mid"]);
    let provider = provider_for(&server, "openai", "gpt-4o", Some("sk-m"));
    let ids = list_models(&provider, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(ids, vec!["alpha", "mid", "zeta"]);
    let request = server.wait_request(0).await;
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("GET", "/v1/models")
    );
    assert_eq!(request.header("authorization"), Some("Bearer sk-m"));
}

#[tokio::test]
async fn list_models_accepts_ollama_shape_and_types_errors() {
    let server = ScriptedServer::start();
    server.set_models_reply(Reply::json(
        json!({"models": [{"name": "qwen2.5-coder:7b"}]}),
    ));
    let provider = provider_for(&server, "ollama", "qwen", None);
    let ids = list_models(&provider, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(ids, vec!["qwen2.5-coder:7b"]);
    assert_eq!(server.wait_request(0).await.header("authorization"), None);
    server.set_models_reply(Reply::status(401, r#"{"error":{"message":"no key"}}"#));
    let error = list_models(&provider, Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(
        matches!(error, LlmError::Auth { status: 401, .. }),
        "{error:?}"
    );
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
async fn an_unreachable_server_is_a_connect_error_after_retries() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let info = paicli::llm::providers::lookup("openai").unwrap();
    let url = format!("http://127.0.0.1:{port}/v1");
    let provider = ResolvedProvider::new(info, "gpt-4o", Some(&url), None);
    let error = chat(&client(provider), &[Message::user("hi")])
        .await
        .unwrap_err();
    assert!(matches!(error, LlmError::Connect(_)), "{error:?}");
}
