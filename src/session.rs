//! The state of one conversation with the model: the history with its turns, pairing kept valid by construction,
//! and the token meter; the append-only JSONL ledger that records it, so a session can be resumed or forked.

pub mod conversation;
pub mod ledger;
pub mod meter;
pub mod model_key;
pub mod tool_calls;

pub use conversation::{Conversation, ConversationError, is_paired};
pub use meter::{Calibration, TokenMeter};
pub use model_key::ModelKey;
