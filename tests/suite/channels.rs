//! Chat channels end to end: the channel layer on the one session host, the Telegram transport against a Bot API
//! stand-in written from Telegram's documentation, the scripted model, and the `paicli channel` commands.

mod bot_api;
mod chat_layer;
mod cli;
mod harness;
mod policy;
mod settings;
mod telegram_flow;
