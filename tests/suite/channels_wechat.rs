//! The WeChat channel against a scripted iLink stand-in written from the public protocol document
//! (Tencent/openclaw-weixin `docs/protocol.md`): QR login, long polling, replies and their quota.

mod cli;
mod flow;
mod ilink;
mod login;
mod polling;
mod replies;
