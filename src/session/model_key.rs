//! Which model a response's tokens count under: the model's name, and its provider when that is not the
//! session's (a sub-agent on a provider of its own), so `/cost` prices each from its own provider's list.

use serde::{Deserialize, Serialize};

/// A model of the session, as `/cost`, the ledger and the headless `modelUsage` tell them apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ModelKey {
    /// The provider id, when it is not the session's; empty for the session's own provider.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub provider: String,
    pub model: String,
}

impl ModelKey {
    /// A model of the session's own provider.
    pub fn of_session(model: &str) -> Self {
        ModelKey {
            provider: String::new(),
            model: model.to_string(),
        }
    }

    /// The name people read: `model`, or `provider/model` for another provider's.
    pub fn label(&self) -> String {
        if self.provider.is_empty() {
            self.model.clone()
        } else {
            format!("{}/{}", self.provider, self.model)
        }
    }

    /// The provider whose prices apply: its own, else the session's `session_provider`.
    pub fn provider_or<'a>(&'a self, session_provider: &'a str) -> &'a str {
        if self.provider.is_empty() {
            session_provider
        } else {
            &self.provider
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_providers_model_is_named_and_priced_with_its_provider() {
        let own = ModelKey::of_session("deepseek-chat");
        assert_eq!(own.label(), "deepseek-chat");
        assert_eq!(own.provider_or("deepseek"), "deepseek");
        let other = ModelKey {
            provider: "kimi".into(),
            model: "kimi-k2.6".into(),
        };
        assert_eq!(other.label(), "kimi/kimi-k2.6");
        assert_eq!(other.provider_or("deepseek"), "kimi");
    }
}
