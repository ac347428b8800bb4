//! `GET /models` discovery.

use pretty_assertions::assert_eq;

use super::*;

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
