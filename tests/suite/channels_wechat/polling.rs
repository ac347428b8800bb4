//! `poll`: long polls held and released, the server's timeout honoured, the cursor saved after every poll,
//! duplicates dropped across a restart, ids above 2^53 kept exact, `-14` pausing the account.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use base64::Engine as _;
use paicli::channels::transport::{ChannelError, IncomingKind, Transport};
use paicli::channels::wechat::{self, WechatTransport};
use paicli::text::Lang;
use tokio_util::sync::CancellationToken;

use super::ilink::{IlinkStandIn, Poll, saved_account, text_message, updates};

const USER: &str = "o9cq80-yXQ@im.wechat";

fn ids(messages: &[paicli::channels::transport::Incoming]) -> Vec<&str> {
    messages.iter().map(|m| m.message_id.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bot_request_carries_the_protocol_headers_and_base_info() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    server.add_poll(Poll::Answer(updates(&[], "c1")));
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    assert_eq!(transport.account().user_id(), USER);
    assert!(
        transport
            .poll(&CancellationToken::new())
            .await
            .unwrap()
            .is_empty()
    );
    transport.notify_stop().await.unwrap();

    let seen = server.seen();
    let paths: Vec<&str> = seen.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "/ilink/bot/msg/notifystart",
            "/ilink/bot/getupdates",
            "/ilink/bot/msg/notifystop"
        ]
    );
    for request in &seen {
        assert_eq!(request.method, "POST");
        assert_eq!(request.header("Content-Type"), Some("application/json"));
        assert_eq!(request.header("AuthorizationType"), Some("ilink_bot_token"));
        assert_eq!(
            request.header("Authorization"),
            Some("Bearer bot-token-secret")
        );
        assert_eq!(request.header("iLink-App-Id"), Some("bot"));
        assert_eq!(
            request.header("iLink-App-ClientVersion"),
            Some("256"),
            "0.1.0 as 0x00MMNNPP"
        );
        let uin = base64::engine::general_purpose::STANDARD
            .decode(request.header("X-WECHAT-UIN").unwrap())
            .unwrap();
        assert!(String::from_utf8(uin).unwrap().parse::<u32>().is_ok());
        assert_eq!(
            request.body["base_info"]["channel_version"],
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(
            request.body["base_info"]["bot_agent"],
            format!("paicli/{}", env!("CARGO_PKG_VERSION"))
        );
    }
    assert_eq!(seen[1].body["get_updates_buf"], "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_poll_returns_when_a_message_arrives_or_the_caller_cancels() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    let transport =
        std::sync::Arc::new(WechatTransport::open(home.path(), &server.url, Lang::En).unwrap());

    let polling = {
        let transport = std::sync::Arc::clone(&transport);
        tokio::spawn(async move { transport.poll(&CancellationToken::new()).await })
    };
    server.wait_for("getupdates", 1).await;
    assert!(!polling.is_finished());
    server.release(&updates(
        &[text_message("101", 1, USER, "ctx-1", "hello")],
        "c1",
    ));
    let got = polling.await.unwrap().unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].sender, USER);
    assert_eq!(got[0].chat.chat_id, USER);
    assert_eq!(got[0].chat.reply_token.as_deref(), Some("ctx-1"));
    assert_eq!(got[0].kind, IncomingKind::Text("hello".into()));

    // The next poll is held with nothing to say; cancelling ends it at once, with nothing.
    let cancel = CancellationToken::new();
    let polling = {
        let (transport, cancel) = (std::sync::Arc::clone(&transport), cancel.clone());
        tokio::spawn(async move { transport.poll(&cancel).await })
    };
    let held = server.wait_for("getupdates", 2).await;
    assert_eq!(held[1].body["get_updates_buf"], "c1");
    cancel.cancel();
    let got = tokio::time::timeout(Duration::from_secs(5), polling)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(got.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_suggested_timeout_ends_a_silent_poll() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    server.add_poll(Poll::Answer(
        r#"{"ret":0,"msgs":[],"get_updates_buf":"c1","longpolling_timeout_ms":300}"#.into(),
    ));
    // Then the server never answers.
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    transport.poll(&CancellationToken::new()).await.unwrap();
    let started = Instant::now();
    let got = tokio::time::timeout(
        Duration::from_secs(20),
        transport.poll(&CancellationToken::new()),
    )
    .await
    .expect("the suggested 300 ms (not the 35 s default) bounds the poll")
    .unwrap();
    assert!(got.is_empty());
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_from_the_saved_cursor_without_replaying() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    server.add_poll(Poll::Answer(updates(
        &[
            text_message("201", 1, USER, "ctx-1", "one"),
            text_message("202", 2, USER, "ctx-2", "two"),
        ],
        "cursor-after-202",
    )));
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    let got = transport.poll(&CancellationToken::new()).await.unwrap();
    assert_eq!(ids(&got), vec!["201", "202"]);
    let state = home.path().join("channels/wechat/poll_state.json");
    assert!(
        std::fs::read_to_string(&state)
            .unwrap()
            .contains("cursor-after-202")
    );
    assert_eq!(
        std::fs::metadata(&state).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(wechat::status(home.path()).unwrap().has_cursor);
    drop(transport);

    // A new process: it asks from the saved cursor, and a server that sends 202 again is not obeyed twice.
    server.add_poll(Poll::Answer(updates(
        &[
            text_message("202", 2, USER, "ctx-2", "two"),
            text_message("203", 3, USER, "ctx-3", "three"),
        ],
        "cursor-after-203",
    )));
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    let got = transport.poll(&CancellationToken::new()).await.unwrap();
    assert_eq!(ids(&got), vec!["203"]);
    let polls = server.seen_at("getupdates");
    assert_eq!(polls[1].body["get_updates_buf"], "cursor-after-202");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_out_of_order_and_huge_ids_are_delivered_once_in_order_and_exact() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    // 2^53 + 1 and 2^53 are one number as an f64; as strings they are two messages.
    server.add_poll(Poll::Answer(updates(
        &[
            text_message("9007199254740993", 6, USER, "ctx-b", "second"),
            text_message("9007199254740992", 5, USER, "ctx-a", "first"),
            text_message("9007199254740993", 6, USER, "ctx-b", "second"),
            text_message("\"18446744073709551615\"", 7, USER, "ctx-c", "third"),
            text_message(
                "18446744073709551614",
                8,
                "b0f5860fdecb@im.bot",
                "",
                "our own echo",
            )
            .replace(r#""message_type":1"#, r#""message_type":2"#),
        ],
        "c1",
    )));
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    let got = transport.poll(&CancellationToken::new()).await.unwrap();
    assert_eq!(
        ids(&got),
        vec![
            "9007199254740992",
            "9007199254740993",
            "18446744073709551615"
        ]
    );
    let texts: Vec<&IncomingKind> = got.iter().map(|m| &m.kind).collect();
    assert_eq!(
        texts,
        vec![
            &IncomingKind::Text("first".into()),
            &IncomingKind::Text("second".into()),
            &IncomingKind::Text("third".into()),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_in_the_body_are_typed_and_minus_14_pauses_the_account() {
    let server = IlinkStandIn::start().await;
    let home = tempfile::tempdir().unwrap();
    saved_account(home.path(), USER);
    server.add_poll(Poll::Answer(r#"{"ret":-1,"errmsg":"system error"}"#.into()));
    server.add_poll(Poll::Status(502, "bad gateway".into()));
    server.add_poll(Poll::Answer(
        r#"{"ret":0,"errcode":-14,"errmsg":"session timeout"}"#.into(),
    ));
    let transport = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    let never = CancellationToken::new();

    let error = transport.poll(&never).await.unwrap_err();
    assert!(
        matches!(&error, ChannelError::Api { code: -1, message, .. } if message == "system error"),
        "{error}"
    );
    let error = transport.poll(&never).await.unwrap_err();
    assert!(
        matches!(&error, ChannelError::Http { detail, .. } if detail.contains("502")),
        "{error}"
    );
    let error = transport.poll(&never).await.unwrap_err();
    assert!(matches!(error, ChannelError::Paused { .. }), "{error}");
    assert!(transport.paused().unwrap().contains("session timeout"));

    // Paused: nothing more is asked of the server, in this process or the next.
    let asked = server.seen_at("getupdates").len();
    assert!(matches!(
        transport.poll(&never).await,
        Err(ChannelError::Paused { .. })
    ));
    let restarted = WechatTransport::open(home.path(), &server.url, Lang::En).unwrap();
    assert!(matches!(
        restarted.poll(&never).await,
        Err(ChannelError::Paused { .. })
    ));
    assert_eq!(server.seen_at("getupdates").len(), asked);
    assert!(wechat::status(home.path()).unwrap().paused.is_some());
}
