//! What the user should hear when a session starts: what loading its ledger repaired, and whether it is recorded.

use super::LoadNotice;

/// Something the user should hear about at start; `text::start_notice_text` words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartNotice {
    /// Loading skipped or repaired part of the ledger.
    Load(LoadNotice),
    /// The system prompt (project instructions) changed since the session started; the new one is sent.
    InstructionsChanged,
    /// The ledger cannot be written: the session runs but cannot be resumed.
    LedgerUnavailable(String),
}
