//! What a front-end changes between inputs without a person at a terminal (the headless protocol's
//! `initialize`, `set_model` and `get_context_usage`): the system prompt, the model, and how full the context is.
//! Each waits for a running input to end.

use std::sync::Arc;

use super::Session;
use crate::config::{ConfigError, resolve_provider};
use crate::llm::LlmError;
use crate::llm::client::{ClientOptions, OpenAiClient};

/// Why the model could not be switched.
#[derive(Debug, thiserror::Error)]
pub enum SwitchModelError {
    #[error(transparent)]
    Provider(#[from] ConfigError),
    #[error(transparent)]
    Client(#[from] LlmError),
}

/// How full the context is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextUsage {
    /// Tokens of the next request (estimated or provider-counted).
    pub tokens: u64,
    /// The model's context window.
    pub window: u64,
}

impl Session {
    /// The system prompt the model receives now.
    pub async fn system_prompt(&self) -> String {
        self.agent.lock().await.conversation().system().text()
    }

    /// Sends `text` as the system prompt from the next request on.
    pub async fn set_system_prompt(&self, text: String) {
        self.agent.lock().await.set_system_prompt(text);
    }

    /// Adds the caller's agent definitions (the headless protocol's `--agents`, `initialize`'s `agents`), which
    /// the model may delegate to from the next request on.
    pub async fn add_agents(&self, defs: Vec<crate::agents::AgentDef>) {
        self.agent.lock().await.add_agents(defs);
    }

    /// Switches the session's model (same provider and endpoint, the window derived as at start-up).
    pub async fn switch_model(&self, model: &str) -> Result<(), SwitchModelError> {
        let mut llm = self.config.llm.clone();
        llm.model = Some(model.to_string());
        let resolved = resolve_provider(&llm, &self.config.env)?;
        let window = self.config.context_window(&resolved);
        let client = OpenAiClient::new(resolved.clone(), ClientOptions::from_settings(&llm))?;
        let mut agent = self.agent.lock().await;
        agent.set_model(Arc::new(client), window);
        agent.set_vision(resolved.vision);
        agent.set_image_limits(resolved.image_limits);
        agent.conversation().note_model(model);
        Ok(())
    }

    /// How full the context is now.
    pub async fn context_usage(&self) -> ContextUsage {
        let agent = self.agent.lock().await;
        ContextUsage {
            tokens: agent.context_tokens(),
            window: agent.context_window(),
        }
    }
}
