//! The end of a turn a budget stopped: one tool-less call for the partial-result report.

use tokio_util::sync::CancellationToken;

use crate::agent::{Agent, AgentBudget, ExitReason, TurnOutcome};
use crate::llm::Usage;
use crate::protocol::{AgentEvent, EventSink, Notice};

/// Told to the model when a budget stops the loop; it gets one tool-less call to report.
const FINALIZE_INSTRUCTION: &str = "\
The task was stopped before completion ({reason}). Do not call any tools. Give a best-effort partial result in \
four parts: 1. Done: what was completed. 2. Verified: what was checked and how. 3. Not done or blocked: what \
remains and why. 4. Next steps: what the user should do next. Never claim the task is complete.";

impl Agent {
    /// A budget stopped the loop: one tool-less call for the partial-result report.
    pub(super) async fn finalize(
        &mut self,
        reason: ExitReason,
        events: &dyn EventSink,
        cancel: &CancellationToken,
        budget: &mut AgentBudget,
        turn_usage: &mut Usage,
    ) -> TurnOutcome {
        events.emit(AgentEvent::Notice {
            notice: Notice::PartialCompletion {
                reason: reason.to_string(),
            },
        });
        self.conversation
            .push_user(FINALIZE_INSTRUCTION.replace("{reason}", reason.as_str()));
        budget.begin_iteration();
        events.emit(AgentEvent::RequestStarted {
            iteration: budget.iterations(),
        });
        match self.chat_or_compact(&[], events, cancel).await {
            Ok(response) => {
                self.record_usage(&response, events, budget, turn_usage);
                self.conversation.push_answer(response.content.clone());
                TurnOutcome::Partial {
                    reason,
                    text: format!("⚠️ partial completion ({reason})\n\n{}", response.content),
                }
            }
            Err(outcome) => outcome,
        }
    }
}
