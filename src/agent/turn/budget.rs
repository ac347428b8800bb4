//! Per-turn limits on model calls, tokens and repetition. Checked before every model request.

use serde::Serialize;

use crate::llm::ToolCall;

pub use crate::config::{
    DEFAULT_STAGNATION_WINDOW, RUNAWAY_REMINDER_THRESHOLD, validate_stagnation_window,
};

/// Why the loop must stop before the model is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExitReason {
    /// The last `window` model replies made exactly the same tool calls.
    StagnationDetected,
    /// Cumulative input+output tokens of the turn reached the budget.
    TokenBudgetExceeded,
    /// The turn made as many model calls as allowed.
    HardIterationLimit,
    /// Replies kept stopping at the output limit before their tool calls were complete.
    OutputLimit,
}

impl ExitReason {
    /// The stable name shown to users and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ExitReason::StagnationDetected => "STAGNATION_DETECTED",
            ExitReason::TokenBudgetExceeded => "TOKEN_BUDGET_EXCEEDED",
            ExitReason::HardIterationLimit => "HARD_ITERATION_LIMIT",
            ExitReason::OutputLimit => "OUTPUT_LIMIT",
        }
    }
}

impl std::fmt::Display for ExitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Counts one turn's model calls, tokens and repeated tool-call replies.
#[derive(Clone, Debug)]
pub struct AgentBudget {
    max_iterations: Option<u32>,
    token_budget: Option<u64>,
    stagnation_window: usize,
    iterations: u32,
    tokens: u64,
    last_signature: Option<String>,
    /// How many consecutive replies had `last_signature`.
    same_signature_run: usize,
    /// Sticky: once the loop stagnated it stays stagnated for this turn.
    stagnated: bool,
}

impl AgentBudget {
    /// A fresh budget; `None` means unlimited. An invalid stagnation window falls back to the default.
    pub fn new(max_iterations: Option<u32>, token_budget: Option<u64>) -> Self {
        Self::with_stagnation_window(max_iterations, token_budget, DEFAULT_STAGNATION_WINDOW)
    }

    /// A fresh budget with an explicit stagnation window (see [`validate_stagnation_window`]).
    pub fn with_stagnation_window(
        max_iterations: Option<u32>,
        token_budget: Option<u64>,
        stagnation_window: usize,
    ) -> Self {
        AgentBudget {
            max_iterations,
            token_budget,
            stagnation_window: validate_stagnation_window(stagnation_window)
                .unwrap_or(DEFAULT_STAGNATION_WINDOW),
            iterations: 0,
            tokens: 0,
            last_signature: None,
            same_signature_run: 0,
            stagnated: false,
        }
    }

    /// `None` while within budget, else why not: stagnation, then tokens, then iterations (spec order).
    pub fn check(&self) -> Option<ExitReason> {
        if self.stagnated {
            return Some(ExitReason::StagnationDetected);
        }
        if self.token_budget.is_some_and(|b| self.tokens >= b) {
            return Some(ExitReason::TokenBudgetExceeded);
        }
        if self.max_iterations.is_some_and(|m| self.iterations >= m) {
            return Some(ExitReason::HardIterationLimit);
        }
        None
    }

    /// Counts a model call about to be made.
    pub fn begin_iteration(&mut self) -> u32 {
        self.iterations += 1;
        self.iterations
    }

    /// Adds a response's tokens.
    pub fn record_tokens(&mut self, input: u64, output: u64) {
        self.tokens += input + output;
    }

    /// Records the tool calls of one reply; `window` identical replies in a row mean stagnation.
    pub fn record_tool_calls(&mut self, calls: &[ToolCall]) {
        let signature = call_signature(calls);
        if self.last_signature.as_deref() == Some(signature.as_str()) {
            self.same_signature_run += 1;
        } else {
            self.last_signature = Some(signature);
            self.same_signature_run = 1;
        }
        if self.same_signature_run >= self.stagnation_window {
            self.stagnated = true;
        }
    }

