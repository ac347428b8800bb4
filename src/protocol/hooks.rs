//! Per-turn policy plug-ins: each user turn, every hook sees the submitted text and returns the gates its calls
//! must pass, a filter for the tool list, and notices for the user.
//!
//! Tool filters only subtract (spec §5): local tools are always offered, and the filtered list keeps the sorted
//! order, so two turns with the same exposure send byte-identical tool definitions.

use std::sync::Arc;

use super::gate::CallGate;
use super::message::ToolSpec;
use super::notice::Notice;

/// Narrows the tool list sent with each request of a turn.
pub trait ToolFilter: Send + Sync {
    /// The tools to offer next, a subset of `tools` in the same order. Called before every request, so a filter
    /// may widen again within the subset as the turn learns things (e.g. a URL to fetch).
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec>;
}

/// What a hook contributes to one turn.
#[derive(Default)]
pub struct TurnScope {
    /// Added to the turn's tool context, after the gates of earlier hooks.
    pub gates: Vec<Arc<dyn CallGate>>,
    pub filter: Option<Arc<dyn ToolFilter>>,
    /// Shown to the user as notices when the turn starts.
    pub notices: Vec<Notice>,
}

/// A policy consulted at the start of every turn.
pub trait TurnHook: Send + Sync {
    /// Starts a turn for `submitted`, the text the user typed (not expanded `@file` or resource content).
    fn begin_turn(&self, submitted: &str) -> TurnScope;

    /// Told when the turn started by the last `begin_turn` has ended, however it ended (finished, partial,
    /// cancelled or failed). Work done here should not hold up the next prompt.
    fn end_turn(&self) {}

    /// Whether sub-agents forked from the agent (plan tasks) consult this hook too. Scopes are made per turn, so
    /// most hooks are shared safely; one that counts the session's own turns (snapshots) stays with the lead.
    fn carries_into_forks(&self) -> bool {
        true
    }

    /// Whether a shell command the person runs at the prompt (`!command`) is judged by this hook as a turn of its
    /// own (`begin_turn` with the command, `end_turn` after it). One that numbers the conversation's turns
    /// (snapshots) does not count it: the command is no turn of the conversation.
    fn covers_person_commands(&self) -> bool {
        true
    }
}
