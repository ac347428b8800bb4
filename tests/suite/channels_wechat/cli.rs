//! `paicli channel wechat setup|start|status` as a person runs them: the built binary against the iLink stand-in
//! and the scripted model. Setup needs no stdin; a `-14` while the channel runs stops it with the notice on stderr
//! and in the channel's log, said once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};

use serde_json::json;

use super::ilink::{IlinkStandIn, text_message, updates};
use crate::support::cli::{CliSandbox, stderr_of, stdout_of};
use crate::support::{Reply, ScriptedServer};

const OWNER: &str = "o9cq80-yXQ@im.wechat";

fn sandbox(ilink: &IlinkStandIn) -> CliSandbox {
    CliSandbox::new()
        .with_env("PAICLI_WECHAT_BASE_URL", &ilink.url)
        .with_env("LANG", "en_US.UTF-8")
}

async fn run(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

fn wechat(sandbox: &CliSandbox, model: &ScriptedServer, args: &[&str]) -> Command {
    let mut cmd = sandbox.against(model);
    cmd.args(["channel", "wechat"]).args(args);
    cmd
}

/// Logs in through the binary: a QR code, scanned, confirmed.
async fn set_up(s: &CliSandbox, ilink: &IlinkStandIn, model: &ScriptedServer) -> Output {
    ilink.add_qr_code(
        "qr-1",
        "https://liteapp.weixin.qq.com/q/one?qrcode=qr-1&bot_type=3",
    );
    ilink.add_statuses(
        "qr-1",
        [
            json!({"status": "scaned"}),
            json!({
                "status": "confirmed", "bot_token": "bot-token-secret", "ilink_bot_id": "b0f5860fdecb@im.bot",
                "ilink_user_id": OWNER,
            }),
        ],
    );
    run(wechat(s, model, &["setup"])).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setup_with_stdin_closed_links_the_account_and_status_shows_it() {
    let ilink = IlinkStandIn::start().await;
    let model = ScriptedServer::start();
    let s = sandbox(&ilink);
    let status = run(wechat(&s, &model, &["status"])).await;
    assert_eq!(
        stdout_of(&status),
        "wechat: not running\nNot linked to WeChat: run `paicli channel wechat setup` and scan the QR code.\n"
    );
    let start = run(wechat(&s, &model, &["start"])).await;
    assert_eq!(start.status.code(), Some(1));
    assert!(
        stderr_of(&start).contains("no saved login; run `paicli channel wechat setup`"),
        "{}",
        stderr_of(&start)
    );

    let out = set_up(&s, &ilink, &model).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.contains("Scan this QR code with WeChat"), "{text}");
    assert!(
        text.contains("open this link instead: https://liteapp.weixin.qq.com/q/one?qrcode=qr-1"),
        "{text}"
    );
    assert!(
        text.contains("Scanned; confirm the login in WeChat"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Linked to WeChat. Bound user: {OWNER}")),
        "{text}"
    );
    let account = s.paicli_home().join("channels/wechat/account.json");
    let mode = std::fs::metadata(&account).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(
        std::fs::read_to_string(&account)
            .unwrap()
            .contains("bot-token-secret")
    );
    // The QR login went to the configured address; the status poll asked about the code shown.
    assert_eq!(ilink.seen_at("get_bot_qrcode").len(), 1);
    assert_eq!(
        ilink.seen_at("get_qrcode_status")[0].query["qrcode"],
        "qr-1"
    );

    let status = run(wechat(&s, &model, &["status"])).await;
    let lines = stdout_of(&status);
    assert!(lines.starts_with("wechat: not running\n"), "{lines}");
    assert!(
        lines.contains(&format!(
            "Bound user: {OWNER} (bot b0f5860fdecb@im.bot, linked "
        )),
        "{lines}"
    );
    assert!(lines.contains("The account is active."), "{lines}");
    assert!(lines.contains("No message cursor is saved yet."), "{lines}");
    // PaiCLI's spelling says the same.
    let mut alias = s.against(&model);
    alias.args(["wechat", "status"]);
    assert_eq!(stdout_of(&run(alias).await), lines);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minus_14_stops_a_running_channel_with_the_notice_said_once() {
    let ilink = IlinkStandIn::start().await;
    let model = ScriptedServer::with_replies([Reply::text("hello from the agent")]);
    let s = sandbox(&ilink);
    assert_eq!(set_up(&s, &ilink, &model).await.status.code(), Some(0));

    let mut start = wechat(&s, &model, &["start"]);
    start.stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = start.spawn().unwrap();
    ilink.wait_for("getupdates", 1).await;
    ilink.release(&updates(
        &[text_message("7", 1, OWNER, "ctx-1", "hi")],
        "cursor-1",
    ));
    let sent = ilink.wait_for("sendmessage", 1).await;
    assert_eq!(
        sent[0].body["msg"]["item_list"][0]["text_item"]["text"],
        "hello from the agent"
    );
    assert_eq!(sent[0].body["msg"]["context_token"], "ctx-1");
    ilink.wait_for("getupdates", 2).await;
    ilink.release(r#"{"ret":-14,"errmsg":"session timeout"}"#);
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("the account is paused")
            && stderr.contains("log in again with `paicli channel wechat setup`"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("the account is paused").count(),
        1,
        "{stderr}"
    );
    let log = std::fs::read_to_string(s.paicli_home().join("channels/wechat/channel.log")).unwrap();
    assert_eq!(log.matches("the account is paused").count(), 1, "{log}");
    assert!(log.contains("paicli channel wechat setup"), "{log}");
    assert!(
        log.contains("started (pid") && log.contains("stopped (pid"),
        "{log}"
    );
    // The bound user is the allow list: one sender.
    assert!(log.contains("1 allowed senders"), "{log}");

    let status = stdout_of(&run(wechat(&s, &model, &["status"])).await);
    assert!(
        status.contains("The account is paused (") && status.contains("session timeout"),
        "{status}"
    );
    assert!(status.contains("A message cursor is saved"), "{status}");
    // A start now refuses at once, before it polls, and says why.
    let polls = ilink.seen_at("getupdates").len();
    let again = run(wechat(&s, &model, &["start"])).await;
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stderr_of(&again).contains("answered -14: session timeout); log in again with"),
        "{}",
        stderr_of(&again)
    );
    assert_eq!(ilink.seen_at("getupdates").len(), polls);
    // Logging in again lifts the pause.
    assert_eq!(set_up(&s, &ilink, &model).await.status.code(), Some(0));
    let status = stdout_of(&run(wechat(&s, &model, &["status"])).await);
    assert!(status.contains("The account is active."), "{status}");
}
