//! The window guarantee's plan: what to drop when a request would still pass the window after clearing and
//! summarizing (or because both failed). In order, until enough is saved:
//!
//! 1. the oldest whole earlier turns;
//! 2. the oldest tool results of the current turn, as placeholders (each call keeps its one result);
//! 3. the oldest whole steps of the current turn (an assistant message with its results);
//! 4. the summary of earlier compactions;
//! 5. as a last resort, the end of the latest tool results (their head stays).
//!
//! The system message, the current user message and the latest step are never dropped. Dropped ranges are
//! whole turns or whole steps, so every call stays paired with its result; a short note says what went.

use std::ops::Range;

use super::SUMMARY_HEADER;
use super::clear::{CLEARED_MARKER, placeholder};
use crate::llm::tokens::estimate_message;
use crate::llm::{Message, Role};
use crate::session::Conversation;

/// Replaces dropped earlier turns (followed by [`FRONT_ACK`]).
pub const FRONT_NOTE: &str = "[context trimmed] Older parts of this session were dropped to fit the model's \
context window; they are no longer visible.";
/// The assistant's answer to [`FRONT_NOTE`], so the next turn's user message follows an assistant one.
const FRONT_ACK: &str = "Understood. I will continue with what is still visible.";
/// Replaces dropped steps of the current turn.
pub const STEPS_NOTE: &str = "[context trimmed] Earlier steps of this task were dropped to fit the model's \
context window; read files or run tools again if you need their results.";
/// Ends a tool result cut to fit.
const CUT_NOTE: &str = "[rest of this result cut to fit the context window]";
/// A latest result is never cut below this many characters.
const MIN_KEPT_CHARS: usize = 1_000;

/// What to change, by index into the history as it is now.
#[derive(Debug, Default, PartialEq)]
pub struct TrimPlan {
    /// Tool results whose text is replaced (placeholders and cuts); never inside a dropped range.
    pub replaced: Vec<(usize, String)>,
    /// Steps of the current turn to replace with [`STEPS_NOTE`].
    pub steps: Option<Range<usize>>,
    /// Earlier turns (and the summary) to replace with [`FRONT_NOTE`].
    pub front: Option<Range<usize>>,
    /// Estimated tokens the plan saves.
    pub saved: u64,
}

impl TrimPlan {
    /// Messages the plan drops.
    pub fn dropped(&self) -> usize {
        self.steps.as_ref().map_or(0, ExactSizeIterator::len)
            + self.front.as_ref().map_or(0, ExactSizeIterator::len)
    }

    /// The replacement for the front range.
    pub fn front_replacement() -> Vec<Message> {
        vec![Message::user(FRONT_NOTE), Message::assistant(FRONT_ACK)]
    }

    /// The replacement for the steps range.
    pub fn steps_replacement() -> Vec<Message> {
        vec![Message::user(STEPS_NOTE)]
    }
}

/// The history's parts, as ranges of indices.
struct Layout {
    /// The summary message and its acknowledgement (empty when there is none).
    summary: Range<usize>,
    /// Earlier turns, oldest first (leftover notes before the first turn count as one).
    earlier: Vec<Range<usize>>,
    /// Steps of the current turn before the latest one, oldest first.
    steps: Vec<Range<usize>>,
    /// The latest step and what follows it.
    latest: Range<usize>,
}

impl Layout {
    fn of(messages: &[Message], turn_starts: &[usize], recall_marker: &str) -> Self {
        let len = messages.len();
        let summary_end = summary_end(messages);
        let current = turn_starts.last().copied().filter(|&i| i >= summary_end);
        let head_end = current.map_or(summary_end, |start| {
            let recalled = messages[start].role == Role::User
                && messages[start].text().starts_with(recall_marker)
                && messages
                    .get(start + 1)
                    .is_some_and(|m| m.role == Role::User);
            (start + 1 + usize::from(recalled)).min(len)
        });
        let earlier_end = current.unwrap_or(summary_end);
        let mut bounds: Vec<usize> = vec![summary_end];
        bounds.extend(
            turn_starts
                .iter()
                .copied()
                .filter(|&i| i > summary_end && i < earlier_end),
        );
        bounds.push(earlier_end);
        bounds.dedup();
        let earlier = bounds.windows(2).map(|w| w[0]..w[1]).collect();
        let latest_start = (head_end..len)
            .rev()
            .find(|&i| messages[i].role == Role::Assistant && !messages[i].tool_calls.is_empty())
            .unwrap_or(len);
        let mut step_bounds = vec![head_end];
        step_bounds
            .extend((head_end + 1..latest_start).filter(|&i| messages[i].role == Role::Assistant));
        step_bounds.push(latest_start);
        step_bounds.dedup();
        let steps = step_bounds.windows(2).map(|w| w[0]..w[1]).collect();
        Layout {
            summary: 1..summary_end,
            earlier,
            steps,
            latest: latest_start..len,
        }
    }
}

