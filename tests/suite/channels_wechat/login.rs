//! `setup`: the QR login through its documented states, saved 0600 in `account.json` only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;

use paicli::channels::transport::ChannelError;
use paicli::channels::wechat::{self, VerifyCodeSource};
use paicli::text::Lang;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ilink::IlinkStandIn;

/// No one at the keyboard: stdin is closed.
struct StdinClosed;
impl VerifyCodeSource for StdinClosed {
    fn verify_code(&mut self) -> Option<String> {
        None
    }
}

/// A person who types the code shown on the phone.
struct Types(&'static str);
impl VerifyCodeSource for Types {
    fn verify_code(&mut self) -> Option<String> {
        Some(self.0.to_string())
    }
}

fn confirmed(base_url: &str) -> serde_json::Value {
    json!({
        "status": "confirmed", "bot_token": "bot-token-secret", "ilink_bot_id": "b0f5860fdecb@im.bot",
        "baseurl": base_url, "ilink_user_id": "o9cq80-yXQ@im.wechat",
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_goes_through_scan_expiry_and_redirect_to_a_saved_account() {
    let first = IlinkStandIn::start().await;
    let second = IlinkStandIn::start().await;
    first.add_qr_code(
        "qr-1",
        "https://liteapp.weixin.qq.com/q/one?qrcode=qr-1&bot_type=3",
    );
    first.add_qr_code(
        "qr-2",
        "https://liteapp.weixin.qq.com/q/two?qrcode=qr-2&bot_type=3",
    );
    first.add_statuses(
        "qr-1",
        [
            json!({"status": "wait"}),
            json!({"status": "scaned"}),
            json!({"status": "expired"}),
        ],
    );
    // The second code is scanned in another data centre: polling continues at the host it names.
    first.add_statuses(
        "qr-2",
        [json!({"status": "scaned_but_redirect", "redirect_host": second.host()})],
    );
    second.add_statuses(
        "qr-2",
        [json!({"status": "scaned"}), confirmed(&second.url)],
    );

    let home = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    let account = wechat::setup(
        home.path(),
        &first.url,
        Lang::En,
        &mut out,
        &mut StdinClosed,
        &CancellationToken::new(),
    )
    .await
    .unwrap();

    assert_eq!(account.user_id(), "o9cq80-yXQ@im.wechat");
    assert_eq!(account.base_url.as_deref(), Some(second.url.as_str()));
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out.matches("Scan this QR code with WeChat").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("open this link instead: https://liteapp.weixin.qq.com/q/one?qrcode=qr-1")
    );
    assert!(
        out.contains("open this link instead: https://liteapp.weixin.qq.com/q/two?qrcode=qr-2")
    );
    assert!(out.contains('█'), "the QR code is drawn: {out}");
    assert!(out.contains("here is a new one (2/3)"), "{out}");
    assert!(out.contains("Bound user: o9cq80-yXQ@im.wechat"), "{out}");

    // The QR requests are unauthenticated and carry the application headers.
    let qr_requests = first.seen_at("get_bot_qrcode");
    assert_eq!(qr_requests.len(), 2);
    for request in &qr_requests {
        assert_eq!(request.method, "POST");
        assert_eq!(request.query.get("bot_type").map(String::as_str), Some("3"));
        assert_eq!(request.header("Authorization"), None);
        assert_eq!(request.header("iLink-App-Id"), Some("bot"));
        assert!(
            request
                .header("iLink-App-ClientVersion")
                .unwrap()
                .parse::<u32>()
                .is_ok()
        );
        assert!(request.body["local_token_list"].is_array());
    }
    let polled_second: Vec<String> = second
        .seen_at("get_qrcode_status")
        .iter()
        .map(|s| s.query["qrcode"].clone())
        .collect();
    assert_eq!(polled_second, vec!["qr-2", "qr-2"]);
    assert!(
        second
            .seen_at("get_qrcode_status")
            .iter()
            .all(|s| s.method == "GET"
                && s.header("Authorization").is_none()
                && s.header("iLink-App-Id") == Some("bot"))
    );

    // The token is saved 0600 in account.json and in no other file.
    let dir = home.path().join("channels/wechat");
    let file = dir.join("account.json");
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("bot-token-secret")
    );
    for entry in walk(home.path()) {
        if entry != file {
            let text = std::fs::read_to_string(&entry).unwrap_or_default();
            assert!(!text.contains("bot-token-secret"), "{}", entry.display());
        }
    }
    let status = wechat::status(home.path()).unwrap();
    assert_eq!(status.user_id, "o9cq80-yXQ@im.wechat");
    assert_eq!(status.paused, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verification_code_is_sent_when_asked_and_a_closed_stdin_fails_clearly() {
    let server = IlinkStandIn::start().await;
    server.add_qr_code("qr-1", "https://liteapp.weixin.qq.com/q/one");
    server.add_statuses(
        "qr-1",
        [
            json!({"status": "scaned"}),
            json!({"status": "need_verifycode"}),
            confirmed(""),
        ],
    );
    let home = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    let account = wechat::setup(
        home.path(),
        &server.url,
        Lang::Zh,
        &mut out,
        &mut Types("482913"),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(account.base_url, None);
    let polls = server.seen_at("get_qrcode_status");
    assert_eq!(polls.len(), 3);
    assert_eq!(polls[1].query.get("verify_code"), None);
    assert_eq!(
        polls[2].query.get("verify_code").map(String::as_str),
        Some("482913")
    );
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("用微信扫描"), "{out}");
    assert!(out.contains("验证码"), "{out}");

    // The same request with no one to type the code: a clear error, and nothing saved.
    let server = IlinkStandIn::start().await;
    server.add_qr_code("qr-1", "https://liteapp.weixin.qq.com/q/one");
    server.add_statuses("qr-1", [json!({"status": "need_verifycode"})]);
    let home = tempfile::tempdir().unwrap();
    let error = wechat::setup(
        home.path(),
        &server.url,
        Lang::En,
        &mut Vec::new(),
        &mut StdinClosed,
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&error, ChannelError::NotSetUp { detail, .. } if detail.contains("stdin is closed")),
        "{error}"
    );
    assert!(!home.path().join("channels/wechat/account.json").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_in_a_200_body_stops_the_login_and_cancel_ends_it() {
    let server = IlinkStandIn::start().await;
    // No QR code scripted: the stand-in answers HTTP 200 with `ret: -1`.
    let home = tempfile::tempdir().unwrap();
    let error = wechat::setup(
        home.path(),
        &server.url,
        Lang::En,
        &mut Vec::new(),
        &mut StdinClosed,
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(error, ChannelError::Api { code: -1, .. }),
        "{error}"
    );

    // Waiting for a scan that never comes ends when the caller cancels.
    server.add_qr_code("qr-9", "https://liteapp.weixin.qq.com/q/nine");
    let cancel = CancellationToken::new();
    let login = {
        let (home, url, cancel) = (
            home.path().to_path_buf(),
            server.url.clone(),
            cancel.clone(),
        );
        tokio::spawn(async move {
            wechat::setup(
                &home,
                &url,
                Lang::En,
                &mut Vec::new(),
                &mut StdinClosed,
                &cancel,
            )
            .await
        })
    };
    server.wait_for("get_qrcode_status", 2).await;
    cancel.cancel();
    let error = login.await.unwrap().unwrap_err();
    assert!(matches!(error, ChannelError::NotSetUp { .. }), "{error}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_login_shows_in_each_language() {
    for (lang, name) in [(Lang::En, "login_screen_en"), (Lang::Zh, "login_screen_zh")] {
        let server = IlinkStandIn::start().await;
        server.add_qr_code(
            "qr-1",
            "https://liteapp.weixin.qq.com/q/7GiQu1?qrcode=qr-1&bot_type=3",
        );
        server.add_statuses(
            "qr-1",
            [
                json!({"status": "wait"}),
                json!({"status": "scaned"}),
                confirmed(""),
            ],
        );
        let home = tempfile::tempdir().unwrap();
        let mut out = Vec::new();
        wechat::setup(
            home.path(),
            &server.url,
            lang,
            &mut out,
            &mut StdinClosed,
            &CancellationToken::new(),
        )
        .await
        .unwrap();
        insta::assert_snapshot!(name, String::from_utf8(out).unwrap());
    }
}
