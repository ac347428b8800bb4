//! When and how long to wait between attempts of one chat request.

use std::time::Duration;

/// When and how long to wait between attempts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts including the first.
    pub max_attempts: u32,
    /// Wait after the first failure; doubles per further failure.
    pub base_delay: Duration,
    /// Longest wait, also the cap on a server's `Retry-After`.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    /// The declared `[llm.retry]` defaults.
    fn default() -> Self {
        RetryPolicy::from(&crate::config::RetrySettings::default())
    }
}

impl RetryPolicy {
    /// A policy that never retries.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// The wait after failed attempt number `attempt` (1-based).
    ///
    /// A server's `Retry-After` wins (it knows when capacity returns) but never beyond `max_delay`; otherwise
    /// the delay doubles from `base_delay`, is capped, and is jittered into its upper half so that clients
    /// that failed together do not retry together.
    pub fn delay_for(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let exponent = attempt.saturating_sub(1).min(31);
        let backoff = self
            .base_delay
            .saturating_mul(1u32 << exponent)
            .min(self.max_delay);
        let half = backoff / 2;
        half + half.mul_f64(fastrand::f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_in_the_upper_half() {
        let policy = RetryPolicy::default();
        for (attempt, full_ms) in [(1, 500), (2, 1000), (3, 2000), (4, 4000)] {
            for _ in 0..50 {
                let d = policy.delay_for(attempt, None);
                let full = Duration::from_millis(full_ms);
                assert!(d >= full / 2 && d <= full, "attempt {attempt}: {d:?}");
            }
        }
    }

    #[test]
    fn backoff_is_capped_even_for_huge_attempt_numbers() {
        let policy = RetryPolicy::default();
        for attempt in [10, 32, 1000, u32::MAX] {
            let d = policy.delay_for(attempt, None);
            assert!(d <= policy.max_delay && d >= policy.max_delay / 2, "{d:?}");
        }
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let policy = RetryPolicy::default();
        assert_eq!(
            policy.delay_for(1, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(policy.delay_for(1, Some(Duration::ZERO)), Duration::ZERO);
        assert_eq!(
            policy.delay_for(1, Some(Duration::from_secs(3600))),
            Duration::from_secs(30)
        );
    }
}
