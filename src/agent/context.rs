//! What the model sees besides the turn's own replies: the system prompt ([`prompt`]) and the MCP resource index
//! in it, compaction that keeps the history inside the window, recalled memory, diagnostics of the turn's edits,
//! and images; plus the guard that keeps external content out of long-term memory.

pub mod compaction;
mod diagnostics;
pub mod images;
pub mod memory_guard;
pub mod prompt;
mod recall;
pub mod resource_index;
