//! Session-level operations the front-ends need: clear the conversation, switch the model, record it in a ledger
//! and resume one.

use std::sync::Arc;

use super::compaction::Thresholds;
use super::{Agent, usable_window};
use crate::llm::{LlmClient, Message};
use crate::session::Conversation;
use crate::session::ConversationError;
use crate::session::ledger::Ledger;

impl Agent {
    /// Forgets the conversation (keeps the system prompt): turns, the provider's token count and queued
    /// diagnostics go with it. Session token totals are kept: they were spent.
    pub fn clear_history(&mut self) {
        self.conversation.clear();
        self.pending_diagnostics.clear();
        self.unchecked_files.clear();
        self.summary_backoff.reset();
    }

    /// Sends later requests through `client` (another provider or model) whose context window is
    /// `context_window`; the compaction thresholds follow the new window. The conversation is kept.
    pub fn set_model(&mut self, client: Arc<dyn LlmClient>, context_window: u64) {
        self.client = client;
        // A window still being asked for was the old model's.
        self.pending_window = None;
        self.set_window(context_window);
        self.conversation.note_model(self.client.model());
        // A failed summary under the old model says nothing about the new one.
        self.summary_backoff.reset();
    }

    /// The model's context window arrives on `window` (the server is still being asked when the first request
    /// goes out); the thresholds follow it from the first decision after it arrives.
    pub fn learn_window(&mut self, window: tokio::sync::oneshot::Receiver<u64>) {
        self.pending_window = Some(window);
    }

    /// Takes the window [`Agent::learn_window`] waits for, if it has arrived.
    pub(crate) fn take_learned_window(&mut self) {
        let Some(pending) = &mut self.pending_window else {
            return;
        };
        match pending.try_recv() {
            Ok(window) => {
                self.pending_window = None;
                self.set_window(window);
            }
            Err(tokio::sync::oneshot::error::TryRecvError::Empty) => {}
            Err(tokio::sync::oneshot::error::TryRecvError::Closed) => self.pending_window = None,
        }
    }

    fn set_window(&mut self, context_window: u64) {
        self.options.context_window = context_window;
        self.thresholds = Thresholds::for_window(usable_window(context_window));
    }

    /// Drops user turn `turn` (0-based) and everything after it (`/rewind`), keeping every call paired with
    /// its result; returns the dropped messages.
    pub fn rewind_to_turn(&mut self, turn: usize) -> Result<Vec<Message>, ConversationError> {
        let dropped = self.conversation.rewind_to_turn(turn)?;
        self.pending_diagnostics.clear();
        self.unchecked_files.clear();
        self.summary_backoff.reset();
        Ok(dropped)
    }

    /// The system prompt (the first message).
    pub fn system_message(&self) -> Option<&Message> {
        Some(self.conversation.system())
    }

    /// Records every later change of the conversation in `ledger`.
    pub fn attach_ledger(&mut self, ledger: Ledger) {
        self.conversation.attach_ledger(ledger);
    }

    /// The ledger the conversation is recorded in, if any.
    pub fn ledger(&self) -> Option<&Ledger> {
        self.conversation.ledger()
    }

    /// Continues `conversation` (a loaded session) instead of the current one; queued diagnostics are dropped.
    pub fn resume_conversation(&mut self, conversation: Conversation) {
        self.conversation = conversation;
        self.pending_diagnostics.clear();
        self.unchecked_files.clear();
        self.summary_backoff.reset();
    }

    /// Sends `text` as the system prompt from now on (recorded in the ledger).
    pub fn set_system_prompt(&mut self, text: String) {
        self.conversation.set_system_prompt(text);
    }
}
