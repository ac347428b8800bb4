//! Telegram over the Bot API: `getUpdates` long polling with the offset saved after every poll, `sendMessage` in
//! parts of at most 4,096 characters, approvals as inline keyboards whose presses (`callback_query`) are
//! acknowledged with `answerCallbackQuery`, typing status with `sendChatAction`. Senders are numeric user ids.

mod api;
mod offset;
pub mod setup;
mod split;
mod updates;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use self::api::BotApi;
use self::offset::OffsetFile;
use self::split::{MAX_MESSAGE_UNITS, split_message};
use self::updates::{Update, button_data, incoming};
use super::transport::{ChannelError, ChannelKind, ChatRef, Incoming, Question, Transport};
use crate::app::channel_status::channel_dir;
use crate::config::Config;

/// Seconds Telegram holds a `getUpdates` open when nothing comes.
const POLL_SECS: u64 = 30;
/// How long any other call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// Telegram shows "typing…" for 5 s; it is sent again this often while a task runs.
const TYPING_EVERY: Duration = Duration::from_secs(4);

/// A bot on Telegram.
pub struct TelegramTransport {
    api: Arc<BotApi>,
    offset_file: OffsetFile,
    /// The next `getUpdates` offset: one past the last update taken.
    offset: Mutex<i64>,
    /// Chats shown "typing…", each with the token that ends its refresher.
    typing: Mutex<HashMap<String, CancellationToken>>,
}

impl TelegramTransport {
    /// The bot of the user's `[channels.telegram]` settings (or `PAICLI_TELEGRAM_*`), with its saved offset.
    pub fn from_config(config: &Config) -> Result<TelegramTransport, ChannelError> {
        let settings = &config.channels.telegram;
        let token = settings.bot_token.as_deref().ok_or(ChannelError::NoToken {
            channel: "telegram",
        })?;
        let offset_file = OffsetFile::new(&channel_dir(&config.home, "telegram"));
        let offset = offset_file.load();
        Ok(TelegramTransport {
            api: Arc::new(BotApi::new(&settings.base_url, token)?),
            offset_file,
            offset: Mutex::new(offset),
            typing: Mutex::default(),
        })
    }

    fn offset(&self) -> std::sync::MutexGuard<'_, i64> {
        self.offset
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps the updates not taken before, in order, once each; moves the offset past them and saves it.
    fn take_new(&self, mut batch: Vec<Update>) -> Result<Vec<Update>, ChannelError> {
        let mut offset = self.offset();
        batch.sort_by_key(|u| u.update_id);
        batch.dedup_by_key(|u| u.update_id);
        batch.retain(|u| u.update_id >= *offset);
        if let Some(last) = batch.last() {
            *offset = last.update_id + 1;
            self.offset_file.save(*offset)?;
        }
        Ok(batch)
    }

    async fn send_part(
        &self,
        chat: &ChatRef,
        text: &str,
        markup: Option<Value>,
    ) -> Result<(), ChannelError> {
        let mut body = json!({ "chat_id": chat_id_value(&chat.chat_id), "text": text });
        if let Some(markup) = markup {
            body["reply_markup"] = markup;
        }
        self.api
            .call::<Value>("sendMessage", &body, CALL_TIMEOUT)
            .await
            .map(drop)
    }
}

/// A numeric chat id goes as a number (as Telegram documents it); anything else as the text it is.
fn chat_id_value(chat_id: &str) -> Value {
    chat_id
        .parse::<i64>()
        .map_or_else(|_| Value::String(chat_id.to_string()), Value::from)
}

#[async_trait]
impl Transport for TelegramTransport {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Telegram
    }

    async fn poll(&self, cancel: &CancellationToken) -> Result<Vec<Incoming>, ChannelError> {
        let offset = *self.offset();
        let body = json!({
            "offset": offset,
            "timeout": POLL_SECS,
            "allowed_updates": ["message", "callback_query"],
        });
        let wait = Duration::from_secs(POLL_SECS) + CALL_TIMEOUT;
        let batch = tokio::select! {
            batch = self.api.call::<Vec<Update>>("getUpdates", &body, wait) => batch?,
            () = cancel.cancelled() => return Ok(Vec::new()),
        };
        let fresh = self.take_new(batch)?;
        let mut taken = Vec::new();
        for update in &fresh {
            if let Some(query) = &update.callback_query {
                // Clears the button's spinner; the answer itself reaches the layer below.
                let body = json!({ "callback_query_id": query.id });
                if let Err(e) = self
                    .api
                    .call::<Value>("answerCallbackQuery", &body, CALL_TIMEOUT)
                    .await
                {
                    tracing::debug!("answerCallbackQuery failed: {e}");
                }
            }
            taken.extend(incoming(update));
        }
        Ok(taken)
    }

    async fn send(&self, chat: &ChatRef, text: &str) -> Result<(), ChannelError> {
        for part in split_message(text, MAX_MESSAGE_UNITS) {
            self.send_part(chat, &part, None).await?;
        }
        Ok(())
    }

    async fn ask(&self, chat: &ChatRef, question: &Question) -> Result<(), ChannelError> {
        let mut parts = split_message(&question.text, MAX_MESSAGE_UNITS);
        let last = parts.pop().unwrap_or_default();
        for part in parts {
            self.send_part(chat, &part, None).await?;
        }
        let keyboard = json!({
            "inline_keyboard": [[
                { "text": question.approve_label, "callback_data": button_data(true, &question.id) },
                { "text": question.deny_label, "callback_data": button_data(false, &question.id) },
            ]]
        });
        self.send_part(chat, &last, Some(keyboard)).await
    }

    async fn typing(&self, chat: &ChatRef, on: bool) -> Result<(), ChannelError> {
        let mut typing = self
            .typing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !on {
            // The next message clears it on Telegram's side; only the refresher has to stop.
            if let Some(stop) = typing.remove(&chat.chat_id) {
                stop.cancel();
            }
            return Ok(());
        }
        if typing.contains_key(&chat.chat_id) {
            return Ok(());
        }
        let stop = CancellationToken::new();
        typing.insert(chat.chat_id.clone(), stop.clone());
        drop(typing);
        let api = Arc::clone(&self.api);
        let body = json!({ "chat_id": chat_id_value(&chat.chat_id), "action": "typing" });
        tokio::spawn(async move {
            loop {
                if let Err(e) = api
                    .call::<Value>("sendChatAction", &body, CALL_TIMEOUT)
                    .await
                {
                    tracing::debug!("sendChatAction failed: {e}");
                }
                tokio::select! {
                    () = tokio::time::sleep(TYPING_EVERY) => {}
                    () = stop.cancelled() => break,
                }
            }
        });
        Ok(())
    }
}