/// Where the summary block (summary, then its acknowledgement) ends; 1 when the history has none.
fn summary_end(messages: &[Message]) -> usize {
    match messages.get(1) {
        Some(m) if m.role == Role::User && m.text().starts_with(SUMMARY_HEADER) => {
            let ack = messages
                .get(2)
                .is_some_and(|m| m.role == Role::Assistant && m.tool_calls.is_empty());
            2 + usize::from(ack)
        }
        _ => 1,
    }
}

/// A plan being built, with the estimate of every message so each step can be judged cheaply.
struct Draft {
    costs: Vec<u64>,
    front: Option<Range<usize>>,
    steps: Option<Range<usize>>,
    /// Index and new text, in the order planned.
    replaced: Vec<(usize, String)>,
    /// The estimate of each replaced message's new form, by index.
    new_costs: Vec<Option<u64>>,
    front_note: u64,
    steps_note: u64,
}

impl Draft {
    fn new(messages: &[Message]) -> Self {
        let cost = |r: Vec<Message>| r.iter().map(estimate_message).sum();
        Draft {
            costs: messages.iter().map(estimate_message).collect(),
            front: None,
            steps: None,
            replaced: Vec::new(),
            new_costs: vec![None; messages.len()],
            front_note: cost(TrimPlan::front_replacement()),
            steps_note: cost(TrimPlan::steps_replacement()),
        }
    }

    fn dropped(&self, i: usize) -> bool {
        self.front.as_ref().is_some_and(|r| r.contains(&i))
            || self.steps.as_ref().is_some_and(|r| r.contains(&i))
    }

    /// Estimated tokens saved if the draft were applied now (negative savings count as none).
    fn saved(&self) -> u64 {
        let total: u64 = self.costs.iter().sum();
        let mut after: u64 = self
            .costs
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.dropped(*i))
            .map(|(i, c)| self.new_costs[i].unwrap_or(*c))
            .sum();
        after += self.front.as_ref().map_or(0, |_| self.front_note);
        after += self.steps.as_ref().map_or(0, |_| self.steps_note);
        total.saturating_sub(after)
    }

    /// Replaces message `i`'s text by `text` if that is smaller; true when it was.
    fn replace(&mut self, i: usize, text: String) -> bool {
        let new = estimate_message(&Message::tool("", &text));
        if new >= self.costs[i] {
            return false;
        }
        self.replaced.push((i, text));
        self.new_costs[i] = Some(new);
        true
    }

    /// Widens `range` (front or steps) through `ranges` until `to_save` is met; keeps the widening only if it
    /// saves something.
    fn widen(
        &mut self,
        pick: fn(&mut Self) -> &mut Option<Range<usize>>,
        start: usize,
        ends: impl Iterator<Item = usize>,
        to_save: u64,
    ) {
        let before = (pick(self).clone(), self.saved());
        for end in ends {
            if self.saved() >= to_save {
                break;
            }
            *pick(self) = Some(start..end);
        }
        if self.saved() <= before.1 {
            *pick(self) = before.0;
        }
    }
}

