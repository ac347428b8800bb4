//! Chat channels: a person talks to the agent from a chat service (WeChat over Tencent's iLink bot API, Telegram's
//! Bot API) while away from the terminal. Each service is a `Transport`; the channel layer above it maps chats to
//! sessions on the one session host and asks every risky call in the chat (see `docs/channels.md`).

pub mod command;
pub mod layer;
pub mod limits;
pub mod log;
pub mod policy;
pub mod service;
pub mod store;
pub mod telegram;
pub mod transport;
pub mod wechat;

pub use layer::serve_chats;
pub use transport::{
    ChannelError, ChannelKind, ChatRef, Incoming, IncomingKind, Question, Transport,
};
