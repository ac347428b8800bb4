//! The normal end of a turn: a reply without tool calls becomes the answer (perhaps cut off at the output limit), or
//! a reply with nothing to show (only reasoning, or nothing) ends the turn empty.

use super::cut_off::is_cut_off;
use crate::agent::{Agent, AgentEvent, EventSink, Notice, TurnOutcome};
use crate::llm::ChatResponse;

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
