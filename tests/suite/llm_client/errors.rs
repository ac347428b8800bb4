//! Non-retryable failures typed so a caller can act on the variant.

use pretty_assertions::assert_eq;

use super::*;

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
