//! Cancellation returns promptly wherever the request is.

use pretty_assertions::assert_eq;

use super::*;

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
