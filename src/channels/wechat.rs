//! WeChat over Tencent's iLink bot API (protocol: Tencent/openclaw-weixin `docs/protocol.md`). `setup` logs in
//! by QR code; [`WechatTransport`] long-polls `getupdates` from a saved cursor and answers with `sendmessage`
//! under each message's `context_token`, within the server's reply quota.

mod account;
mod chunk;
mod client;
mod files;
mod inbound;
mod login;
mod plain;
mod qr;
mod quota;
mod state;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

pub use account::{Account, WechatStatus, status};
pub use chunk::{MAX_CHARS, split_chunks};
pub use client::DEFAULT_BASE_URL;
pub use login::{StdinCodes, VerifyCodeSource, setup};
pub use plain::markdown_to_plain;
pub use quota::SENDS_PER_MESSAGE;

use self::client::{IlinkClient, LIGHT_TIMEOUT, REPLY_REFUSED, REQUEST_TIMEOUT, worth_retrying};
use self::quota::{ReplyBook, fit_to_quota};
use self::state::PollState;
use super::transport::{ChannelError, ChannelKind, ChatRef, Incoming, Question, Transport};
use crate::text::{Lang, Msg, tr, trf};

/// The channel's name in errors, settings and under `$PAICLI_HOME/channels/`.
const CHANNEL: &str = "wechat";
/// The long-poll timeout until the server suggests one (its documented default).
const DEFAULT_POLL_TIMEOUT: Duration = Duration::from_secs(35);
/// Added to the server's suggested timeout: a server that holds the poll that long must still get to answer.
const POLL_GRACE: Duration = Duration::from_secs(1);
/// Bounds on a suggested timeout, so a bad value neither spins nor hangs.
const POLL_TIMEOUT_RANGE: (Duration, Duration) =
    (Duration::from_millis(100), Duration::from_secs(600));
/// Wait before the one retry of a failed send.
const RETRY_PAUSE: Duration = Duration::from_millis(300);

/// The WeChat bot account as a [`Transport`].
pub struct WechatTransport {
    client: IlinkClient,
    account: Account,
    lang: Lang,
    state: tokio::sync::Mutex<PollState>,
    /// Why the account is paused (`-14`), mirrored from the saved state so sends need not wait for a poll.
    paused: Mutex<Option<String>>,
    poll_timeout: Mutex<Duration>,
    replies: Mutex<ReplyBook>,
    typing_tickets: Mutex<HashMap<String, String>>,
    announced: AtomicBool,
}

impl WechatTransport {
    /// Opens the saved account under `home`. `base_url` is the user's setting; left at the default, the host
    /// the server assigned at login is used.
    pub fn open(home: &Path, base_url: &str, lang: Lang) -> Result<WechatTransport, ChannelError> {
        let account = Account::load(home)?.ok_or_else(account::not_set_up)?;
        let state = PollState::load(home)?;
        let base = if base_url.trim_end_matches('/') == DEFAULT_BASE_URL {
            account
                .base_url
                .clone()
                .unwrap_or_else(|| DEFAULT_BASE_URL.to_string())
        } else {
            base_url.to_string()
        };
        Ok(WechatTransport {
            client: IlinkClient::new(&base, Some(account.bot_token.clone()))?,
            paused: Mutex::new(state.paused().map(str::to_string)),
            account,
            lang,
            state: tokio::sync::Mutex::new(state),
            poll_timeout: Mutex::new(DEFAULT_POLL_TIMEOUT),
            replies: Mutex::new(ReplyBook::default()),
            typing_tickets: Mutex::new(HashMap::new()),
            announced: AtomicBool::new(false),
        })
    }

    /// The saved account; its `user_id` is the default allowlist.
    pub fn account(&self) -> &Account {
        &self.account
    }

    /// Why the account is paused, `None` while it is active.
    pub fn paused(&self) -> Option<String> {
        lock(&self.paused).clone()
    }

    /// Tells the server this client stops (`msg/notifystop`); call once when the channel shuts down.
    pub async fn notify_stop(&self) -> Result<(), ChannelError> {
        self.client
            .post("ilink/bot/msg/notifystop", json!({}), Some(LIGHT_TIMEOUT))
            .await
            .map(drop)
    }

    fn check_active(&self) -> Result<(), ChannelError> {
        match lock(&self.paused).as_ref() {
            Some(detail) => Err(paused_error(detail)),
            None => Ok(()),
        }
    }

    /// Records a `-14`: in memory, and saved so `status` and the next start see it.
    async fn pause(&self, error: ChannelError) -> ChannelError {
        if let ChannelError::Paused { detail, .. } = &error {
            *lock(&self.paused) = Some(detail.clone());
            if let Err(save) = self.state.lock().await.pause(detail) {
                tracing::warn!("wechat: cannot save the pause: {save}");
            }
        }
        error
    }

