//! Token accounting for one conversation: the provider's own count when it reports one, the estimate otherwise,
//! and the usage totals the session has spent.

use crate::llm::tokens::{estimate_message, estimate_request};
use crate::protocol::message::{Message, ToolSpec, Usage};

/// What the next request will cost, and what the session has spent so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct TokenMeter {
    /// History length when the last counted request was sent, and the tokens the provider reported for it
    /// (prompt + completion, the completion standing in for the assistant message it produced).
    anchor: Option<(usize, u64)>,
    /// Every request of the session, summaries included.
    session: Usage,
    /// Tokens side requests (summaries) spent that the running turn has not counted yet.
    unbilled: Usage,
}

impl TokenMeter {
    /// Records the provider's usage for a request that carried the first `history_len` messages.
    pub fn record(&mut self, history_len: usize, usage: Option<Usage>) {
        self.anchor = usage
            .filter(|u| u.prompt_tokens > 0)
            .map(|u| (history_len, u.prompt_tokens + u.completion_tokens));
        if let Some(usage) = usage {
            self.session.add(&usage);
        }
    }

    /// Records tokens a request outside the conversation spent (a summary): they count toward the session now
    /// and toward the running turn when it takes them with [`TokenMeter::take_unbilled`].
    pub fn record_side_request(&mut self, usage: Usage) {
        self.session.add(&usage);
        self.unbilled.add(&usage);
    }

    /// Side-request tokens not yet counted by a turn; counting them is the caller's job from now on.
    pub fn take_unbilled(&mut self) -> Usage {
        std::mem::take(&mut self.unbilled)
    }

    /// Tokens used by the whole session.
    pub fn session(&self) -> Usage {
        self.session
    }

    /// Forgets the provider's count (the history was rewritten, so it no longer applies).
    pub fn reset(&mut self) {
        self.anchor = None;
    }

    /// Tokens of a request with `history` and `tools`.
    pub fn measure(&self, history: &[Message], tools: &[ToolSpec]) -> u64 {
        match self.anchor {
            // The message right after the anchor is the assistant reply the completion tokens counted.
            Some((len, counted)) if len < history.len() => {
                counted + history[len + 1..].iter().map(estimate_message).sum::<u64>()
            }
            _ => estimate_request(history, tools),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn usage(prompt: u64, completion: u64) -> Usage {
        Usage {
            prompt_tokens: prompt,
            completion_tokens: completion,
            ..Usage::default()
        }
    }

    #[test]
    fn the_meter_prefers_provider_usage_and_adds_later_messages() {
        let mut history = vec![Message::system("s"), Message::user("u")];
        let mut meter = TokenMeter::default();
        meter.record(history.len(), Some(usage(1000, 50)));
        history.push(Message::assistant("answer"));
        assert_eq!(meter.measure(&history, &[]), 1050);
        history.push(Message::user("abcd"));
        assert_eq!(meter.measure(&history, &[]), 1055);
        meter.reset();
        assert_eq!(
            meter.measure(&history, &[]),
            estimate_request(&history, &[])
        );
    }

    #[test]
    fn side_requests_count_for_the_session_and_once_for_the_turn() {
        let mut meter = TokenMeter::default();
        meter.record(2, Some(usage(100, 10)));
        meter.record_side_request(usage(30, 3));
        assert_eq!(meter.session(), usage(130, 13));
        assert_eq!(meter.take_unbilled(), usage(30, 3));
        assert_eq!(meter.take_unbilled(), Usage::default());
        assert_eq!(meter.session(), usage(130, 13));
    }
}
