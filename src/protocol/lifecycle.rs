//! Moments of an agent's life that the person's hooks hear about, below the session host: before and after the
//! history is summarized (Claude Code's `PreCompact` and `SessionStart` with source `compact`) and a sub-agent
//! finishing (`SubagentStop`). The agent holds one and calls it; `hooks` implements it.

use async_trait::async_trait;

/// Why the history is being summarized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompactTrigger {
    /// `/compact`.
    Manual,
    /// The history reached the thresholds or overflowed the window.
    Auto,
}

impl CompactTrigger {
    /// Claude Code's name (`manual`, `auto`).
    pub fn name(self) -> &'static str {
        match self {
            CompactTrigger::Manual => "manual",
            CompactTrigger::Auto => "auto",
        }
    }
}

/// Told of the moments above.
#[async_trait]
pub trait Lifecycle: Send + Sync {
    /// Before the history is summarized; `focus` is what `/compact` was asked to keep.
    async fn before_compaction(&self, trigger: CompactTrigger, focus: Option<&str>);

    /// After the history was summarized: context to add after the summary.
    async fn after_compaction(&self) -> Vec<String>;

    /// A sub-agent ended its turn with an answer; `Some(reason)` keeps it working with `reason` as its next
    /// message (`continued` is how many times that already happened for this task).
    async fn subagent_stopped(&self, continued: u32) -> Option<String>;
}
