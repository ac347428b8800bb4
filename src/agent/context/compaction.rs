//! Keeping the history inside the context window, in PaiCLI's order: spill (done by the executor) → clear old
//! tool results → summarize old turns. Thresholds come from the model's context window (spec §3). Whatever the
//! summarizer answers, the window guarantee ([`fit`], planned by [`trim`]) then drops the oldest history until
//! the request fits, and [`backoff`] keeps a failing summarizer from being asked at every step.
//!
//! The system message is never touched, so the request prefix stays byte-identical for the provider's cache.

pub mod backoff;
pub mod clear;
mod fit;
pub mod summarize;
pub mod trim;

use tokio_util::sync::CancellationToken;

use crate::agent::{Agent, AgentEvent, CompactionStage, EventSink, Notice};
use crate::llm::tokens::estimate_request;
use crate::llm::{Message, Role, ToolSpec, Usage};
use crate::protocol::CompactTrigger;

pub use backoff::SummaryBackoff;
pub use clear::{CLEARED_MARKER, clear_old_results, old_results};
pub use summarize::{REQUIRED_HEADINGS, Summary, SummaryError, SummaryLimits};

/// Tool results kept intact by clearing.
pub const KEEP_RESULTS: usize = 3;
/// User turns kept verbatim by automatic compaction.
pub const KEEP_TURNS: usize = 3;
/// User turns kept verbatim by `/compact`.
pub const KEEP_TURNS_ON_DEMAND: usize = 1;
/// Largest serialized segment per summary request (estimated tokens; about 60k characters of Latin text).
const MAX_SEGMENT_TOKENS: u64 = 15_000;
/// Room for the summary prompt and the task line around a segment (estimated tokens).
const SUMMARY_PROMPT_TOKENS: u64 = 500;
/// Largest summary asked for (chars).
const MAX_SUMMARY_CHARS: usize = 8_000;
/// The assistant's answer after the summary, so the tail continues a normal conversation.
const CONTINUE_ACK: &str =
    "Understood. I have the summary of the earlier conversation and will continue from it.";
/// Opens the summary message.
pub const SUMMARY_HEADER: &str = "[conversation summary] The earlier part of this session was compacted into the summary \
below. Treat it as the authoritative record of what happened before.";

/// When to clear and when to summarize, in tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    pub window: u64,
    /// Summarize when a request would reach this.
    pub summary: u64,
    /// Clear old tool results when a request would reach this.
    pub clearing: u64,
    /// No request is sent above this: the window less the room kept for the answer.
    pub fit: u64,
}

impl Thresholds {
    /// `summary = w − min(20k, max(1k, w/4)) − min(13k, max(1k, w/8))`; `clearing = min(100k, 0.6 × summary)`;
    /// `fit = w − min(20k, max(1k, w/4))` (the answer's share).
    pub fn for_window(window: u64) -> Self {
        let output_reserve = (window / 4).clamp(1_000, 20_000);
        let buffer = (window / 8).clamp(1_000, 13_000);
        let summary = window.saturating_sub(output_reserve + buffer).max(1);
        Thresholds {
            window,
            summary,
            clearing: (summary * 3 / 5).min(100_000),
            fit: window.saturating_sub(output_reserve).max(summary),
        }
    }

    /// Segment and summary sizes that keep every summary request inside the window: the segment and the prompt
    /// (counted as the provider counts, with `calibration`) within [`Thresholds::fit`], the answer within the
    /// room kept for answers.
    fn summary_limits(&self, calibration: f64, repair: bool) -> SummaryLimits {
        let answer_room = usize::try_from(self.window - self.fit).unwrap_or(MAX_SUMMARY_CHARS);
        // About four characters per token, and half the answer room, so a wordy model still fits.
        let summary_chars = (answer_room * 2).clamp(1_000, MAX_SUMMARY_CHARS);
        let room = self.fit.saturating_sub(SUMMARY_PROMPT_TOKENS);
        let segment_tokens = (room as f64 / calibration.max(1.0)) as u64;
        SummaryLimits {
            segment_tokens: segment_tokens.clamp(500, MAX_SEGMENT_TOKENS),
            summary_chars,
            repair,
        }
    }
}

/// Why the history was not compacted; it is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum CompactionError {
    #[error("nothing old enough to compact")]
    NothingToCompact,
    #[error(transparent)]
    Summary(#[from] SummaryError),
    #[error("the summary did not make the history smaller")]
    NotSmaller,
    #[error("the summary could not replace the old turns: {0}")]
    Rewrite(crate::session::ConversationError),
}