    /// `msg/notifystart` once, before the first poll; only a `-14` stops the poll.
    async fn announce(&self) -> Result<(), ChannelError> {
        if self.announced.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        match self
            .client
            .post("ilink/bot/msg/notifystart", json!({}), Some(LIGHT_TIMEOUT))
            .await
        {
            Err(e @ ChannelError::Paused { .. }) => Err(self.pause(e).await),
            Err(e) => {
                tracing::warn!("wechat: notifystart failed: {e}");
                Ok(())
            }
            Ok(_) => Ok(()),
        }
    }

    /// Takes one `getupdates` answer: remembers the suggested timeout and the reply tokens, drops what was
    /// delivered before, saves the cursor.
    async fn take_updates(&self, body: &Value) -> Result<Vec<Incoming>, ChannelError> {
        if let Some(ms) = body.get("longpolling_timeout_ms").and_then(Value::as_f64)
            && ms.is_finite()
            && ms > 0.0
        {
            let (low, high) = POLL_TIMEOUT_RANGE;
            *lock(&self.poll_timeout) = Duration::from_secs_f64(ms / 1000.0).clamp(low, high);
        }
        let msgs = body
            .get("msgs")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut state = self.state.lock().await;
        let fresh: Vec<Incoming> = inbound::incoming_messages(msgs)
            .into_iter()
            .filter(|m| state.first_sighting(&m.message_id))
            .collect();
        state.advance(body.get("get_updates_buf").and_then(Value::as_str))?;
        drop(state);
        let mut replies = lock(&self.replies);
        for message in &fresh {
            if let Some(token) = &message.chat.reply_token {
                replies.note_incoming(&message.chat.chat_id, token);
            }
        }
        Ok(fresh)
    }

    /// Sends `text` as it is (already plain), in chunks within the quota of the chat's reply token.
    async fn deliver(&self, chat: &ChatRef, text: &str) -> Result<(), ChannelError> {
        self.check_active()?;
        let mut token = chat.reply_token.clone();
        let available = match &token {
            None => SENDS_PER_MESSAGE,
            Some(t) => {
                let book = lock(&self.replies);
                if book.remaining(t) == 0
                    && let Some(fresher) = book.fresher(&chat.chat_id, t)
                {
                    token = Some(fresher);
                }
                token
                    .as_deref()
                    .map_or(SENDS_PER_MESSAGE, |t| book.remaining(t))
            }
        };
        if available == 0 {
            return Err(quota_error("the reply quota of this message is used up"));
        }
        let chunks = fit_to_quota(
            split_chunks(text, MAX_CHARS),
            available,
            MAX_CHARS,
            |count| trf(self.lang, Msg::WechatReplyTruncated, &[("count", &count)]),
        );
        let total = chunks.len();
        for (index, chunk) in chunks.iter().enumerate() {
            self.send_chunk(&chat.chat_id, &mut token, chunk)
                .await
                .map_err(|e| partial(e, index, total))?;
        }
        Ok(())
    }

