//! What a local engine says it serves: the models it lists (`GET /v1/models`) and its real context window
//! (llama.cpp `/props` `n_ctx`, vLLM `max_model_len`, Ollama `/api/show`, LM Studio `/api/v0/models`).
//!
//! Asked once at start, only for providers whose server picks the model (local engines, custom endpoints), with a
//! short timeout: a hosted provider's start pays nothing, and a server that does not answer leaves the table's
//! values.

use std::time::Duration;

use serde_json::{Value, json};

use super::LlmError;
use super::models::{MAX_MODELS, fetch_json};
use super::providers::ResolvedProvider;
use crate::config::ServedWindow;

/// How long each discovery request may take; a local server answers in milliseconds.
pub const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(3);

/// One model of a server's list, with the window the list gives for it (vLLM's `max_model_len`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedModel {
    pub id: String,
    pub window: Option<u64>,
}

/// The server's model list (`GET {base}/models`), in the server's order.
pub async fn list_served(
    provider: &ResolvedProvider,
    timeout: Duration,
) -> Result<Vec<ListedModel>, LlmError> {
    let json = fetch_json(provider, &provider.models_url(), None, timeout).await?;
    parse_listed(&json)
        .ok_or_else(|| LlmError::InvalidResponse("no model list in the response".into()))
}

/// Entries of `{data:[{id, max_model_len?}]}` (or Ollama's `{models:[{name}]}`), empty ids dropped.
pub fn parse_listed(json: &Value) -> Option<Vec<ListedModel>> {
    let list = json
        .get("data")
        .or_else(|| json.get("models"))
        .unwrap_or(json)
        .as_array()?;
    let mut models: Vec<ListedModel> = Vec::new();
    for item in list {
        let id = match item {
            Value::String(id) => id.as_str(),
            _ => ["id", "name", "model"]
                .iter()
                .find_map(|k| item.get(*k).and_then(Value::as_str))
                .unwrap_or_default(),
        }
        .trim();
        if id.is_empty() || models.iter().any(|m| m.id == id) {
            continue;
        }
        let window = item.get("max_model_len").and_then(Value::as_u64);
        models.push(ListedModel {
            id: id.to_string(),
            window,
        });
    }
    models.truncate(MAX_MODELS);
    Some(models)
}

/// The engine's own report of its context window for `model`, when it gives one. `listed` is the model list if
/// it was fetched already (vLLM's window is in it).
pub async fn engine_window(
    provider: &ResolvedProvider,
    model: &str,
    listed: Option<&[ListedModel]>,
    timeout: Duration,
) -> Option<ServedWindow> {
    let from_list = || {
        listed?
            .iter()
            .find(|m| m.id == model)
            .and_then(|m| m.window)
            .map(|tokens| window(tokens, model, "/v1/models max_model_len"))
    };
    let root = root_url(provider);
    match provider.id.as_str() {
        "llamacpp" => props_window(provider, &root, model, timeout).await,
        "vllm" => from_list(),
        "ollama" => {
            let body = json!({ "model": model });
            let show =
                fetch_json(provider, &format!("{root}/api/show"), Some(&body), timeout).await;
            let tokens = ollama_context(&show.ok()?)?;
            Some(window(tokens, model, "Ollama /api/show"))
        }
        "lmstudio" => {
            let list = fetch_json(provider, &format!("{root}/api/v0/models"), None, timeout).await;
            let tokens = lmstudio_context(&list.ok()?, model)?;
            Some(window(tokens, model, "LM Studio /api/v0/models"))
        }
        // An unknown engine: a llama.cpp server answers `/props`, a vLLM one lists its window.
        _ => match from_list() {
            Some(w) => Some(w),
            None => props_window(provider, &root, model, timeout).await,
        },
    }
}

fn window(tokens: u64, model: &str, source: &'static str) -> ServedWindow {
    ServedWindow {
        tokens,
        model: model.to_string(),
        source,
    }
}

async fn props_window(
    provider: &ResolvedProvider,
    root: &str,
    model: &str,
    timeout: Duration,
) -> Option<ServedWindow> {
    let props = fetch_json(provider, &format!("{root}/props"), None, timeout).await;
    let tokens = llamacpp_context(&props.ok()?)?;
    Some(window(tokens, model, "llama.cpp /props n_ctx"))
}

/// The server's root: the base URL without `/chat/completions` and a trailing `/v1`, where the engines keep
/// their own endpoints.
pub fn root_url(provider: &ResolvedProvider) -> String {
    let base = provider.base_url.trim_end_matches("/chat/completions");
    let base = base.trim_end_matches('/');
    base.strip_suffix("/v1").unwrap_or(base).to_string()
}

/// llama.cpp `/props`: `default_generation_settings.n_ctx` (older servers: a top-level `n_ctx`).
pub fn llamacpp_context(props: &Value) -> Option<u64> {
    props
        .pointer("/default_generation_settings/n_ctx")
        .or_else(|| props.get("n_ctx"))
        .and_then(Value::as_u64)
        .filter(|n| *n > 0)
}

/// Ollama `/api/show`: the `num_ctx` the model runs with, else its architecture's `context_length`.
pub fn ollama_context(show: &Value) -> Option<u64> {
    let num_ctx = show
        .get("parameters")
        .and_then(Value::as_str)
        .and_then(|params| {
            params.lines().find_map(|line| {
                let mut words = line.split_whitespace();
                (words.next() == Some("num_ctx"))
                    .then(|| words.next()?.parse::<u64>().ok())
                    .flatten()
            })
        });
    num_ctx
        .or_else(|| {
            show.get("model_info")?
                .as_object()?
                .iter()
                .find(|(key, _)| key.ends_with(".context_length"))
                .and_then(|(_, v)| v.as_u64())
        })
        .filter(|n| *n > 0)
}

/// LM Studio `/api/v0/models`: the loaded context of `model`, else its maximum.
pub fn lmstudio_context(list: &Value, model: &str) -> Option<u64> {
    let entry = list
        .get("data")?
        .as_array()?
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model))?;
    entry
        .get("loaded_context_length")
        .or_else(|| entry.get("max_context_length"))
        .and_then(Value::as_u64)
        .filter(|n| *n > 0)
}

#[cfg(test)]
mod tests;