/// Plans changes that save at least `to_save` estimated tokens, or as many as can be saved without touching
/// what must stay. `recall_marker` starts a recalled-memory message (part of the current user message).
pub fn plan(
    messages: &[Message],
    turn_starts: &[usize],
    recall_marker: &str,
    to_save: u64,
) -> TrimPlan {
    let layout = Layout::of(messages, turn_starts, recall_marker);
    let mut d = Draft::new(messages);

    // 1. Oldest earlier turns.
    let ends = layout.earlier.iter().map(|t| t.end);
    d.widen(|d| &mut d.front, layout.summary.end, ends, to_save);

    // 2. Old tool results of the current turn become placeholders.
    for i in layout.steps.iter().flat_map(Clone::clone) {
        if d.saved() >= to_save {
            break;
        }
        let m = &messages[i];
        if m.role == Role::Tool && !m.text().starts_with(CLEARED_MARKER) {
            d.replace(i, stub_text(messages, i));
        }
    }

    // 3. Oldest steps of the current turn, whole.
    if let Some(first) = layout.steps.first() {
        let ends = layout.steps.iter().map(|s| s.end);
        d.widen(|d| &mut d.steps, first.start, ends, to_save);
        if let Some(steps) = d.steps.clone() {
            d.replaced.retain(|(i, _)| !steps.contains(i));
            for i in steps {
                d.new_costs[i] = None;
            }
        }
    }

    // 4. The summary of earlier compactions.
    if !layout.summary.is_empty() {
        let end = d.front.as_ref().map_or(layout.summary.end, |f| f.end);
        d.widen(
            |d| &mut d.front,
            layout.summary.start,
            std::iter::once(end),
            to_save,
        );
    }

    // 5. The latest results lose their end, largest first.
    let mut latest: Vec<usize> = layout
        .latest
        .clone()
        .filter(|&i| messages[i].role == Role::Tool)
        .collect();
    latest.sort_by_key(|&i| std::cmp::Reverse(d.costs[i]));
    for i in latest {
        let saved = d.saved();
        if saved >= to_save {
            break;
        }
        let text = messages[i].text();
        let chars = text.chars().count();
        let missing = usize::try_from(to_save - saved).unwrap_or(usize::MAX);
        // About four characters per estimated token: a rough cut, measured again by `saved`.
        let keep = chars
            .saturating_sub(missing.saturating_mul(4))
            .max(MIN_KEPT_CHARS);
        if keep + CUT_NOTE.len() < chars {
            let head: String = text.chars().take(keep).collect();
            d.replace(i, format!("{head}\n{CUT_NOTE}"));
        }
    }

    TrimPlan {
        saved: d.saved(),
        replaced: d.replaced,
        steps: d.steps,
        front: d.front,
    }
}

/// Applies `plan` to `conversation` (recorded in its ledger like any rewrite); returns how many messages were
/// dropped and how many results shortened.
pub fn apply(conversation: &mut Conversation, plan: &TrimPlan) -> (usize, usize) {
    let shortened = plan
        .replaced
        .iter()
        .filter(|(i, text)| conversation.replace_tool_output(*i, text.clone()))
        .count();
    let mut dropped = 0;
    // The later range first, so the earlier one's indices still hold.
    if let Some(steps) = plan.steps.clone()
        && conversation
            .rewrite(steps.clone(), TrimPlan::steps_replacement())
            .is_ok()
    {
        dropped += steps.len();
    }
    if let Some(front) = plan.front.clone() {
        let mut replacement = TrimPlan::front_replacement();
        // Two assistant messages in a row confuse some chat templates.
        let next = conversation.messages().get(front.end);
        if next.is_some_and(|m| m.role == Role::Assistant) {
            replacement.truncate(1);
        }
        if conversation.rewrite(front.clone(), replacement).is_ok() {
            dropped += front.len();
        }
    }
    (dropped, shortened)
}

/// The placeholder for the tool result at `index`.
fn stub_text(messages: &[Message], index: usize) -> String {
    let m = &messages[index];
    let text = m.text();
    let tool = m
        .tool_call_id
        .as_deref()
        .and_then(|id| {
            messages[..index]
                .iter()
                .rev()
                .flat_map(|m| m.tool_calls.iter())
                .find(|c| c.id == id)
        })
        .map_or("unknown", |c| c.name.as_str());
    placeholder(
        tool,
        text.chars().count(),
        super::clear::spill_path(&text).as_deref(),
    )
}

#[cfg(test)]
mod tests;
