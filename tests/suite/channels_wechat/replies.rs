//! `send`, `ask` and `typing`: replies under the incoming message's context token, reduced to plain text,
//! split at line boundaries within the per-message quota, and the server's refusals (`-2`, `-14`) typed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use paicli::channels::transport::{ChannelError, ChatRef, Question, Transport};
use paicli::channels::wechat::{MAX_CHARS, SENDS_PER_MESSAGE, WechatTransport};
use paicli::text::Lang;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ilink::{IlinkStandIn, Poll, saved_account, text_message, updates};

const USER: &str = "o9cq80-yXQ@im.wechat";

/// A transport that has received one message (`ctx-1`), and the chat to answer in.
async fn after_one_message(
    server: &IlinkStandIn,
    home: &std::path::Path,
    lang: Lang,
) -> (WechatTransport, ChatRef) {
    saved_account(home, USER);
    server.add_poll(Poll::Answer(updates(
        &[text_message("1", 1, USER, "ctx-1", "go")],
        "c1",
    )));
    let transport = WechatTransport::open(home, &server.url, lang).unwrap();
    let got = transport.poll(&CancellationToken::new()).await.unwrap();
    (transport, got[0].chat.clone())
}

fn sent_texts(server: &IlinkStandIn) -> Vec<String> {
    server
        .seen_at("sendmessage")
        .iter()
        .map(|s| {
            s.body["msg"]["item_list"][0]["text_item"]["text"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_20000_character_answer_is_split_at_lines_within_the_quota() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    let lines: Vec<String> = (0..330)
        .map(|i| format!("line {i:04}: the agent changed several files and ran the tests"))
        .collect();
    let answer = lines.join("\n");
    assert!(answer.chars().count() >= 20_000);
    transport.send(&chat, &answer).await.unwrap();

    let requests = server.seen_at("sendmessage");
    let texts = sent_texts(&server);
    // 20,129 characters in lines of 60: pieces of at most 62 whole lines (3,781 characters), so six sends.
    assert_eq!(texts.len(), 6);
    assert!(texts.len() <= SENDS_PER_MESSAGE);
    for text in &texts {
        assert!(
            text.chars().count() <= MAX_CHARS,
            "{}",
            text.chars().count()
        );
    }
    // Every piece is whole lines, and together they are the answer, in order.
    let received: Vec<&str> = texts.iter().flat_map(|t| t.lines()).collect();
    assert_eq!(
        received,
        lines.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let mut client_ids = HashSet::new();
    for request in &requests {
        let msg = &request.body["msg"];
        assert_eq!(msg["to_user_id"], USER);
        assert_eq!(msg["context_token"], "ctx-1");
        assert_eq!(msg["message_type"], 2);
        assert_eq!(msg["message_state"], 2);
        assert_eq!(msg["item_list"][0]["type"], 1);
        assert_eq!(
            request.header("Authorization"),
            Some("Bearer bot-token-secret")
        );
        assert!(request.body["base_info"].is_object());
        assert!(client_ids.insert(msg["client_id"].as_str().unwrap().to_string()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_than_the_quota_is_cut_with_a_notice_and_the_eleventh_send_is_refused_locally() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    let answer = "word ".repeat(12_000);
    transport.send(&chat, &answer).await.unwrap();
    let texts = sent_texts(&server);
    assert_eq!(texts.len(), SENDS_PER_MESSAGE);
    assert!(texts.iter().all(|t| t.chars().count() <= MAX_CHARS));
    let last = texts.last().unwrap();
    assert!(last.contains("more characters not sent"), "{last}");

    let error = transport.send(&chat, "one more").await.unwrap_err();
    assert!(matches!(error, ChannelError::ReplyQuota { .. }), "{error}");
    assert_eq!(server.seen_at("sendmessage").len(), SENDS_PER_MESSAGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_token_is_a_quota_error_and_a_fresher_token_is_used_when_there_is_one() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    server.add_send_answers([json!({"ret": -2, "errmsg": "context token expired"})]);
    let error = transport.send(&chat, "done").await.unwrap_err();
    assert!(
        matches!(&error, ChannelError::ReplyQuota { detail, .. } if detail.contains("context token expired")),
        "{error}"
    );
    // No fresher token: no retry that could only fail the same way.
    assert_eq!(server.seen_at("sendmessage").len(), 1);

    // The person writes again: the spent token's replies go out under the new one.
    server.add_poll(Poll::Answer(updates(
        &[text_message("2", 2, USER, "ctx-2", "y")],
        "c2",
    )));
    transport.poll(&CancellationToken::new()).await.unwrap();
    transport.send(&chat, "done").await.unwrap();
    let sends = server.seen_at("sendmessage");
    assert_eq!(sends.len(), 2);
    assert_eq!(sends[1].body["msg"]["context_token"], "ctx-2");

    // A refusal mid-reply is retried once under the chat's newest token.
    server.add_poll(Poll::Answer(updates(
        &[text_message("3", 3, USER, "ctx-3", "more")],
        "c3",
    )));
    transport.poll(&CancellationToken::new()).await.unwrap();
    server.add_send_answers([json!({"ret": -2, "errmsg": "quota"})]);
    let old_chat = ChatRef {
        reply_token: Some("ctx-2".into()),
        ..chat
    };
    transport.send(&old_chat, "again").await.unwrap();
    let tokens: Vec<String> = server.seen_at("sendmessage")[2..]
        .iter()
        .map(|s| s.body["msg"]["context_token"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens, vec!["ctx-2", "ctx-3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_server_gets_one_retry_of_the_same_message() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    server.add_send_answers([json!({"ret": -1, "errmsg": "system busy"})]);
    transport.send(&chat, "hello").await.unwrap();
    let sends = server.seen_at("sendmessage");
    assert_eq!(sends.len(), 2);
    assert_eq!(
        sends[0].body["msg"]["client_id"],
        sends[1].body["msg"]["client_id"]
    );

    // A second failure is reported, not retried again.
    server.add_send_answers([
        json!({"ret": -1, "errmsg": "system busy"}),
        json!({"ret": 0, "errcode": -1, "errmsg": "still busy"}),
    ]);
    let error = transport.send(&chat, "hello").await.unwrap_err();
    assert!(
        matches!(&error, ChannelError::Api { message, .. } if message.contains("still busy")),
        "{error}"
    );
    assert_eq!(server.seen_at("sendmessage").len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minus_14_on_a_send_pauses_and_nothing_more_is_sent() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    server.add_send_answers([json!({"ret": -14, "errmsg": "session timeout"})]);
    let error = transport.send(&chat, "hello").await.unwrap_err();
    assert!(matches!(error, ChannelError::Paused { .. }), "{error}");
    assert!(matches!(
        transport.send(&chat, "again").await,
        Err(ChannelError::Paused { .. })
    ));
    assert!(matches!(
        transport.typing(&chat, true).await,
        Err(ChannelError::Paused { .. })
    ));
    assert_eq!(server.seen_at("sendmessage").len(), 1);
    assert!(
        paicli::channels::wechat::status(home.path())
            .unwrap()
            .paused
            .is_some()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markdown_is_reduced_but_an_approval_shows_the_call_exactly() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::Zh).await;
    transport
        .send(
            &chat,
            "## Done\n\n**Tests** pass; see [the log](https://example.com/log).",
        )
        .await
        .unwrap();
    let question = Question {
        id: "q1".into(),
        text: "execute_command: rm -rf build/**/*.o".into(),
        approve_label: "批准".into(),
        deny_label: "拒绝".into(),
    };
    transport.ask(&chat, &question).await.unwrap();
    assert_eq!(
        sent_texts(&server),
        vec![
            "Done\n\nTests pass; see the log (https://example.com/log).".to_string(),
            "execute_command: rm -rf build/**/*.o\n回复 y 批准 / n 拒绝".to_string(),
        ]
    );

    let (en, chat) = {
        let server = IlinkStandIn::start().await;
        let home = tempfile::tempdir().unwrap();
        let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
        transport.ask(&chat, &question).await.unwrap();
        (sent_texts(&server), chat)
    };
    assert_eq!(
        en,
        vec!["execute_command: rm -rf build/**/*.o\nReply y to approve / n to deny"]
    );
    assert_eq!(chat.reply_token.as_deref(), Some("ctx-1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_asks_for_a_ticket_once_and_sets_and_clears_the_status() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    let (transport, chat) = after_one_message(&server, home.path(), Lang::En).await;
    transport.typing(&chat, true).await.unwrap();
    transport.typing(&chat, false).await.unwrap();
    let config = server.seen_at("getconfig");
    assert_eq!(config.len(), 1);
    assert_eq!(config[0].body["ilink_user_id"], USER);
    assert_eq!(config[0].body["context_token"], "ctx-1");
    let typing: Vec<(serde_json::Value, serde_json::Value)> = server
        .seen_at("sendtyping")
        .iter()
        .map(|s| (s.body["typing_ticket"].clone(), s.body["status"].clone()))
        .collect();
    assert_eq!(
        typing,
        vec![
            (json!("dGlja2V0LTE="), json!(1)),
            (json!("dGlja2V0LTE="), json!(2))
        ]
    );
}
