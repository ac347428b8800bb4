//! `paicli channel <telegram|wechat> setup|start|status|stop` (and `paicli wechat …`): what each does for each
//! service. Output for people goes to stdout, errors to stderr; the exit code is 0 on success.

use std::sync::Arc;

use super::log::ChannelLog;
use super::service::{ServiceError, run_foreground, start_background, stop};
use super::telegram::TelegramTransport;
use super::telegram::setup::check_bot;
use super::transport::{ChannelError, ChannelKind, Transport};
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
            // The child reports its own start-up errors to the log; a missing token is said here at once.
            transport(&config, kind)?;
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
                let transport = transport(&config, kind)?;
                crate::app::discover_served(&mut config)
                    .await
                    .map_err(|e| ChannelError::NotSetUp {
                        channel,
                        detail: e.to_string(),
                    })?;
                let allow_from = allow_from(&config, kind);
                run_foreground(&config, transport, allow_from).await
            })
        }
        ChannelAction::Setup => match kind {
            ChannelKind::Telegram => {
                let report = runtime()?.block_on(check_bot(&config))?;
                print_telegram_setup(&config, lang, &report);
                Ok(())
            }
            ChannelKind::Wechat => Err(not_built(kind)),
        },
    }
}

/// The service's transport, from the user's settings.
fn transport(config: &Config, kind: ChannelKind) -> Result<Arc<dyn Transport>, ServiceError> {
    match kind {
        ChannelKind::Telegram => Ok(Arc::new(TelegramTransport::from_config(config)?)),
        ChannelKind::Wechat => Err(not_built(kind)),
    }
}

/// The senders a channel hears.
fn allow_from(config: &Config, kind: ChannelKind) -> Vec<String> {
    match kind {
        ChannelKind::Telegram => config.channels.telegram.allow_from.clone(),
        ChannelKind::Wechat => Vec::new(),
    }
}

// TEMPORARY: the WeChat client is built on another branch; its setup, transport and bound user are wired here
// when the branches meet.
fn not_built(kind: ChannelKind) -> ServiceError {
    ServiceError::Channel(ChannelError::NotSetUp {
        channel: kind.id(),
        detail: "the WeChat client is not built in this branch yet".to_string(),
    })
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
