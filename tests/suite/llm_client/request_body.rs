//! Request body shape per provider, and the headers sent with it.

use pretty_assertions::assert_eq;

use super::*;

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
