//! `paicli channel telegram setup`: checks the token with `getMe` and lists who has written to the bot (without
//! confirming their messages), so the person can put their own id in `allow_from`.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use super::api::BotApi;
use super::updates::Update;
use crate::channels::transport::ChannelError;
use crate::config::Config;

/// The bot, as `getMe` describes it.
#[derive(Debug, Deserialize)]
pub struct BotInfo {
    pub id: i64,
    #[serde(default)]
    pub username: Option<String>,
}

/// Someone who wrote to the bot.
#[derive(Debug, PartialEq, Eq)]
pub struct Sender {
    pub id: String,
    pub name: String,
}

/// What setup found.
#[derive(Debug)]
pub struct SetupReport {
    pub bot: BotInfo,
    pub senders: Vec<Sender>,
}

/// Asks Telegram about the configured bot and its waiting messages.
pub async fn check_bot(config: &Config) -> Result<SetupReport, ChannelError> {
    let settings = &config.channels.telegram;
    let token = settings.bot_token.as_deref().ok_or(ChannelError::NoToken {
        channel: "telegram",
    })?;
    let api = BotApi::new(&settings.base_url, token)?;
    let timeout = Duration::from_secs(30);
    let bot: BotInfo = api.call("getMe", &json!({}), timeout).await?;
    // No offset: nothing is confirmed, `start` still gets these messages.
    let waiting: Vec<Update> = api
        .call("getUpdates", &json!({ "timeout": 0 }), timeout)
        .await?;
    let mut senders: Vec<Sender> = Vec::new();
    for update in &waiting {
        let from = update
            .message
            .as_ref()
            .and_then(|m| m.from.as_ref())
            .or(update.callback_query.as_ref().map(|q| &q.from));
        if let Some(user) = from.filter(|u| !u.is_bot) {
            let id = user.id.to_string();
            if !senders.iter().any(|s| s.id == id) {
                let name = match &user.username {
                    Some(name) => format!("{} (@{name})", user.first_name),
                    None => user.first_name.clone(),
                };
                senders.push(Sender { id, name });
            }
        }
    }
    Ok(SetupReport { bot, senders })
}
