//! The append-only session ledger: one JSONL file per session under `$PAICLI_HOME/sessions/YYYY/MM/DD/`, a header
//! line first, then one record per change to the conversation. Replaying the records rebuilds the history the
//! session had in memory, so a session can be continued, resumed or forked.
//!
//! The [`Conversation`](super::Conversation) writes the records itself when a ledger is attached, so every way to
//! change the history (turns, tool rounds, compaction, rewinds, `/clear`) is recorded without its callers doing
//! anything.

mod record;
mod replay;
mod start_notice;
mod store;
mod usage;
mod writer;

pub use record::{FORMAT_VERSION, Header, Record, git_branch};
pub use replay::{ABORTED_RESULT, LoadError, LoadNotice, LoadedSession, load};
pub use start_notice::StartNotice;
pub use store::{FindError, SessionStore, SessionSummary, StoredSession, sidechains};
pub use usage::{UsageByModel, ledger_usage, recorded_usage};
pub use writer::{Ledger, LedgerError, Redact, sidechain_dir};

/// A new session id: 12 hex digits, so a few of them are a unique prefix in practice.
pub fn new_session_id() -> String {
    format!("{:012x}", fastrand::u64(..1 << 48))
}

#[cfg(test)]
mod tests;
