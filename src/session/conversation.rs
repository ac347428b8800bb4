//! [`Conversation`]: the history (system prompt first), where user turns start, and the token meter, kept in step
//! by one type. Every way to change the history keeps each tool call answered by exactly one tool result right
//! after its assistant message; a request built from [`Conversation::messages`] is always well paired.
//!
//! With a [`Ledger`] attached, every change is also appended to the session's ledger as it happens, so callers
//! (compaction, `/rewind`, `/clear`) record nothing themselves.

use std::ops::Range;

use crate::llm::tokens::{ContextEstimate, estimate_message, estimate_request};
use crate::protocol::message::{Content, ContentPart, Message, Role, ToolCall, ToolSpec, Usage};

use super::ledger::{Ledger, Record};
use super::meter::{Calibration, TokenMeter};
use super::tool_calls::{make_ids_unique, recorded_arguments};

/// Why a change to the history was refused; the history is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversationError {
    #[error("there is no turn {turn} (the conversation has {turns})")]
    NoSuchTurn { turn: usize, turns: usize },
    #[error("messages {start}..{end} are not a range of the conversation after the system prompt")]
    BadRange { start: usize, end: usize },
    #[error("the rewrite would leave a tool call without its result or a result without its call")]
    BreaksPairing,
}

/// One conversation with the model. A clone is a copy for looking at or trying things: it has no ledger, so only
/// the original is recorded.
#[derive(Debug)]
pub struct Conversation {
    messages: Vec<Message>,
    /// Indices where user turns start (the recalled-memory message, else the user's message); increasing.
    turn_starts: Vec<usize>,
    meter: TokenMeter,
    /// Estimated tokens of every message ever appended; only grows, also when old messages are dropped.
    grown: u64,
    /// Where changes are recorded; `None` for conversations nobody resumes (tests, sub-agents).
    ledger: Option<Ledger>,
}

impl Clone for Conversation {
    fn clone(&self) -> Self {
        Conversation {
            messages: self.messages.clone(),
            turn_starts: self.turn_starts.clone(),
            meter: self.meter,
            grown: self.grown,
            ledger: None,
        }
    }
}

impl Conversation {
    /// A conversation holding only `system_prompt`.
    pub fn new(system_prompt: impl Into<String>) -> Self {
        Conversation {
            messages: vec![Message::system(system_prompt)],
            turn_starts: Vec::new(),
            meter: TokenMeter::default(),
            grown: 0,
            ledger: None,
        }
    }

    /// Records every later change in `ledger` (whose file already holds the history so far).
    pub fn attach_ledger(&mut self, ledger: Ledger) {
        self.ledger = Some(ledger);
    }

    /// The ledger changes are recorded in, if any.
    pub fn ledger(&self) -> Option<&Ledger> {
        self.ledger.as_ref()
    }

    fn record(&self, record: Record) {
        if let Some(ledger) = &self.ledger {
            ledger.write(&record);
        }
    }

    /// Replaces the system prompt (a resumed session whose project instructions changed).
    pub fn set_system_prompt(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.record(Record::SystemPrompt { text: text.clone() });
        self.messages[0] = Message::system(text);
        self.meter.reset();
    }

    /// Records a model change in the ledger (the history itself does not change).
    pub fn note_model(&self, model: &str) {
        self.record(Record::Model {
            model: model.to_string(),
        });
    }

    /// Records an approval-mode change in the ledger.
    pub fn note_mode(&self, mode: &str) {
        self.record(Record::Mode {
            mode: mode.to_string(),
        });
    }

    /// Records a changed tool list in the ledger.
    pub fn note_tools(&self, tools: &[ToolSpec]) {
        self.record(Record::Tools {
            tools: tools.to_vec(),
        });
    }

    /// The history, system prompt first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The system prompt.
    pub fn system(&self) -> &Message {
        &self.messages[0]
    }

    /// Where each user turn starts in [`Conversation::messages`].
    pub fn turn_starts(&self) -> &[usize] {
        &self.turn_starts
    }

    /// Starts a user turn: the recalled facts (if any), then the user's input.
    pub fn begin_turn(&mut self, recall: Option<String>, input: impl Into<String>) {
        let input = input.into();
        if self.ledger.is_some() {
            self.record(Record::Turn {
                recall: recall.clone(),
                input: input.clone(),
            });
        }
        self.turn_starts.push(self.messages.len());
        if let Some(recall) = recall {
            self.append(Message::user(recall));
        }
        self.append(Message::user(input));
    }

