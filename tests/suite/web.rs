//! Web tools: `web_fetch` against local pages (network policy per hop, size cap, rate limit), `web_search`
//! against local stand-ins of each provider's API, and the per-turn exposure end to end through `paicli -p`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod fetch;
mod search;
mod stub;
