//! The agents the caller gives (`--agents`, `initialize`'s `agents`, Claude's shape): added to the session's as
//! its highest layer before the next turn, and listed, with the session's own, in `initialize`'s answer and each
//! `system`/`init` message.

use std::sync::Mutex;

use serde_json::{Value, json};

use super::channel::lock;
use crate::agents::{AgentCatalog, AgentDef, ModelChoice};

/// The agents the session knows, as the client is told, and the caller's not yet added to the session.
pub struct CallerAgents {
    state: Mutex<State>,
}

struct State {
    known: AgentCatalog,
    pending: Vec<AgentDef>,
}

impl CallerAgents {
    /// Starts from the session's agents (those of `--agents` already among them).
    pub fn new(known: AgentCatalog) -> Self {
        CallerAgents {
            state: Mutex::new(State {
                known,
                pending: Vec::new(),
            }),
        }
    }

    /// Adds `defs` from the next turn on; they are listed at once.
    pub fn add(&self, defs: Vec<AgentDef>) {
        let mut state = lock(&self.state);
        state.known.add(defs.iter().cloned());
        state.pending.extend(defs);
    }

    /// The definitions not yet added to the session.
    pub fn take_pending(&self) -> Vec<AgentDef> {
        std::mem::take(&mut lock(&self.state).pending)
    }

    /// `initialize`'s `agents`: name, description and the model when the definition names one.
    pub fn infos(&self) -> Vec<Value> {
        lock(&self.state)
            .known
            .agents
            .iter()
            .map(|a| match model_name(&a.model) {
                Some(model) => {
                    json!({"name": a.name, "description": a.description, "model": model})
                }
                None => json!({"name": a.name, "description": a.description}),
            })
            .collect()
    }

    /// `system`/`init`'s `agents`: the names.
    pub fn names(&self) -> Vec<String> {
        lock(&self.state)
            .known
            .agents
            .iter()
            .map(|a| a.name.clone())
            .collect()
    }
}

fn model_name(model: &ModelChoice) -> Option<String> {
    match model {
        ModelChoice::Inherit => Some("inherit".to_string()),
        ModelChoice::ClaudeAlias(alias) => Some(alias.clone()),
        ModelChoice::Named {
            provider: Some(p),
            model,
        } => Some(format!("{p}/{model}")),
        ModelChoice::Named {
            provider: None,
            model,
        } => Some(model.clone()),
    }
}
