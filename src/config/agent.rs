//! `[agent]`: the limits of one task (a user turn).

use super::settings::{Plain, Unlimited, declare_settings, setting};

/// Identical tool-call replies in a row that stop a turn, by default.
pub const DEFAULT_STAGNATION_WINDOW: usize = 5;
/// The runaway guard reminds at this streak; stagnation must need more, so the reminder comes first.
pub const RUNAWAY_REMINDER_THRESHOLD: usize = 3;

/// Checks a stagnation window: at least 2 and above the runaway reminder threshold.
pub fn validate_stagnation_window(window: usize) -> Result<usize, String> {
    if window < 2 || window <= RUNAWAY_REMINDER_THRESHOLD {
        return Err(format!(
            "must be at least 2 and greater than the runaway reminder threshold {RUNAWAY_REMINDER_THRESHOLD}"
        ));
    }
    Ok(window)
}

declare_settings! {
    /// Agent-loop limits.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct AgentSettings in config.agent {
        /// Model calls per task before paicli stops and asks the model for a partial-result report (0 = unlimited).
        pub max_iterations: Option<u32> = setting("agent.max_iterations", Unlimited::NONE)
            .env(&["PAICLI_MAX_ITERATIONS"])
            .flag("--max-iterations"),
        /// Input+output tokens per task before paicli stops and asks the model for a partial-result report
        /// (0 = unlimited).
        pub token_budget: Option<u64> = setting("agent.token_budget", Unlimited::NONE)
            .env(&["PAICLI_TOKEN_BUDGET"])
            .flag("--token-budget"),
        /// Stop with STAGNATION_DETECTED when this many model replies in a row make exactly the same tool calls.
        /// At least 4 (it must exceed the runaway reminder, which comes at 3).
        pub stagnation_window: usize = setting("agent.stagnation_window", Plain(DEFAULT_STAGNATION_WINDOW))
            .env(&["PAICLI_STAGNATION_WINDOW"]),
    }
}
