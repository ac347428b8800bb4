//! The state of one conversation with the model: the history with its turns, pairing kept valid by construction,
//! and the token meter. The JSONL ledger and resume build on it.

pub mod conversation;
pub mod meter;
pub mod tool_calls;

pub use conversation::{Conversation, ConversationError, is_paired};
pub use meter::TokenMeter;
