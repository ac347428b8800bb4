//! Tokens spent per model: the lead and its sub-agents may each run on a different model (and provider), and
//! `/cost` and the headless `modelUsage` report each apart. Each response's usage is also written to the
//! answering agent's ledger (a sub-agent's sidechain), so a resumed session starts from what it spent.

use std::sync::{Arc, Mutex};

use super::Agent;
use crate::llm::Usage;
use crate::session::ModelKey;
use crate::session::ledger::{self, Record};

/// What each model spent; clones share the same tally.
#[derive(Clone, Default)]
pub struct UsageByModel(Arc<Mutex<ledger::UsageByModel>>);

impl UsageByModel {
    fn tally(&self) -> std::sync::MutexGuard<'_, ledger::UsageByModel> {
        match self.0.lock() {
            Ok(t) => t,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Counts `usage` toward `model`.
    pub fn add(&self, model: &ModelKey, usage: &Usage) {
        self.tally().entry(model.clone()).or_default().add(usage);
    }

    /// Every model's usage so far, by key.
    pub fn snapshot(&self) -> Vec<(ModelKey, Usage)> {
        self.tally().iter().map(|(m, u)| (m.clone(), *u)).collect()
    }

    /// Starts again from `spent` (a resumed session's record).
    fn replace(&self, spent: ledger::UsageByModel) {
        *self.tally() = spent;
    }
}

impl Agent {
    /// What each model spent in this session (the lead's and its sub-agents', and before a resume).
    pub fn usage_by_model(&self) -> Vec<(ModelKey, Usage)> {
        self.usage_by_model.snapshot()
    }

    /// The key this agent's responses count under: its model, with its provider when that is its own.
    pub fn model_key(&self) -> ModelKey {
        ModelKey {
            provider: self.own_provider.clone().unwrap_or_default(),
            model: self.model().to_string(),
        }
    }

    /// Counts one response's (or summary's) `usage` toward this agent's model, in the tally and the ledger.
    pub(super) fn count_model_usage(&self, usage: &Usage) {
        let model = self.model_key();
        self.usage_by_model.add(&model, usage);
        if let Some(ledger) = self.ledger() {
            ledger.write(&Record::Usage {
                model,
                usage: *usage,
            });
        }
    }

    /// A resumed session's spending (see [`ledger::recorded_usage`]): the tally per model starts from it, and
    /// so does the session's total.
    pub fn restore_usage(&mut self, spent: ledger::UsageByModel) {
        let mut total = Usage::default();
        for usage in spent.values() {
            total.add(usage);
        }
        self.conversation.meter_mut().restore_session(total);
        self.usage_by_model.replace(spent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_count_into_one_tally_by_model() {
        let tally = UsageByModel::default();
        let fork = tally.clone();
        let lead = ModelKey::of_session("lead");
        let cheap = ModelKey {
            provider: "deepseek".into(),
            model: "cheap".into(),
        };
        tally.add(&lead, &Usage::tokens(10, 1, 0, 0));
        fork.add(&cheap, &Usage::tokens(5, 2, 0, 0));
        fork.add(&lead, &Usage::tokens(1, 1, 0, 0));
        let seen = tally.snapshot();
        assert_eq!(
            seen,
            [
                (lead, Usage::tokens(11, 2, 0, 0)),
                (cheap, Usage::tokens(5, 2, 0, 0)),
            ]
        );
    }
}