/// Why compaction runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::agent) enum Trigger {
    /// Before a request, only past the thresholds.
    Threshold,
    /// The provider said the request was too long: clear and summarize now.
    Overflow,
}

impl Agent {
    /// Compacts the history now, keeping the last user turn, with an optional focus for the summary (`/compact`).
    pub async fn compact_now(
        &mut self,
        focus: Option<&str>,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> Result<(), CompactionError> {
        let tools = self.tool_specs.to_vec();
        if let Some(lifecycle) = &self.lifecycle {
            lifecycle
                .before_compaction(CompactTrigger::Manual, focus)
                .await;
        }
        self.summarize_history(KEEP_TURNS_ON_DEMAND, focus, &tools, events, &cancel)
            .await
    }

    /// Where automatic summaries stand after failures (and whether the model follows the format).
    pub fn summary_backoff(&self) -> SummaryBackoff {
        self.summary_backoff
    }

    /// Clears and then summarizes when the next request would pass the thresholds (or at once on overflow).
    /// Returns true when the history changed.
    pub(in crate::agent) async fn compact_if_needed(
        &mut self,
        trigger: Trigger,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> bool {
        let forced = trigger == Trigger::Overflow;
        let mut changed = false;
        let before = self.conversation.request_tokens(tools);
        if forced || before >= self.thresholds.clearing {
            let plan = old_results(self.conversation.messages(), KEEP_RESULTS);
            let cleared = plan
                .into_iter()
                .filter(|(i, text)| self.conversation.replace_tool_output(*i, text.clone()))
                .count();
            if cleared > 0 {
                changed = true;
                events.emit(AgentEvent::Compacted {
                    stage: CompactionStage::ClearedToolResults,
                    tokens_before: before,
                    tokens_after: self.conversation.request_tokens(tools),
                    messages: cleared,
                });
            }
        }
        let now = self.conversation.request_tokens(tools);
        // After a failed summary, wait for the history to grow before paying for another attempt (also on
        // overflow: the window guarantee makes the request fit without one).
        let allowed = self
            .summary_backoff
            .allows(self.conversation.grown_tokens());
        if allowed && (forced || now >= self.thresholds.summary) {
            if let Some(lifecycle) = &self.lifecycle {
                lifecycle
                    .before_compaction(CompactTrigger::Auto, None)
                    .await;
            }
            match self
                .summarize_history(KEEP_TURNS, None, tools, events, cancel)
                .await
            {
                Ok(()) => changed = true,
                Err(_) if cancel.is_cancelled() => {}
                Err(e) => {
                    self.summary_backoff
                        .failed(self.conversation.grown_tokens(), self.thresholds.window);
                    events.emit(AgentEvent::Notice {
                        notice: Notice::CompactionSkipped {
                            error: e.to_string(),
                        },
                    });
                }
            }
        }
        changed
    }

    /// Replaces everything between the system prompt and the kept tail with a summary.
    async fn summarize_history(
        &mut self,
        keep_turns: usize,
        focus: Option<&str>,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Result<(), CompactionError> {
        let history = self.conversation.messages();
        let cut = choose_cut(history, self.conversation.turn_starts(), keep_turns)
            .ok_or(CompactionError::NothingToCompact)?;
        let before = estimate_request(history, tools);
        let mut spent = Usage::default();
        let limits = self.thresholds.summary_limits(
            self.conversation.calibration().ratio(),
            self.summary_backoff.repair_allowed(),
        );
        let summary = summarize::summarize(
            self.client.as_ref(),
            &history[1..cut],
            focus,
            limits,
            cancel,
            &mut spent,
        )
        .await;
        if spent != Usage::default() {
            // Summary requests cost tokens like any other: the session total shows them, and the turn that
            // triggered them counts them against its budget (see `Agent::absorb_compaction_usage`).
            self.conversation.meter_mut().record_side_request(spent);
            self.count_model_usage(&spent);
            events.emit(AgentEvent::Usage {
                response: spent,
                session: self.conversation.session_usage(),
                model: self.model().to_string(),
                provider: self.own_provider.clone().unwrap_or_default(),
            });
        }
        let Summary {
            text: summary,
            followed_format,
        } = summary?;
        let history = self.conversation.messages();
        let mut replacement = vec![Message::user(format!("{SUMMARY_HEADER}\n\n{summary}"))];
        // Two assistant messages in a row confuse some chat templates: a tail cut inside a turn starts with one.
        if history.get(cut).is_none_or(|m| m.role != Role::Assistant) {
            replacement.push(Message::assistant(CONTINUE_ACK));
        }
        let saved: u64 = history[1..cut]
            .iter()
            .map(crate::llm::tokens::estimate_message)
            .sum();
        let added: u64 = replacement
            .iter()
            .map(crate::llm::tokens::estimate_message)
            .sum();
        if added >= saved {
            return Err(CompactionError::NotSmaller);
        }
        let after = before - saved + added;
        // `SessionStart` hooks with source `compact` may add context: it goes with the summary.
        if let Some(lifecycle) = &self.lifecycle {
            let context = lifecycle.after_compaction().await;
            if !context.is_empty() {
                replacement[0] = Message::user(format!(
                    "{SUMMARY_HEADER}\n\n{summary}\n\n<hook-context>\n{}\n</hook-context>",
                    context.join("\n\n")
                ));
            }
        }
        // The model's task list outlives the turns it was made in.
        if let Some(list) = &self.task_list {
            replacement[0] = Message::user(format!(
                "{}\n\nYour task list (update_plan) so far:\n{}",
                replacement[0].text(),
                list.as_markdown()
            ));
        }
        self.conversation
            .rewrite(1..cut, replacement)
            .map_err(CompactionError::Rewrite)?;
        self.summary_backoff.succeeded(followed_format);
        events.emit(AgentEvent::Compacted {
            stage: CompactionStage::Summarized,
            tokens_before: before,
            tokens_after: after,
            messages: cut - 1,
        });
        Ok(())
    }
}

/// Where the kept tail starts: at a user-turn boundary keeping up to `keep_turns` turns (fewer if that is all
/// there is), else inside the current turn before its last model reply. `None` when nothing can be cut.
fn choose_cut(history: &[Message], turn_starts: &[usize], keep_turns: usize) -> Option<usize> {
    for keep in (1..=keep_turns.max(1)).rev() {
        if let Some(&cut) = turn_starts
            .len()
            .checked_sub(keep)
            .and_then(|i| turn_starts.get(i))
            && cut > 1
            && cut < history.len()
        {
            return Some(cut);
        }
    }
    let turn = turn_starts.last().copied().unwrap_or(1);
    history
        .iter()
        .enumerate()
        .skip(turn + 1)
        .filter(|(_, m)| m.role == Role::Assistant)
        .map(|(i, _)| i)
        .next_back()
        .filter(|&i| i > 1)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_match_the_spec_table() {
        let summary = |w| Thresholds::for_window(w).summary;
        assert_eq!(summary(128_000), 95_000);
        assert_eq!(summary(200_000), 167_000);
        assert_eq!(summary(256_000), 223_000);
        assert_eq!(summary(1_000_000), 967_000);
        assert_eq!(Thresholds::for_window(128_000).clearing, 57_000);
        assert_eq!(Thresholds::for_window(1_000_000).clearing, 100_000);
        let small = Thresholds::for_window(8_000);
        assert_eq!((small.summary, small.clearing), (5_000, 3_000));
        assert_eq!(Thresholds::for_window(16_000).fit, 12_000);
        assert_eq!(Thresholds::for_window(128_000).fit, 108_000);
    }

    #[test]
    fn a_summary_request_stays_inside_the_window() {
        for window in [8_000, 16_000, 128_000] {
            let t = Thresholds::for_window(window);
            let plain = t.summary_limits(1.0, true);
            assert!(
                plain.segment_tokens + SUMMARY_PROMPT_TOKENS <= t.fit,
                "{window}"
            );
            assert!(
                (plain.summary_chars / 4) as u64 <= t.window - t.fit,
                "{window}"
            );
            let dense = t.summary_limits(2.0, true);
            assert!(
                dense.segment_tokens * 2 + SUMMARY_PROMPT_TOKENS <= t.fit,
                "{window}: the provider counts the segment twice as large"
            );
        }
    }

    #[test]
    fn cuts_at_turn_boundaries_then_inside_the_turn() {
        let h: Vec<Message> = vec![
            Message::system("s"),
            Message::user("t1"),
            Message::assistant("a1"),
            Message::user("t2"),
            Message::assistant("a2"),
            Message::user("t3"),
            Message::assistant_tool_calls("", None, vec![]),
            Message::assistant_tool_calls("", None, vec![]),
        ];
        assert_eq!(
            choose_cut(&h, &[1, 3, 5], 3),
            Some(3),
            "keeps two turns when three would leave nothing"
        );
        assert_eq!(choose_cut(&h, &[1, 3, 5], 1), Some(5));
        assert_eq!(choose_cut(&h, &[1], 3), Some(7), "inside the only turn");
        assert_eq!(choose_cut(&h[..2], &[1], 3), None);
    }
}