    /// Every new message enters here (after its ledger record), so the growth counter sees it.
    fn append(&mut self, message: Message) {
        self.grown += estimate_message(&message);
        self.messages.push(message);
    }

    fn push_recorded(&mut self, message: Message) {
        if self.ledger.is_some() {
            self.record(Record::Message {
                message: message.clone(),
            });
        }
        self.append(message);
    }

    /// Adds a user message inside the running turn (diagnostics, reminders, instructions).
    pub fn push_user(&mut self, text: impl Into<String>) {
        self.push_recorded(Message::user(text));
    }

    /// Adds a user message made of parts (images a tool returned).
    pub fn push_user_parts(&mut self, parts: Vec<ContentPart>) {
        self.push_recorded(Message {
            content: Content::Parts(parts),
            ..Message::user("")
        });
    }

    /// Adds an assistant answer without tool calls.
    pub fn push_answer(&mut self, text: impl Into<String>) {
        self.push_recorded(Message::assistant(text));
    }

    /// Adds a final answer together with the reasoning behind it (kept for the session, e.g. when the reply held
    /// only reasoning and no answer).
    pub fn push_reasoned_answer(&mut self, text: impl Into<String>, reasoning: String) {
        self.push_recorded(Message::assistant_tool_calls(
            text,
            Some(reasoning),
            Vec::new(),
        ));
    }

    /// Records the assistant message calling `calls` in the ledger before the tools run, so a crash mid-round
    /// keeps the calls (and the results recorded so far through [`Ledger::record_result`]). The history itself
    /// changes only in [`Conversation::push_tool_round`].
    pub fn announce_round(&self, content: &str, reasoning: Option<String>, calls: &[ToolCall]) {
        if let Some(ledger) = &self.ledger
            && !calls.is_empty()
        {
            let calls = recorded_calls(calls.to_vec());
            ledger.announce_round(&Message::assistant_tool_calls(content, reasoning, calls));
        }
    }

    /// Adds an assistant message calling tools together with one result per call, in call order. Ids repeated
    /// within the reply are made unique and arguments that are not a JSON object are recorded as `{}`; each
    /// result answers the call it is paired with.
    pub fn push_tool_round(
        &mut self,
        content: impl Into<String>,
        reasoning: Option<String>,
        round: Vec<(ToolCall, String)>,
    ) {
        let (calls, results): (Vec<ToolCall>, Vec<String>) = round.into_iter().unzip();
        if calls.is_empty() {
            return self.push_answer(content);
        }
        let calls = recorded_calls(calls);
        let answers: Vec<Message> = calls
            .iter()
            .zip(results)
            .map(|(call, text)| Message::tool(call.id.clone(), text))
            .collect();
        let assistant = Message::assistant_tool_calls(content, reasoning, calls);
        if let Some(ledger) = &self.ledger {
            ledger.close_round(&assistant, &answers);
        }
        self.append(assistant);
        for answer in answers {
            self.append(answer);
        }
    }

    /// Forgets everything but the system prompt: turns and the provider's count go too (session usage stays,
    /// it was spent).
    pub fn clear(&mut self) {
        self.record(Record::Clear);
        self.messages.truncate(1);
        self.turn_starts.clear();
        self.meter.reset();
    }

    /// Drops turn `turn` (0-based) and everything after it; returns the dropped messages.
    pub fn rewind_to_turn(&mut self, turn: usize) -> Result<Vec<Message>, ConversationError> {
        let Some(&start) = self.turn_starts.get(turn) else {
            return Err(ConversationError::NoSuchTurn {
                turn,
                turns: self.turn_starts.len(),
            });
        };
        if !is_paired(&self.messages[..start]) {
            return Err(ConversationError::BreaksPairing);
        }
        self.record(Record::Rewind { turn });
        self.turn_starts.truncate(turn);
        self.meter.reset();
        Ok(self.messages.split_off(start))
    }

    /// Replaces the messages in `range` (never the system prompt) with `replacement` (compaction). Turns that
    /// started inside the range are forgotten; later ones move with their messages. Refused, with the history
    /// unchanged, when the result would break the pairing of calls and results.
    pub fn rewrite(
        &mut self,
        range: Range<usize>,
        replacement: Vec<Message>,
    ) -> Result<(), ConversationError> {
        let Range { start, end } = range;
        if start == 0 || start > end || end > self.messages.len() {
            return Err(ConversationError::BadRange { start, end });
        }
        if replacement.iter().any(|m| m.role == Role::System) {
            return Err(ConversationError::BadRange { start, end });
        }
        let added = replacement.len();
        let recorded = self.ledger.is_some().then(|| replacement.clone());
        let mut rebuilt = Vec::with_capacity(self.messages.len() - (end - start) + added);
        rebuilt.extend_from_slice(&self.messages[..start]);
        rebuilt.extend(replacement);
        rebuilt.extend_from_slice(&self.messages[end..]);
        if !is_paired(&rebuilt) {
            return Err(ConversationError::BreaksPairing);
        }
        self.turn_starts = self
            .turn_starts
            .iter()
            .filter(|&&i| i < start || i >= end)
            .map(|&i| if i >= end { i - end + start + added } else { i })
            .collect();
        if let Some(replacement) = recorded {
            self.record(Record::Compaction {
                start,
                end,
                replacement,
            });
        }
        self.messages = rebuilt;
        self.meter.reset();
        Ok(())
    }

