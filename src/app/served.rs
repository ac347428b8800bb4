//! Asks a local engine (or custom endpoint) at start which model it serves and how large its window is, so no
//! request names a made-up model and compaction plans for the real context.

use crate::config::{Config, resolve_endpoint};
use crate::llm::LlmError;
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
/// the table's window).
pub async fn discover_served(config: &mut Config) -> Result<(), SetupError> {
    let (provider, model_configured) = resolve_endpoint(&config.llm, &config.env)?;
    if !provider.serves_own_models {
        return Ok(());
    }
    let need_window = config.llm.context_window.is_none();
    // vLLM (and an unknown engine that may be vLLM) gives its window in the model list.
    let list_has_window = matches!(provider.id.as_str(), "vllm" | "custom");
    if model_configured && !need_window {
        return Ok(());
    }
    let listed = if !model_configured || list_has_window {
        Some(served::list_served(&provider, DISCOVERY_TIMEOUT).await)
    } else {
        None
    };
    let (models, list_error) = match listed {
        Some(Ok(models)) => (Some(models), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    let mut model = provider.model.clone();
    if !model_configured {
        let default = (!model.is_empty()).then_some(model.as_str());
        let url = provider.models_url();
        let id = provider.id.clone();
        match (models.as_deref(), list_error) {
            (Some(models), _) => match choose_model(models, default) {
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
            },
            (None, Some(error)) if default.is_none() => {
                return Err(ServedModelError::Unreachable {
                    provider: id,
                    url,
                    error,
                }
                .into());
            }
            (None, error) => {
                if let Some(e) = error {
                    tracing::warn!("could not list the served models: {e}");
                }
            }
        }
    }
    if need_window {
        let window =
            served::engine_window(&provider, &model, models.as_deref(), DISCOVERY_TIMEOUT).await;
        tracing::debug!("served window of {model}: {window:?}");
        config.llm.served.window = window;
    }
    Ok(())
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
