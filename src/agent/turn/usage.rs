//! Token accounting of a turn: what each response and each summary cost, toward the turn and its budget.

use crate::agent::{Agent, AgentBudget};
use crate::llm::{ChatResponse, Usage};
use crate::protocol::{AgentEvent, EventSink};

impl Agent {
    /// Counts tokens spent on summaries (already in the session total) toward the turn and its budget.
    pub(super) fn absorb_compaction_usage(
        &mut self,
        budget: &mut AgentBudget,
        turn_usage: &mut Usage,
    ) {
        let spent = self.conversation.meter_mut().take_unbilled();
        budget.record_tokens(spent.prompt_tokens, spent.completion_tokens);
        turn_usage.add(&spent);
    }

    pub(super) fn record_usage(
        &mut self,
        response: &ChatResponse,
        events: &dyn EventSink,
        budget: &mut AgentBudget,
        turn_usage: &mut Usage,
    ) {
        self.absorb_compaction_usage(budget, turn_usage);
        let Some(usage) = response.usage else { return };
        budget.record_tokens(usage.prompt_tokens, usage.completion_tokens);
        turn_usage.add(&usage);
        self.count_model_usage(&usage);
        if let Some(tally) = &self.fork_usage {
            match tally.lock() {
                Ok(mut t) => t.add(&usage),
                Err(poisoned) => poisoned.into_inner().add(&usage),
            }
        }
        events.emit(AgentEvent::Usage {
            response: usage,
            session: self.conversation.session_usage(),
            model: self.model().to_string(),
            provider: self.own_provider.clone().unwrap_or_default(),
        });
    }
}