    /// Replaces the text of the tool result at `index` (clearing an old result); its call keeps its answer.
    /// Returns false, changing nothing, when `index` is not a tool result.
    pub fn replace_tool_output(&mut self, index: usize, text: String) -> bool {
        match self.messages.get_mut(index) {
            Some(m) if m.role == Role::Tool => {
                if let Some(ledger) = &self.ledger {
                    ledger.write(&Record::ToolOutputCleared {
                        index,
                        text: text.clone(),
                    });
                }
                m.content = Content::Text(text);
                self.meter.reset();
                true
            }
            _ => false,
        }
    }

    /// Records the provider's usage for the request just answered (it carried the whole history and `tools`);
    /// its prompt count calibrates later estimates.
    pub fn record_response(&mut self, usage: Option<Usage>, tools: &[ToolSpec]) {
        let estimated = estimate_request(&self.messages, tools);
        self.meter.record(self.messages.len(), estimated, usage);
    }

    /// The provider said the request with `tools` was longer than `window`: later estimates are raised to match.
    pub fn record_overflow(&mut self, tools: &[ToolSpec], window: u64) {
        let estimated = estimate_request(&self.messages, tools);
        self.meter.record_overflow(estimated, window);
    }

    /// What the next request with `tools` costs as the provider would count it: the larger of
    /// [`Conversation::measure`] and the calibrated estimate. Compaction and the window guarantee decide on it.
    pub fn request_tokens(&self, tools: &[ToolSpec]) -> u64 {
        self.meter.request_tokens(&self.messages, tools)
    }

    /// Provider tokens per estimated token, as learnt from the provider's counts.
    pub fn calibration(&self) -> Calibration {
        self.meter.calibration()
    }

    /// Estimated tokens of every message appended so far (never lowered by compaction): how much the history
    /// has grown since some earlier moment.
    pub fn grown_tokens(&self) -> u64 {
        self.grown
    }

    /// The token meter: session totals and side-request tokens the turn has not counted.
    pub fn meter_mut(&mut self) -> &mut TokenMeter {
        &mut self.meter
    }

    /// Tokens used by the whole session.
    pub fn session_usage(&self) -> Usage {
        self.meter.session()
    }

    /// What the next request with `tools` costs: the provider's count for the last request plus estimates.
    pub fn measure(&self, tools: &[ToolSpec]) -> u64 {
        self.meter.measure(&self.messages, tools)
    }

    /// The estimate of a request with `tools`, by part (what `/context` and the status line show).
    pub fn estimate(&self, tools: &[ToolSpec]) -> ContextEstimate {
        ContextEstimate::of(&self.messages, tools)
    }
}

/// `calls` as the history records them: ids unique within the reply, arguments a JSON object.
fn recorded_calls(mut calls: Vec<ToolCall>) -> Vec<ToolCall> {
    make_ids_unique(&mut calls);
    for call in &mut calls {
        let recorded = recorded_arguments(&call.arguments);
        if recorded != call.arguments {
            call.arguments = recorded.to_string();
        }
    }
    calls
}

/// True when every assistant tool call (ids unique within its message) is answered by exactly one tool message
/// right after it, in call order, and no tool message stands anywhere else.
pub fn is_paired(messages: &[Message]) -> bool {
    let mut i = 0;
    while i < messages.len() {
        let m = &messages[i];
        if m.role == Role::Tool {
            return false;
        }
        i += 1;
        if m.role != Role::Assistant {
            continue;
        }
        for (n, call) in m.tool_calls.iter().enumerate() {
            if m.tool_calls[..n].iter().any(|c| c.id == call.id) {
                return false;
            }
            match messages.get(i) {
                Some(answer)
                    if answer.role == Role::Tool
                        && answer.tool_call_id.as_deref() == Some(call.id.as_str()) =>
                {
                    i += 1;
                }
                _ => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests;
