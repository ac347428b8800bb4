//! Which failures are retried, how long the client waits, and when it must not retry.

use pretty_assertions::assert_eq;

use super::*;

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
