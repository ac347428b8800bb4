//! One channel under test: a project, a home with the user's config, the scripted model, the Bot API stand-in and
//! `serve_chats` running on the test's runtime.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use paicli::channels::telegram::TelegramTransport;
use paicli::channels::{ChannelError, serve_chats};
use paicli::config::{Config, Overrides};

use super::bot_api::{BotApi, OWNER, TOKEN};
use crate::support::ScriptedServer;

pub struct Harness {
    pub project: tempfile::TempDir,
    pub home: tempfile::TempDir,
    pub model: ScriptedServer,
    pub bot: BotApi,
    /// `[channels]` lines of the user's config.
    user_config: String,
}

/// A running channel.
pub struct Running {
    cancel: CancellationToken,
    task: JoinHandle<Result<(), ChannelError>>,
}

impl Running {
    /// Stops the channel (as SIGTERM does) and returns how it ended.
    pub async fn stop(self) -> Result<(), ChannelError> {
        self.cancel.cancel();
        self.task.await.unwrap()
    }

    /// Waits for the channel to end by itself.
    pub async fn ended(self) -> Result<(), ChannelError> {
        tokio::time::timeout(std::time::Duration::from_secs(60), self.task)
            .await
            .expect("the channel did not end")
            .unwrap()
    }
}

impl Harness {
    /// A channel whose allow list is [`OWNER`], with `channels_toml` in the user's config.
    pub async fn new(model: ScriptedServer, channels_toml: &str) -> Harness {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("README.md"), "# demo\n").unwrap();
        Harness {
            project,
            home: tempfile::tempdir().unwrap(),
            model,
            bot: BotApi::start(900_000_001).await,
            user_config: channels_toml.to_string(),
        }
    }

    pub fn paicli_home(&self) -> std::path::PathBuf {
        self.home.path().join(".paicli")
    }

    pub fn config(&self) -> Config {
        let home = self.paicli_home();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("config.toml"), &self.user_config).unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), home.display().to_string()),
            ("PAICLI_TELEGRAM_BOT_TOKEN".to_string(), TOKEN.to_string()),
            ("PAICLI_TELEGRAM_BASE_URL".to_string(), self.bot.url()),
            (
                "PAICLI_TELEGRAM_ALLOW_FROM".to_string(),
                format!(" {OWNER} "),
            ),
            ("LANG".to_string(), "en_US.UTF-8".to_string()),
        ];
        let overrides = Overrides {
            base_url: Some(self.model.url()),
            model: Some("scripted-model".to_string()),
            ..Overrides::default()
        };
        Config::load_with_env(self.project.path(), env, &overrides).unwrap()
    }

    /// Starts serving the chats with a fresh transport (as a new process would, from the saved offset).
    pub fn start(&self) -> Running {
        let config = self.config();
        let transport = Arc::new(TelegramTransport::from_config(&config).unwrap());
        let allow = config.channels.telegram.allow_from.clone();
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task = tokio::spawn(async move { serve_chats(&config, transport, allow, stop).await });
        Running { cancel, task }
    }

    /// The channel's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.paicli_home().join("channels/telegram/channel.log"))
            .unwrap_or_default()
    }

    /// The texts of every chat-completions request the model got, each request's messages joined.
    pub fn model_saw(&self) -> Vec<String> {
        self.model
            .chat_requests()
            .iter()
            .map(|r| r.body["messages"].to_string())
            .collect()
    }
}

/// The `callback_data` of the `which` button (0 approve, 1 refuse) of the last question sent to `chat`.
pub fn button(bot: &BotApi, chat: i64, which: usize) -> String {
    let asked = bot
        .calls("sendMessage")
        .into_iter()
        .rfind(|c| {
            c.body["chat_id"] == serde_json::json!(chat) && c.body.get("reply_markup").is_some()
        })
        .expect("no question was asked");
    asked.body["reply_markup"]["inline_keyboard"][0][which]["callback_data"]
        .as_str()
        .unwrap()
        .to_string()
}

/// How many questions (messages with buttons) were sent to `chat`.
pub fn questions(bot: &BotApi, chat: i64) -> usize {
    bot.calls("sendMessage")
        .iter()
        .filter(|c| {
            c.body["chat_id"] == serde_json::json!(chat) && c.body.get("reply_markup").is_some()
        })
        .count()
}
