//! `paicli channel <telegram|wechat> setup|start|status|stop` (and `paicli wechat …`): what each does for each
//! service. Output for people goes to stdout, errors to stderr; the exit code is 0 on success.

use std::sync::Arc;

use super::log::ChannelLog;
use tokio_util::sync::CancellationToken;

use super::service::{ServiceError, run_foreground, start_background, stop, stop_signal};
use super::telegram::TelegramTransport;
use super::telegram::setup::check_bot;
use super::transport::{ChannelError, ChannelKind, Transport};
use super::wechat::{self, WechatTransport};
use crate::app::channel_status::{ChannelState, channel_state, log_path};
use crate::config::Config;
use crate::text::{Lang, Msg, tr, trf};

/// What to do with a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelAction {
    /// Log in (WeChat's QR code) or check the bot (Telegram).
    Setup,
    /// Serve the chats; `background` detaches.
    Start {
        background: bool,
    },
    Status,
    Stop,
}

/// Runs `action` for `kind`; returns the exit code (errors already printed).
pub fn run(config: Config, lang: Lang, kind: ChannelKind, action: ChannelAction) -> i32 {
    let log = ChannelLog::new(&config.home, kind.id());
    match act(config, lang, kind, action) {
        Ok(()) => 0,
        // Already said on stderr and in the log by the layer that stopped.
        Err(ServiceError::Ended(_)) => 1,
        Err(e) => {
            let text = e.describe(lang);
            eprintln!("paicli: {text}");
            // A channel that could not start (or stopped on a service error) says why in its log too.
            if matches!(action, ChannelAction::Start { .. }) {
                log.append(&text);
            }
            1
        }
    }
}

fn act(
    mut config: Config,
    lang: Lang,
    kind: ChannelKind,
    action: ChannelAction,
) -> Result<(), ServiceError> {
    let channel = kind.id();
    match action {
        ChannelAction::Status => {
            let log = log_path(&config.home, channel).display().to_string();
            match channel_state(&config.home, channel) {
                ChannelState::Running { pid } => println!(
                    "{}",
                    trf(
                        lang,
                        Msg::ChannelStatusRunning,
                        &[("channel", &channel), ("pid", &pid), ("log", &log)]
                    )
                ),
                ChannelState::Stopped => println!(
                    "{}",
                    trf(lang, Msg::ChannelStatusStopped, &[("channel", &channel)])
                ),
            }
            if kind == ChannelKind::Wechat {
                print_wechat_status(&config, lang)?;
            }
            Ok(())
        }
        ChannelAction::Stop => {
            let pid = stop(&config.home, channel)?;
            println!(
                "{}",
                trf(
                    lang,
                    Msg::ChannelStoppedPid,
                    &[("channel", &channel), ("pid", &pid)]
                )
            );
            Ok(())
        }
        ChannelAction::Start { background: true } => {
            // The child reports its own start-up errors to the log; a missing login is said here at once.
            transport(&config, kind, lang)?;
            let pid = start_background(&config.home, channel)?;
            let log = log_path(&config.home, channel).display().to_string();
            println!(
                "{}",
                trf(
                    lang,
                    Msg::ChannelBackground,
                    &[("channel", &channel), ("pid", &pid), ("log", &log)]
                )
            );
            Ok(())
        }
        ChannelAction::Start { background: false } => {
            let runtime = runtime()?;
            runtime.block_on(async {
                let (transport, allow_from) = transport(&config, kind, lang)?;
                crate::app::discover_served(&mut config)
                    .await
                    .map_err(|e| ChannelError::NotSetUp {
                        channel,
                        detail: e.to_string(),
                    })?;
                run_foreground(&config, transport, allow_from).await
            })
        }
        ChannelAction::Setup => match kind {
            ChannelKind::Telegram => {
                let report = runtime()?.block_on(check_bot(&config))?;
                print_telegram_setup(&config, lang, &report);
                Ok(())
            }
            ChannelKind::Wechat => {
                runtime()?.block_on(wechat_setup(&config, lang))?;
                Ok(())
            }
        },
    }
}

/// The service's transport from the user's settings, and the senders it hears.
fn transport(
    config: &Config,
    kind: ChannelKind,
    lang: Lang,
) -> Result<(Arc<dyn Transport>, Vec<String>), ServiceError> {
    match kind {
        ChannelKind::Telegram => Ok((
            Arc::new(TelegramTransport::from_config(config)?),
            config.channels.telegram.allow_from.clone(),
        )),
        ChannelKind::Wechat => {
            let transport = WechatTransport::open(&config.home, wechat_base_url(config), lang)?;
            // Paused by the server (`-14`): nothing would be polled or sent; say so before starting.
            if let Some(detail) = transport.paused() {
                return Err(ChannelError::Paused {
                    channel: kind.id(),
                    detail,
                }
                .into());
            }
            let allow_from = wechat_allow_from(transport.account(), config);
            Ok((Arc::new(transport), allow_from))
        }
    }
}

