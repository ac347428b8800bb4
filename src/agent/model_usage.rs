//! Tokens spent per model: the lead and its sub-agents may each run on a different model (and provider), and
//! `/cost` and the headless `modelUsage` report each apart.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::Agent;
use crate::llm::Usage;

/// What each model spent, by the model's name; clones share the same tally.
#[derive(Clone, Default)]
pub struct UsageByModel(Arc<Mutex<BTreeMap<String, Usage>>>);

impl UsageByModel {
    /// Counts `usage` toward `model`.
    pub fn add(&self, model: &str, usage: &Usage) {
        let mut tally = match self.0.lock() {
            Ok(t) => t,
            Err(poisoned) => poisoned.into_inner(),
        };
        tally.entry(model.to_string()).or_default().add(usage);
    }

    /// Every model's usage so far, by name.
    pub fn snapshot(&self) -> Vec<(String, Usage)> {
        let tally = match self.0.lock() {
            Ok(t) => t,
            Err(poisoned) => poisoned.into_inner(),
        };
        tally.iter().map(|(m, u)| (m.clone(), *u)).collect()
    }
}

impl Agent {
    /// What each model spent in this process (the lead's and its sub-agents').
    pub fn usage_by_model(&self) -> Vec<(String, Usage)> {
        self.usage_by_model.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_count_into_one_tally_by_model() {
        let tally = UsageByModel::default();
        let fork = tally.clone();
        tally.add("lead", &Usage::tokens(10, 1, 0, 0));
        fork.add("cheap", &Usage::tokens(5, 2, 0, 0));
        fork.add("lead", &Usage::tokens(1, 1, 0, 0));
        let seen = tally.snapshot();
        assert_eq!(
            seen,
            [
                ("cheap".to_string(), Usage::tokens(5, 2, 0, 0)),
                ("lead".to_string(), Usage::tokens(11, 2, 0, 0)),
            ]
        );
    }
}
