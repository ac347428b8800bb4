//! `paicli channel telegram start|status|stop` as a person runs them: the built binary against the Bot API
//! stand-in and the scripted model, a restart that does not replay and `--background` (WeChat's: `channels_wechat::cli`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};

use super::bot_api::{BotApi, OWNER, TOKEN};
use crate::support::cli::{CliSandbox, stderr_of, stdout_of};
use crate::support::{Reply, ScriptedServer};

fn sandbox(bot: &BotApi) -> CliSandbox {
    CliSandbox::new()
        .with_env("PAICLI_TELEGRAM_BOT_TOKEN", TOKEN)
        .with_env("PAICLI_TELEGRAM_BASE_URL", &bot.url())
        .with_env("PAICLI_TELEGRAM_ALLOW_FROM", &OWNER.to_string())
        .with_env("LANG", "en_US.UTF-8")
}

fn channel(sandbox: &CliSandbox, model: &ScriptedServer, args: &[&str]) -> Command {
    let mut cmd = sandbox.against(model);
    cmd.args(["channel", "telegram"]).args(args);
    cmd
}

async fn run(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

/// Stops a channel a failed assertion left running.
struct StopOnDrop(std::path::PathBuf);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let paicli::app::channel_status::ChannelState::Running { pid } =
            paicli::app::channel_status::channel_state(&self.0, "telegram")
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_status_stop_and_a_restart_in_the_background() {
    let bot = BotApi::start(1).await;
    let model =
        ScriptedServer::with_replies([Reply::text("first answer"), Reply::text("second answer")]);
    let s = sandbox(&bot);
    let _cleanup = StopOnDrop(s.paicli_home());

    let status = run(channel(&s, &model, &["status"])).await;
    assert_eq!(stdout_of(&status).trim(), "telegram: not running");
    let stop = run(channel(&s, &model, &["stop"])).await;
    assert_eq!(stop.status.code(), Some(1));
    assert!(stderr_of(&stop).contains("the telegram channel is not running"));

    let mut start = channel(&s, &model, &["start"]);
    start.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = start.spawn().unwrap();
    bot.wait_poll(1).await;
    let status = run(channel(&s, &model, &["status"])).await;
    let line = stdout_of(&status);
    assert!(
        line.starts_with(&format!("telegram: running (pid {})", child.id())),
        "{line}"
    );

    bot.text_from(OWNER, "first task");
    assert_eq!(bot.wait_sent(OWNER, 1).await, ["first answer"]);
    let again = run(channel(&s, &model, &["start"])).await;
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stderr_of(&again).contains(&format!("already runs (pid {})", child.id())),
        "{}",
        stderr_of(&again)
    );

    let stop = run(channel(&s, &model, &["stop"])).await;
    assert_eq!(stop.status.code(), Some(0), "{}", stderr_of(&stop));
    assert_eq!(
        stdout_of(&stop).trim(),
        format!("telegram: stopped (pid {})", child.id())
    );
    let exit = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    assert!(exit.success(), "{exit:?}");
    assert_eq!(
        stdout_of(&run(channel(&s, &model, &["status"])).await).trim(),
        "telegram: not running"
    );
    let dir = s.paicli_home().join("channels/telegram");
    for file in ["channel.log", "offset.json"] {
        let mode = std::fs::metadata(dir.join(file))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "{file}");
    }
    let log = std::fs::read_to_string(dir.join("channel.log")).unwrap();
    assert!(
        log.contains("started (pid") && log.contains("stopped (pid"),
        "{log}"
    );

    // A message sent while it was down runs after the restart; the first task does not run again.
    bot.text_from(OWNER, "second task");
    let background = run(channel(&s, &model, &["start", "--background"])).await;
    assert_eq!(
        background.status.code(),
        Some(0),
        "{}",
        stderr_of(&background)
    );
    assert!(
        stdout_of(&background).starts_with("telegram: running in the background (pid "),
        "{}",
        stdout_of(&background)
    );
    assert_eq!(
        bot.wait_sent(OWNER, 2).await,
        ["first answer", "second answer"]
    );
    let second = model.chat_requests()[1].body["messages"].to_string();
    assert!(
        second.contains("second task") && !second.contains("first task"),
        "{second}"
    );
    let stop = run(channel(&s, &model, &["stop"])).await;
    assert_eq!(stop.status.code(), Some(0), "{}", stderr_of(&stop));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_token_is_a_clear_error() {
    let model = ScriptedServer::start();
    let s = CliSandbox::new().with_env("LANG", "en_US.UTF-8");
    let start = run(channel(&s, &model, &["start"])).await;
    assert_eq!(start.status.code(), Some(1));
    assert!(
        stderr_of(&start).contains("PAICLI_TELEGRAM_BOT_TOKEN"),
        "{}",
        stderr_of(&start)
    );
    let log =
        std::fs::read_to_string(s.paicli_home().join("channels/telegram/channel.log")).unwrap();
    assert!(
        log.contains("telegram is not set up: no bot token"),
        "{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setup_names_the_bot_and_who_wrote_to_it() {
    let bot = BotApi::start(1).await;
    let s = sandbox(&bot);
    bot.text_from(OWNER, "hello bot");
    let mut setup = s.paicli();
    setup.args(["channel", "telegram", "setup"]);
    let out = run(setup).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(
        text.contains("Telegram bot @paicli_test_bot (id 123456) answers."),
        "{text}"
    );
    assert!(
        text.contains(&format!("Allowed senders: {OWNER}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("  {OWNER}  Person wrote to the bot")),
        "{text}"
    );
    // Nothing was confirmed: setup sent no offset.
    assert!(bot.calls("getUpdates")[0].body.get("offset").is_none());
}