/// `[channels.wechat] base_url`, else Tencent's.
fn wechat_base_url(config: &Config) -> &str {
    config
        .channels
        .wechat
        .base_url
        .as_deref()
        .unwrap_or(wechat::DEFAULT_BASE_URL)
}

/// The bound user (who scanned the QR code), then anyone the user's settings add.
fn wechat_allow_from(account: &wechat::Account, config: &Config) -> Vec<String> {
    let mut allowed = vec![account.user_id().to_string()];
    for id in &config.channels.wechat.allow_from {
        if !allowed.contains(id) {
            allowed.push(id.clone());
        }
    }
    allowed
}

/// The QR login; Ctrl-C or SIGTERM cancels it. Needs no terminal input unless WeChat asks for a code.
async fn wechat_setup(config: &Config, lang: Lang) -> Result<(), ServiceError> {
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let signals = tokio::spawn(async move {
        stop_signal().await;
        on_signal.cancel();
    });
    let mut out = std::io::stdout();
    let result = wechat::setup(
        &config.home,
        wechat_base_url(config),
        lang,
        &mut out,
        &mut wechat::StdinCodes,
        &cancel,
    )
    .await;
    signals.abort();
    result.map(drop).map_err(ServiceError::from)
}

/// The saved login: the bound user, whether the server paused it, whether a start resumes from a cursor.
fn print_wechat_status(config: &Config, lang: Lang) -> Result<(), ServiceError> {
    let status = match wechat::status(&config.home) {
        Ok(status) => status,
        Err(ChannelError::NotSetUp { .. }) => {
            println!("{}", tr(lang, Msg::WechatNotLinked));
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    println!(
        "{}",
        trf(
            lang,
            Msg::WechatBoundUser,
            &[
                ("user", &status.user_id),
                ("bot", &status.bot_id),
                ("since", &status.saved_at)
            ]
        )
    );
    let extra = &config.channels.wechat.allow_from;
    if !extra.is_empty() {
        let ids = extra.join(", ");
        println!("{}", trf(lang, Msg::WechatAlsoAllowed, &[("ids", &ids)]));
    }
    match &status.paused {
        Some(detail) => println!(
            "{}",
            trf(lang, Msg::WechatPausedStatus, &[("detail", detail)])
        ),
        None => println!("{}", tr(lang, Msg::WechatActive)),
    }
    let cursor = if status.has_cursor {
        Msg::WechatCursorSaved
    } else {
        Msg::WechatNoCursor
    };
    println!("{}", tr(lang, cursor));
    Ok(())
}

fn runtime() -> Result<tokio::runtime::Runtime, ServiceError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServiceError::Spawn)
}

fn print_telegram_setup(config: &Config, lang: Lang, report: &super::telegram::setup::SetupReport) {
    let name = report.bot.username.as_deref().unwrap_or("?");
    let id = report.bot.id;
    println!(
        "{}",
        trf(
            lang,
            Msg::ChannelTelegramBot,
            &[("name", &name), ("id", &id)]
        )
    );
    let allowed = &config.channels.telegram.allow_from;
    if allowed.is_empty() {
        println!("{}", tr(lang, Msg::ChannelTelegramNoneAllowed));
    } else {
        let ids = allowed.join(", ");
        println!(
            "{}",
            trf(lang, Msg::ChannelTelegramAllowed, &[("ids", &ids)])
        );
    }
    if report.senders.is_empty() {
        println!("{}", tr(lang, Msg::ChannelTelegramNoSenders));
    }
    for sender in &report.senders {
        println!(
            "{}",
            trf(
                lang,
                Msg::ChannelTelegramSender,
                &[("id", &sender.id), ("name", &sender.name)]
            )
        );
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn wechat_hears_the_bound_user_first_and_the_configured_ids_once() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), home.path().display().to_string()),
            (
                "PAICLI_WECHAT_ALLOW_FROM".to_string(),
                "wife@im.wechat, me@im.wechat".to_string(),
            ),
        ];
        let config =
            Config::load_with_env(project.path(), env, &crate::config::Overrides::default())
                .unwrap();
        let account = wechat::Account {
            bot_token: "t".into(),
            bot_id: "b".into(),
            user_id: "me@im.wechat".into(),
            base_url: None,
            saved_at: String::new(),
        };
        assert_eq!(
            wechat_allow_from(&account, &config),
            ["me@im.wechat", "wife@im.wechat"]
        );
        assert_eq!(wechat_base_url(&config), wechat::DEFAULT_BASE_URL);
    }
}
