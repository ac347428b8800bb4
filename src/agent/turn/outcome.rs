//! How a turn ended, what it cost, and the event that tells the front-end.

use crate::agent::{ExitReason, TurnActions};
use crate::llm::{LlmError, Usage};
use crate::protocol::AgentEvent;

/// How a turn ended.
#[derive(Debug)]
pub enum TurnOutcome {
    /// The model answered without tool calls.
    Finished { text: String },
    /// The answer stopped at the model's output limit; `text` is what arrived.
    CutOff { text: String },
    /// The model ended the turn with no answer text and no tool calls; its reasoning (if any) stays in the history.
    Empty { reasoning: bool, cut_off: bool },
    /// A budget stopped the loop; `text` is the model's partial-result report.
    Partial { reason: ExitReason, text: String },
    /// The user cancelled; the history is still valid for the next turn.
    Cancelled,
    /// The model or transport failed.
    Failed(LlmError),
}

/// A finished turn: its outcome and what it cost.
#[derive(Debug)]
pub struct TurnReport {
    pub outcome: TurnOutcome,
    /// Model requests made in this turn.
    pub requests: u32,
    /// Tokens used in this turn.
    pub usage: Usage,
    /// Refused calls and changed files.
    pub actions: TurnActions,
}

impl TurnOutcome {
    /// The event that ends the turn for the front-ends.
    pub fn end_event(&self) -> AgentEvent {
        match self {
            TurnOutcome::Finished { text } | TurnOutcome::CutOff { text } => {
                AgentEvent::TurnFinished { text: text.clone() }
            }
            TurnOutcome::Empty { .. } => AgentEvent::TurnFinished {
                text: String::new(),
            },
            TurnOutcome::Partial { reason, text } => AgentEvent::TurnPartial {
                reason: reason.to_string(),
                text: text.clone(),
            },
            TurnOutcome::Cancelled => AgentEvent::TurnCancelled,
            TurnOutcome::Failed(e) => AgentEvent::TurnFailed {
                error: e.to_string(),
            },
        }
    }
}
