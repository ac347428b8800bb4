//! The window guarantee: before every request, if it would still pass the window (after clearing and
//! summarizing, or because both failed), the oldest history goes until it fits with room for the answer.

use super::trim;
use crate::agent::{Agent, AgentEvent, EventSink, Notice};
use crate::llm::ToolSpec;

impl Agent {
    /// Makes the next request with `tools` fit [`super::Thresholds::fit`]; true when the history changed. It
    /// trims down to the summary threshold, so the steps that follow do not each trim again.
    pub(in crate::agent) fn fit_to_window(
        &mut self,
        tools: &[ToolSpec],
        events: &dyn EventSink,
    ) -> bool {
        let before = self.conversation.request_tokens(tools);
        if before <= self.thresholds.fit {
            return false;
        }
        let target = self.thresholds.summary.min(self.thresholds.fit);
        // The plan counts estimated tokens; the window is counted as the provider counts.
        let ratio = self.conversation.calibration().ratio();
        let to_save = ((before - target) as f64 / ratio).ceil() as u64;
        let plan = trim::plan(
            self.conversation.messages(),
            self.conversation.turn_starts(),
            crate::memory::RECALL_MARKER,
            to_save,
        );
        if plan.saved == 0 {
            return false;
        }
        let (dropped, shortened) = trim::apply(&mut self.conversation, &plan);
        if dropped == 0 && shortened == 0 {
            return false;
        }
        events.emit(AgentEvent::Notice {
            notice: Notice::ContextTrimmed {
                dropped,
                shortened,
                before,
                after: self.conversation.request_tokens(tools),
            },
        });
        true
    }
}