    /// Model calls made so far.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }
}

/// `name|args;name|args;…` in call order.
fn call_signature(calls: &[ToolCall]) -> String {
    calls.iter().fold(String::new(), |mut s, c| {
        s.push_str(&c.name);
        s.push('|');
        s.push_str(&c.arguments);
        s.push(';');
        s
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn call(name: &str, args: &str) -> Vec<ToolCall> {
        vec![ToolCall {
            id: "c".into(),
            name: name.into(),
            arguments: args.into(),
        }]
    }

    #[test]
    fn unlimited_budget_never_stops() {
        let mut b = AgentBudget::new(None, None);
        for i in 0..1000 {
            b.begin_iteration();
            b.record_tokens(1_000_000, 1_000_000);
            b.record_tool_calls(&call("read_file", &i.to_string()));
        }
        assert_eq!(b.check(), None);
    }

    #[test]
    fn iteration_limit_stops_after_the_last_allowed_call() {
        let mut b = AgentBudget::new(Some(2), None);
        assert_eq!(b.check(), None);
        b.begin_iteration();
        assert_eq!(b.check(), None);
        b.begin_iteration();
        assert_eq!(b.check(), Some(ExitReason::HardIterationLimit));
    }

    #[test]
    fn token_budget_is_checked_before_iterations() {
        let mut b = AgentBudget::new(Some(1), Some(100));
        b.begin_iteration();
        b.record_tokens(60, 40);
        assert_eq!(b.check(), Some(ExitReason::TokenBudgetExceeded));
    }

    #[test]
    fn token_budget_below_the_limit_continues() {
        let mut b = AgentBudget::new(None, Some(100));
        b.record_tokens(60, 39);
        assert_eq!(b.check(), None);
        b.record_tokens(1, 0);
        assert_eq!(b.check(), Some(ExitReason::TokenBudgetExceeded));
    }

    #[test]
    fn same_calls_for_a_whole_window_stagnate_and_stay_stagnated() {
        let mut b = AgentBudget::new(None, None);
        for _ in 0..4 {
            b.record_tool_calls(&call("read_file", r#"{"path":"a"}"#));
            assert_eq!(b.check(), None);
        }
        b.record_tool_calls(&call("read_file", r#"{"path":"a"}"#));
        assert_eq!(b.check(), Some(ExitReason::StagnationDetected));
        b.record_tool_calls(&call("list_dir", "{}"));
        assert_eq!(b.check(), Some(ExitReason::StagnationDetected), "sticky");
    }

    #[test]
    fn a_different_reply_resets_the_stagnation_run() {
        let mut b = AgentBudget::new(None, None);
        for _ in 0..4 {
            b.record_tool_calls(&call("read_file", r#"{"path":"a"}"#));
        }
        b.record_tool_calls(&call("read_file", r#"{"path":"b"}"#));
        for _ in 0..4 {
            b.record_tool_calls(&call("read_file", r#"{"path":"a"}"#));
        }
        assert_eq!(b.check(), None);
    }

    #[test]
    fn stagnation_takes_precedence_over_tokens_and_iterations() {
        let mut b = AgentBudget::with_stagnation_window(Some(4), Some(10), 4);
        for _ in 0..4 {
            b.begin_iteration();
            b.record_tokens(100, 100);
            b.record_tool_calls(&call("x", "{}"));
        }
        assert_eq!(b.check(), Some(ExitReason::StagnationDetected));
    }

    #[test]
    fn stagnation_window_must_exceed_the_reminder_threshold() {
        assert!(validate_stagnation_window(1).is_err());
        assert!(validate_stagnation_window(3).is_err());
        assert_eq!(validate_stagnation_window(4), Ok(4));
        let mut b = AgentBudget::with_stagnation_window(None, None, 2);
        for _ in 0..4 {
            b.record_tool_calls(&call("x", "{}"));
        }
        assert_eq!(
            b.check(),
            None,
            "an invalid window falls back to the default 5"
        );
    }
}
