//! Where sub-agents' models come from: the providers the user configured. A definition's provider is used only
//! when its own key (or, for a local engine, its own URL) is set in the user's environment or `.env` files outside
//! the project; the `PAICLI_*` overrides and `[llm]` file values are the lead's alone, so no provider is ever sent
//! another's key. Another model of the lead's provider goes to the lead's endpoint with the lead's key.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::agent::delegation::{ModelRefused, ModelSource, PickedModel};
use crate::agents::{AgentDef, ModelChoice};
use crate::config::providers::{self, ProviderInfo, ResolvedProvider};
use crate::config::{EnvVars, LlmSettings, resolve_provider};
use crate::llm::LlmClient;
use crate::llm::client::{ClientOptions, OpenAiClient};

/// A client of a definition's own, and its provider when that is not the lead's.
type OwnClient = (Arc<dyn LlmClient>, Option<String>);

/// The clients of the user's configured providers, made on first use and kept.
pub struct ConfiguredModels {
    lead: ResolvedProvider,
    llm: LlmSettings,
    env: EnvVars,
    /// Each client by (provider, model), with its provider when that is not the lead's.
    clients: Mutex<HashMap<(String, String), OwnClient>>,
}

impl ConfiguredModels {
    /// Models for a session whose lead talks to `lead`, with the transport settings `llm` and the environment
    /// `env`.
    pub fn new(lead: ResolvedProvider, llm: &LlmSettings, env: &EnvVars) -> Self {
        ConfiguredModels {
            lead,
            llm: llm.clone(),
            env: env.clone(),
            clients: Mutex::default(),
        }
    }

    /// Whether the user set `info`'s own key (or its own URL, for a provider that needs no key), outside the
    /// project's files.
    fn configured(&self, info: &ProviderInfo) -> bool {
        let users = |var: &str| self.env.get(var).is_some() && !self.env.from_project(var);
        let url_var = format!("{}_BASE_URL", info.env_prefix);
        if self.env.get(&url_var).is_some() && self.env.from_project(&url_var) {
            return false;
        }
        if info.needs_key {
            info.key_envs.iter().any(|k| users(k))
        } else {
            users(&url_var) || users(&format!("{}_MODEL", info.env_prefix))
        }
    }

    fn resolve(
        &self,
        def: &AgentDef,
        provider: &str,
        model: &str,
    ) -> Result<ResolvedProvider, ModelRefused> {
        let refused = |reason: String| ModelRefused::Unusable {
            agent: def.name.clone(),
            reason,
        };
        let Some(info) = providers::lookup(provider) else {
            return Err(ModelRefused::UnknownProvider {
                agent: def.name.clone(),
                provider: provider.to_string(),
            });
        };
        if info.id == self.lead.id {
            let model = if model.is_empty() {
                &self.lead.model
            } else {
                model
            };
            let mut same = ResolvedProvider::new(
                info,
                model,
                Some(&self.lead.base_url),
                self.lead.api_key.clone(),
            );
            same.key_source.clone_from(&self.lead.key_source);
            same.headers.clone_from(&self.lead.headers);
            return Ok(same);
        }
        if !self.configured(info) {
            return Err(ModelRefused::NotConfigured {
                agent: def.name.clone(),
                provider: info.id.to_string(),
            });
        }
        let settings = LlmSettings {
            provider: Some(info.id.to_string()),
            model: (!model.is_empty()).then(|| model.to_string()),
            ..LlmSettings::default()
        };
        resolve_provider(&settings, &self.env).map_err(|e| refused(e.to_string()))
    }
}

impl ModelSource for ConfiguredModels {
    fn pick(&self, def: &AgentDef) -> Result<PickedModel, ModelRefused> {
        let (provider, model) = match &def.model {
            ModelChoice::Inherit => return Ok(PickedModel::Lead),
            // No provider in the table serves Claude models.
            ModelChoice::ClaudeAlias(alias) => return Ok(PickedModel::LeadForAlias(alias.clone())),
            ModelChoice::Named { provider, model } => (
                provider.clone().unwrap_or_else(|| self.lead.id.clone()),
                model.clone(),
            ),
        };
        let key = (provider.clone(), model.clone());
        let mut clients = match self.clients.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((client, provider)) = clients.get(&key) {
            return Ok(PickedModel::Own {
                client: Arc::clone(client),
                provider: provider.clone(),
            });
        }
        let resolved = self.resolve(def, &provider, &model)?;
        let other = (resolved.id != self.lead.id).then(|| resolved.id.clone());
        let client =
            OpenAiClient::new(resolved, ClientOptions::from_settings(&self.llm)).map_err(|e| {
                ModelRefused::Unusable {
                    agent: def.name.clone(),
                    reason: e.to_string(),
                }
            })?;
        let client: Arc<dyn LlmClient> = Arc::new(client);
        clients.insert(key, (Arc::clone(&client), other.clone()));
        Ok(PickedModel::Own {
            client,
            provider: other,
        })
    }
}
