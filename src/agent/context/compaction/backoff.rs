//! When automatic compaction may ask for a summary again. Every summary call is billed, so after a failed one
//! the next waits until the history has grown by a quarter of the window, twice as long after each further
//! failure in a row; `/compact` asks at once. The window guarantee ([`super::trim`]) keeps requests inside the
//! window meanwhile.

/// The summary history of one conversation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SummaryBackoff {
    /// Failed automatic summaries in a row.
    failures: u32,
    /// The conversation's growth counter (`Conversation::grown_tokens`) at which asking is allowed again.
    resume_at: u64,
    /// The model answered without the headings even after a repair request: later summaries take its prose at
    /// once instead of paying for a repair it will ignore.
    ignores_format: bool,
}

impl SummaryBackoff {
    /// Longest wait, in windows of growth.
    const MAX_DOUBLINGS: u32 = 3;

    /// Whether an automatic summary may be asked for now, `grown` being the growth counter.
    pub fn allows(&self, grown: u64) -> bool {
        self.failures == 0 || grown >= self.resume_at
    }

    /// A summary failed at growth `grown` in a context window of `window` tokens.
    pub fn failed(&mut self, grown: u64, window: u64) {
        let wait = (window / 4) << self.failures.min(Self::MAX_DOUBLINGS);
        self.failures += 1;
        self.resume_at = grown.saturating_add(wait.max(1));
    }

    /// A summary replaced the old history; `followed_format` says whether the model used the headings.
    pub fn succeeded(&mut self, followed_format: bool) {
        self.failures = 0;
        self.resume_at = 0;
        if !followed_format {
            self.ignores_format = true;
        }
    }

    /// Whether a summary without the headings gets a repair request.
    pub fn repair_allowed(&self) -> bool {
        !self.ignores_format
    }

    /// Forgets everything (a new model, a cleared or resumed conversation).
    pub fn reset(&mut self) {
        *self = SummaryBackoff::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_waits_a_quarter_window_then_twice_as_long() {
        let mut b = SummaryBackoff::default();
        assert!(b.allows(0));
        b.failed(1_000, 16_000);
        assert!(!b.allows(4_999));
        assert!(b.allows(5_000));
        b.failed(5_000, 16_000);
        assert!(!b.allows(12_999));
        assert!(b.allows(13_000));
        b.succeeded(true);
        assert!(b.allows(13_000));
        assert!(b.repair_allowed());
    }

    #[test]
    fn a_model_that_ignores_the_format_is_not_asked_to_repair_again() {
        let mut b = SummaryBackoff::default();
        b.succeeded(false);
        assert!(!b.repair_allowed());
        b.reset();
        assert!(b.repair_allowed());
    }
}
