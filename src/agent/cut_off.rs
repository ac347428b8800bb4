//! How a reply that ends the model's say enters the conversation when it is not a plain answer: a reply cut off at
//! the output limit (its tool calls never run) and a reply with nothing to show (only reasoning, or nothing).

use super::{Agent, AgentEvent, EventSink, ExitReason, Notice, TurnOutcome};
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

/// What explains a turn that ended without an answer: whether the reply held reasoning, and whether it stopped
/// at the output limit.
pub fn empty_answer_notice(reasoning: bool, cut_off: bool) -> Notice {
    match (reasoning, cut_off) {
        (false, _) => Notice::EmptyAnswer,
        (true, false) => Notice::ReasoningOnly,
        (true, true) => Notice::ReasoningCutOff,
    }
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

    /// A reply without tool calls ends the turn: an answer (perhaps cut off at the output limit), or nothing at
    /// all. An empty reply keeps its reasoning in the history but is never shown as the answer.
    pub(super) fn end_with_answer(
        &mut self,
        response: ChatResponse,
        events: &dyn EventSink,
    ) -> TurnOutcome {
        let cut_off = is_cut_off(&response);
        if response.content.trim().is_empty() {
            let reasoning = !response.reasoning.trim().is_empty();
            events.emit(AgentEvent::Notice {
                notice: empty_answer_notice(reasoning, cut_off),
            });
            self.conversation
                .push_reasoned_answer(response.content, response.reasoning);
            return TurnOutcome::Empty { reasoning, cut_off };
        }
        self.conversation.push_answer(response.content.clone());
        if cut_off {
            events.emit(AgentEvent::Notice {
                notice: Notice::AnswerCutOff,
            });
            return TurnOutcome::CutOff {
                text: response.content,
            };
        }
        TurnOutcome::Finished {
            text: response.content,
        }
    }
}
