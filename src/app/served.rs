//! Asks a local engine (or custom endpoint) at start which model it serves and how large its window is, so no
//! request names a made-up model and compaction plans for the real context.

use crate::config::{Config, ServedWindow, resolve_endpoint};
use crate::llm::LlmError;
use crate::llm::providers::ResolvedProvider;
use crate::llm::served::{self, DISCOVERY_TIMEOUT, ListedModel};

use super::SetupError;

/// Why the served model could not be chosen.
#[derive(Debug, thiserror::Error)]
pub enum ServedModelError {
    #[error("provider {provider} serves several models; pick one with --model (or PAICLI_MODEL): {}", models.join(", "))]
    Several {
        provider: String,
        models: Vec<String>,
    },
    #[error("provider {provider} lists no model at {url}; pass --model or set PAICLI_MODEL")]
    NoneListed { provider: String, url: String },
    #[error(
        "no model set for provider {provider}, and asking {url} which one it serves failed ({error}); pass --model or set PAICLI_MODEL"
    )]
    Unreachable {
        provider: String,
        url: String,
        error: LlmError,
    },
}

/// Fills `config.llm.served` from the provider's server when it picks the model itself: the only model it lists
/// when none is configured, and the window it reports unless `[llm] context_window` is set. Hosted providers are
/// not asked. A server that cannot be reached leaves the old behaviour (the table's default model, if any, and
/// the table's window). Waits for both answers; a front-end whose first request should not wait for the window
/// uses [`discover_served_model`].
pub async fn discover_served(config: &mut Config) -> Result<(), SetupError> {
    if let Some(lookup) = discover_served_model(config).await? {
        lookup.wait_into(config).await;
    }
    Ok(())
}

/// The model part of [`discover_served`] now (the server is asked only when no model is named), and the window
/// look-up started in the background: its answer is for the agent to use from its next decision on
/// ([`WindowLookup::into_receiver`]), so the first request does not wait for it.
pub async fn discover_served_model(
    config: &mut Config,
) -> Result<Option<WindowLookup>, SetupError> {
    let (provider, model_configured) = resolve_endpoint(&config.llm, &config.env)?;
    if !provider.serves_own_models {
        return Ok(None);
    }
    let need_window = config.llm.context_window.is_none();
    if model_configured && !need_window {
        return Ok(None);
    }
    let mut model = provider.model.clone();
    // `Some` once the list was asked for, whatever the answer: the window look-up does not ask again.
    let mut listed: Option<Option<Vec<ListedModel>>> = None;
    if !model_configured {
        let default = (!model.is_empty()).then_some(model.as_str());
        let url = provider.models_url();
        let id = provider.id.clone();
        let answer = served::list_served(&provider, DISCOVERY_TIMEOUT).await;
        listed = Some(None);
        match answer {
            Ok(models) => {
                match choose_model(&models, default) {
                    Choice::Served(served) => {
                        config.llm.served.model = Some(served.clone());
                        model = served;
                    }
                    Choice::TableDefault => {}
                    Choice::Several(models) => {
                        return Err(ServedModelError::Several {
                            provider: id,
                            models,
                        }
                        .into());
                    }
                    Choice::NoneListed => {
                        return Err(ServedModelError::NoneListed { provider: id, url }.into());
                    }
                }
                listed = Some(Some(models));
            }
            Err(error) if default.is_none() => {
                return Err(ServedModelError::Unreachable {
                    provider: id,
                    url,
                    error,
                }
                .into());
            }
            Err(e) => tracing::warn!("could not list the served models: {e}"),
        }
    }
    if !need_window {
        return Ok(None);
    }
    Ok(Some(WindowLookup::start(provider, model, listed)))
}

/// The served window being asked for in the background (llama.cpp `/props`, vLLM's list, Ollama, LM Studio).
pub struct WindowLookup {
    answer: tokio::task::JoinHandle<Option<ServedWindow>>,
}

impl WindowLookup {
    /// Starts asking `provider` for `model`'s window; `listed` is the model list when it was already asked for
    /// (vLLM gives the window in it). Must be called inside the Tokio runtime.
    fn start(
        provider: ResolvedProvider,
        model: String,
        listed: Option<Option<Vec<ListedModel>>>,
    ) -> WindowLookup {
        let answer = tokio::spawn(async move {
            // vLLM (and an unknown engine that may be vLLM) gives its window in the model list.
            let models = match listed {
                Some(models) => models,
                None if matches!(provider.id.as_str(), "vllm" | "custom") => {
                    served::list_served(&provider, DISCOVERY_TIMEOUT).await.ok()
                }
                None => None,
            };
            let window =
                served::engine_window(&provider, &model, models.as_deref(), DISCOVERY_TIMEOUT)
                    .await;
            tracing::debug!("served window of {model}: {window:?}");
            window
        });
        WindowLookup { answer }
    }

    /// Waits for the answer and records it in `config` (a failed look-up leaves the table's window).
    pub async fn wait_into(self, config: &mut Config) {
        config.llm.served.window = self.answer.await.ok().flatten();
    }

    /// The window in tokens once the server answered, for `Agent::learn_window`; closed without a value when it
    /// did not.
    pub fn into_receiver(self) -> tokio::sync::oneshot::Receiver<u64> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            if let Ok(Some(window)) = self.answer.await {
                // Nobody listening any more (the session ended) is fine.
                let _ = tx.send(window.tokens);
            }
        });
        rx
    }
}

enum Choice {
    Served(String),
    TableDefault,
    Several(Vec<String>),
    NoneListed,
}

/// The model to use when none is configured: the only one listed; with several, the table's default if it is
/// among them.
fn choose_model(models: &[ListedModel], default: Option<&str>) -> Choice {
    match models {
        [only] => Choice::Served(only.id.clone()),
        [] if default.is_some() => Choice::TableDefault,
        [] => Choice::NoneListed,
        several => match default {
            // Ollama lists `name:latest` for a model pulled without a tag.
            Some(d)
                if several
                    .iter()
                    .any(|m| m.id == d || m.id == format!("{d}:latest")) =>
            {
                Choice::TableDefault
            }
            _ => Choice::Several(several.iter().map(|m| m.id.clone()).collect()),
        },
    }
}
