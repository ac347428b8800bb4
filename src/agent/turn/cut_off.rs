//! A tool-call reply cut off at the output limit: its calls may be shortened, so none of them runs; the model gets
//! one retry per turn.

use crate::agent::{Agent, AgentEvent, EventSink, ExitReason, Notice, TurnOutcome};
use crate::llm::{ChatResponse, ToolCall};
use crate::tools::ToolOutcome;

/// What the model reads for each call of a cut-off reply: its arguments may be shortened, so none of them ran.
pub(super) const CUT_OFF_RESULT: &str =
    "the reply was cut off before this call was complete; make a shorter step";

/// Cut-off tool-call replies the model may retry per turn; the next one ends the turn as partial.
pub(super) const CUT_OFF_RETRIES: u32 = 1;

/// The provider's `finish_reason` for a reply stopped at the output limit.
pub(super) fn is_cut_off(response: &ChatResponse) -> bool {
    response.finish_reason.as_deref() == Some("length")
}

impl Agent {
    /// Answers every call of a cut-off reply with [`CUT_OFF_RESULT`] without running any; `cut_offs` counts
    /// this turn's cut-off replies. Returns the outcome when the turn ends here (the retry is used up).
    pub(super) fn answer_cut_off_calls(
        &mut self,
        content: String,
        reasoning: Option<String>,
        calls: Vec<ToolCall>,
        cut_offs: u32,
        events: &dyn EventSink,
    ) -> Option<TurnOutcome> {
        let last = cut_offs > CUT_OFF_RETRIES;
        let calls_count = calls.len();
        events.emit(AgentEvent::Notice {
            notice: if last {
                Notice::ToolCallsCutOffAgain { calls: calls_count }
            } else {
                Notice::ToolCallsCutOff { calls: calls_count }
            },
        });
        let result = ToolOutcome::failed(CUT_OFF_RESULT).model_text();
        let round = calls
            .into_iter()
            .map(|call| (call, result.clone()))
            .collect();
        self.conversation
            .push_tool_round(content.clone(), reasoning, round);
        last.then_some(TurnOutcome::Partial {
            reason: ExitReason::OutputLimit,
            text: content,
        })
    }
}
