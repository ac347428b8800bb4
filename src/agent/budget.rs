//! Per-turn limits on model calls and tokens. Checked before every model request.

use serde::Serialize;

/// Why the loop must stop before the model is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExitReason {
    /// Cumulative input+output tokens of the turn reached the budget.
    TokenBudgetExceeded,
    /// The turn made as many model calls as allowed.
    HardIterationLimit,
}

impl ExitReason {
    /// The stable name shown to users and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ExitReason::TokenBudgetExceeded => "TOKEN_BUDGET_EXCEEDED",
            ExitReason::HardIterationLimit => "HARD_ITERATION_LIMIT",
        }
    }
}

impl std::fmt::Display for ExitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Counts one turn's model calls and tokens.
#[derive(Clone, Debug)]
pub struct AgentBudget {
    max_iterations: Option<u32>,
    token_budget: Option<u64>,
    iterations: u32,
    tokens: u64,
}

impl AgentBudget {
    /// A fresh budget; `None` means unlimited.
    pub fn new(max_iterations: Option<u32>, token_budget: Option<u64>) -> Self {
        AgentBudget {
            max_iterations,
            token_budget,
            iterations: 0,
            tokens: 0,
        }
    }

    /// `None` while within budget, else why not (token budget first).
    pub fn check(&self) -> Option<ExitReason> {
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

    /// Model calls made so far.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlimited_budget_never_stops() {
        let mut b = AgentBudget::new(None, None);
        for _ in 0..1000 {
            b.begin_iteration();
            b.record_tokens(1_000_000, 1_000_000);
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
}
