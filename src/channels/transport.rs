//! The seam between the channel layer and one chat service. The layer knows chats, senders and text; each
//! transport knows its service's wire protocol: cursors, chunking, reply quotas, typing status.

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

/// The chat services paicli can be reached through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    Wechat,
    Telegram,
}

impl ChannelKind {
    /// The name used on the command line, in settings and under `$PAICLI_HOME/channels/`.
    pub fn id(self) -> &'static str {
        match self {
            ChannelKind::Wechat => "wechat",
            ChannelKind::Telegram => "telegram",
        }
    }
}

/// Where a reply goes. Ids stay strings: WeChat's exceed 2^53 and must never pass through an f64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRef {
    /// The chat (Telegram chat id, WeChat user id of the conversation).
    pub chat_id: String,
    /// What the service needs to answer this message (WeChat's `context_token`); `None` where it needs nothing.
    pub reply_token: Option<String>,
}

/// One thing a person did in a chat, as the layer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    pub chat: ChatRef,
    /// The sender's id as the allowlist holds it (Telegram's numeric user id as text, WeChat's user id).
    pub sender: String,
    /// The service's id of the message, for de-duplication.
    pub message_id: String,
    pub kind: IncomingKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IncomingKind {
    /// A text message (commands included: the layer reads `/stop`, `y`, `n`).
    Text(String),
    /// A press on a button of an earlier `ask` (Telegram's inline keyboard): the question's id and the answer.
    Answer { question_id: String, approve: bool },
    /// Something the layer cannot use (a sticker, a voice note); it is answered with a short notice.
    Unsupported,
}

/// A yes/no question the layer asks in the chat (an approval).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// Unique within the channel, echoed back in `IncomingKind::Answer`.
    pub id: String,
    /// The question in plain text, the call shown as it will run.
    pub text: String,
    /// The labels of the two answers in the chat's language (e.g. "批准" / "拒绝").
    pub approve_label: String,
    pub deny_label: String,
}

/// What went wrong talking to a service. Worded for people by the layer (`text`).
#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    /// The request did not complete (connection, timeout, a non-2xx status).
    #[error("{channel} request {method} failed: {detail}")]
    Http {
        channel: &'static str,
        method: String,
        detail: String,
    },
    /// The service answered, with an error in the body (WeChat's `ret`/`errcode`, Telegram's `ok: false`).
    #[error("{channel} {method} answered error {code}: {message}")]
    Api {
        channel: &'static str,
        method: String,
        code: i64,
        message: String,
    },
    /// The reply quota for this incoming message is used up, or its reply token went stale (WeChat `ret: -2`).
    #[error("{channel}: no more replies can be sent to this message ({detail})")]
    ReplyQuota {
        channel: &'static str,
        detail: String,
    },
    /// The account is paused or logged out (WeChat `-14`); nothing more is sent until the person logs in again.
    #[error(
        "{channel}: the account is paused ({detail}); log in again with `paicli channel {channel} setup`"
    )]
    Paused {
        channel: &'static str,
        detail: String,
    },
    /// No bot token in the user's settings or environment (Telegram's only set-up step).
    #[error(
        "{channel} is not set up: no bot token: set PAICLI_TELEGRAM_BOT_TOKEN or [channels.telegram] bot_token in \
         $PAICLI_HOME/config.toml"
    )]
    NoToken { channel: &'static str },
    /// Not set up: no saved login.
    #[error("{channel} is not set up: {detail}")]
    NotSetUp {
        channel: &'static str,
        detail: String,
    },
    #[error("{channel}: {source}")]
    Io {
        channel: &'static str,
        #[source]
        source: std::io::Error,
    },
}

/// One chat service. Implementations persist their own cursor after every poll, so a restart neither replays nor
/// loses messages, and keep within the service's limits (message length, replies per incoming message).
#[async_trait]
pub trait Transport: Send + Sync {
    fn kind(&self) -> ChannelKind;

    /// Waits for what people sent since the last poll (a long poll, with the service's suggested timeout); returns
    /// an empty list when the poll ends with nothing new. Ends early, with an empty list, when `cancel` fires.
    async fn poll(&self, cancel: &CancellationToken) -> Result<Vec<Incoming>, ChannelError>;

    /// Sends `text` (which may be long and may hold Markdown) as a reply in `chat`; the transport reduces it to
    /// what the service shows and splits it within the service's length and quota.
    async fn send(&self, chat: &ChatRef, text: &str) -> Result<(), ChannelError>;

    /// Asks a yes/no question: buttons where the service has them, else the question's text with how to answer.
    async fn ask(&self, chat: &ChatRef, question: &Question) -> Result<(), ChannelError>;

    /// Shows or clears "typing…" where the service has it; a no-op elsewhere.
    async fn typing(&self, chat: &ChatRef, on: bool) -> Result<(), ChannelError>;

    /// Tells the service this client stops polling (WeChat's `msg/notifystop`); called once when the channel ends.
    async fn stopped(&self) -> Result<(), ChannelError> {
        Ok(())
    }
}