    /// One `sendmessage`, retried once when that can help: after a failure to complete or a busy server
    /// (same `client_id`, so the server can drop a duplicate), or under the chat's fresher token after `-2`.
    async fn send_chunk(
        &self,
        chat_id: &str,
        token: &mut Option<String>,
        text: &str,
    ) -> Result<(), ChannelError> {
        let client_id = format!("paicli-{:016x}", fastrand::u64(..));
        let mut retried = false;
        loop {
            let body = json!({ "msg": {
                "from_user_id": "",
                "to_user_id": chat_id,
                "client_id": client_id,
                "message_type": 2,
                "message_state": 2,
                "context_token": token.as_deref(),
                "item_list": [{ "type": 1, "text_item": { "text": text } }],
            }});
            let error = match self
                .client
                .post("ilink/bot/sendmessage", body, Some(REQUEST_TIMEOUT))
                .await
            {
                Ok(_) => {
                    if let Some(t) = token.as_deref() {
                        lock(&self.replies).record_send(t);
                    }
                    return Ok(());
                }
                Err(e @ ChannelError::Paused { .. }) => return Err(self.pause(e).await),
                Err(ChannelError::Api {
                    code: REPLY_REFUSED,
                    message,
                    ..
                }) => {
                    let fresher = token.as_deref().and_then(|t| {
                        let mut book = lock(&self.replies);
                        book.exhaust(t);
                        book.fresher(chat_id, t)
                    });
                    match fresher {
                        Some(fresher) if !retried => {
                            *token = Some(fresher);
                            retried = true;
                            continue;
                        }
                        _ => {
                            return Err(quota_error(&format!(
                                "the server refused the reply ({REPLY_REFUSED}: {message}): its context token is stale or \
                             its quota used up"
                            )));
                        }
                    }
                }
                Err(e) => e,
            };
            if retried || !worth_retrying(&error) {
                return Err(error);
            }
            retried = true;
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    /// The typing ticket for `chat` (from `getconfig`, asked once per chat); `None` when the server gives none.
    async fn typing_ticket(&self, chat: &ChatRef) -> Result<Option<String>, ChannelError> {
        if let Some(ticket) = lock(&self.typing_tickets).get(&chat.chat_id) {
            return Ok(Some(ticket.clone()));
        }
        let body = self
            .client
            .post(
                "ilink/bot/getconfig",
                json!({ "ilink_user_id": chat.chat_id, "context_token": chat.reply_token }),
                Some(LIGHT_TIMEOUT),
            )
            .await;
        let body = match body {
            Err(e @ ChannelError::Paused { .. }) => return Err(self.pause(e).await),
            other => other?,
        };
        let ticket = body
            .get("typing_ticket")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        if let Some(ticket) = &ticket {
            lock(&self.typing_tickets).insert(chat.chat_id.clone(), ticket.clone());
        }
        Ok(ticket)
    }
}

#[async_trait]
impl Transport for WechatTransport {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Wechat
    }

    async fn poll(&self, cancel: &CancellationToken) -> Result<Vec<Incoming>, ChannelError> {
        self.check_active()?;
        self.announce().await?;
        let cursor = self.state.lock().await.cursor().to_string();
        let limit = *lock(&self.poll_timeout) + POLL_GRACE;
        let request = self.client.post(
            "ilink/bot/getupdates",
            json!({ "get_updates_buf": cursor }),
            None,
        );
        let answer = tokio::select! {
            biased;
            () = cancel.cancelled() => return Ok(Vec::new()),
            answer = tokio::time::timeout(limit, request) => answer,
        };
        match answer {
            // The long poll ran out with nothing new: normal, the caller polls again.
            Err(_elapsed) => Ok(Vec::new()),
            Ok(Err(e @ ChannelError::Paused { .. })) => Err(self.pause(e).await),
            Ok(Err(e)) => Err(e),
            Ok(Ok(body)) => self.take_updates(&body).await,
        }
    }

    async fn send(&self, chat: &ChatRef, text: &str) -> Result<(), ChannelError> {
        self.deliver(chat, &markdown_to_plain(text)).await
    }

    /// The question as written (a command is shown exactly, never reduced as Markdown) and how to answer.
    async fn ask(&self, chat: &ChatRef, question: &Question) -> Result<(), ChannelError> {
        let text = format!("{}\n{}", question.text, tr(self.lang, Msg::WechatAskHint));
        self.deliver(chat, &text).await
    }

    /// `msg/notifystop`, unless the account is paused (the server would only refuse it again).
    async fn stopped(&self) -> Result<(), ChannelError> {
        if self.paused().is_some() {
            return Ok(());
        }
        self.notify_stop().await
    }

    async fn typing(&self, chat: &ChatRef, on: bool) -> Result<(), ChannelError> {
        self.check_active()?;
        let Some(ticket) = self.typing_ticket(chat).await? else {
            return Ok(());
        };
        let status = if on { 1 } else { 2 };
        let result = self
            .client
            .post(
                "ilink/bot/sendtyping",
                json!({ "ilink_user_id": chat.chat_id, "typing_ticket": ticket, "status": status }),
                Some(LIGHT_TIMEOUT),
            )
            .await;
        match result {
            Err(e @ ChannelError::Paused { .. }) => Err(self.pause(e).await),
            other => other.map(drop),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere while holding one of these leaves consistent data (plain maps and values).
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn paused_error(detail: &str) -> ChannelError {
    ChannelError::Paused {
        channel: CHANNEL,
        detail: detail.to_string(),
    }
}

fn quota_error(detail: &str) -> ChannelError {
    ChannelError::ReplyQuota {
        channel: CHANNEL,
        detail: detail.to_string(),
    }
}

/// A failure after some parts went out says how many did.
fn partial(error: ChannelError, sent: usize, total: usize) -> ChannelError {
    if sent == 0 {
        return error;
    }
    match error {
        ChannelError::ReplyQuota { channel, detail } => ChannelError::ReplyQuota {
            channel,
            detail: format!("{detail}; {sent} of {total} parts were sent"),
        },
        ChannelError::Api {
            channel,
            method,
            code,
            message,
        } => ChannelError::Api {
            channel,
            method,
            code,
            message: format!("{message}; {sent} of {total} parts were sent"),
        },
        other => other,
    }
}
