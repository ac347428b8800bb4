//! Long tasks: budget exits and the partial report, the runaway reminder, context compaction (thresholds and
//! overflow retry) and long-term memory, driven through the real agent loop.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod budget_exits;
mod memory;
mod memory_provenance;
mod overflow;
mod session;
mod window_guarantee;

pub use crate::support::agent_harness::*;
