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
    /// Provider tokens per estimated token, learnt from the last counted request (see [`Calibration`]).
    calibration: Calibration,
}

/// How much the provider's tokenizer counts per estimated token. Only corrections upward are kept: the estimate
/// decides whether a request fits the window, and a provider that reports too few tokens (some leave cached
/// tokens out) must not make paicli send more than fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration(f64);

impl Calibration {
    /// Largest correction believed; beyond it the report is more likely wrong than the estimate.
    const MAX: f64 = 3.0;

    /// The correction for a request estimated at `estimated` tokens that the provider counted as `counted`.
    pub fn from_counts(counted: u64, estimated: u64) -> Self {
        if estimated == 0 {
            return Calibration::default();
        }
        Calibration((counted as f64 / estimated as f64).clamp(1.0, Self::MAX))
    }

    /// `tokens` estimated, as the provider would count them (rounded up).
    pub fn apply(self, tokens: u64) -> u64 {
        (tokens as f64 * self.0).ceil() as u64
    }

    /// The factor itself (1.0 when nothing was learnt).
    pub fn ratio(self) -> f64 {
        self.0
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration(1.0)
    }
}

impl TokenMeter {
    /// Records the provider's usage for a request that carried the first `history_len` messages and was
    /// estimated at `estimated` tokens (which calibrates later estimates).
    pub fn record(&mut self, history_len: usize, estimated: u64, usage: Option<Usage>) {
        let counted = usage.filter(|u| u.prompt_tokens > 0);
        self.anchor = counted.map(|u| (history_len, u.prompt_tokens + u.completion_tokens));
        if let Some(u) = counted {
            self.calibration = Calibration::from_counts(u.prompt_tokens, estimated);
        }
        if let Some(usage) = usage {
            self.session.add(&usage);
        }
    }

    /// The provider refused a request estimated at `estimated` tokens as longer than `window`: its tokens per
    /// estimated token are at least `window / estimated`, with a little more so the next try lands inside.
    pub fn record_overflow(&mut self, estimated: u64, window: u64) {
        let floor = Calibration::from_counts(window + window / 20, estimated);
        if floor.ratio() > self.calibration.ratio() {
            self.calibration = floor;
        }
    }

    /// The correction applied to estimates.
    pub fn calibration(&self) -> Calibration {
        self.calibration
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
    /// Starts the session's total from `spent` (a resumed session's).
    pub fn restore_session(&mut self, spent: Usage) {
        self.session = spent;
    }

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

    /// Tokens of a request with `history` and `tools` as the provider would count them: the larger of
    /// [`TokenMeter::measure`] and the calibrated estimate, so neither a stale count nor a low one lets a request
    /// pass the window.
    pub fn request_tokens(&self, history: &[Message], tools: &[ToolSpec]) -> u64 {
        let calibrated = self.calibration.apply(estimate_request(history, tools));
        calibrated.max(self.measure(history, tools))
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
        meter.record(history.len(), 900, Some(usage(1000, 50)));
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
        meter.record(2, 100, Some(usage(100, 10)));
        meter.record_side_request(usage(30, 3));
        assert_eq!(meter.session(), usage(130, 13));
        assert_eq!(meter.take_unbilled(), usage(30, 3));
        assert_eq!(meter.take_unbilled(), Usage::default());
        assert_eq!(meter.session(), usage(130, 13));
    }

    #[test]
    fn the_provider_count_calibrates_estimates_upward_only() {
        let history = vec![Message::system("s"), Message::user("x".repeat(4000))];
        let estimate = estimate_request(&history, &[]);
        let mut meter = TokenMeter::default();
        meter.record(history.len(), estimate, Some(usage(estimate * 2, 0)));
        meter.reset();
        assert_eq!(meter.calibration().ratio(), 2.0);
        assert_eq!(meter.request_tokens(&history, &[]), estimate * 2);
        meter.record(history.len(), estimate, Some(usage(estimate / 2, 0)));
        meter.reset();
        assert_eq!(
            meter.calibration().ratio(),
            1.0,
            "a low count never loosens"
        );
        meter.record(history.len(), estimate, Some(usage(estimate * 100, 0)));
        assert_eq!(
            meter.calibration().ratio(),
            3.0,
            "an absurd count is capped"
        );
    }

    #[test]
    fn an_overflow_raises_the_calibration_past_the_window() {
        let mut meter = TokenMeter::default();
        meter.record_overflow(10_000, 16_000);
        assert!(meter.calibration().apply(10_000) > 16_000);
        meter.record_overflow(20_000, 16_000);
        assert!(
            meter.calibration().ratio() > 1.6,
            "never lowered by a later overflow"
        );
    }
}
