//! Model discovery: `GET {base}/models` in the OpenAI shape (and the common Ollama-style variants).

use std::time::Duration;

use serde_json::Value;

use super::LlmError;
use super::client::http_error::{error_from_json_body, error_from_status};
use super::client::{bearer, tls};
use super::providers::ResolvedProvider;

/// Most model ids kept from one listing.
pub const MAX_MODELS: usize = 2000;

/// Lists the provider's model ids, sorted and deduplicated, at most [`MAX_MODELS`].
pub async fn list_models(
    provider: &ResolvedProvider,
    timeout: Duration,
) -> Result<Vec<String>, LlmError> {
    let json = fetch_json(provider, &provider.models_url(), None, timeout).await?;
    parse_model_ids(&json)
        .ok_or_else(|| LlmError::InvalidResponse("no model list in the response".into()))
}

/// `GET url` (or `POST` with `body`) with the provider's key and headers; the answer must be JSON and not an
/// error object. Used for the model list and the engines' own info endpoints.
pub async fn fetch_json(
    provider: &ResolvedProvider,
    url: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<Value, LlmError> {
    let http = tls::client_builder(false)
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("paicli/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| LlmError::Config(format!("cannot build the HTTP client: {e}")))?;
    let mut request = match body {
        Some(body) => http.post(url).json(body),
        None => http.get(url),
    }
    .header(reqwest::header::ACCEPT, "application/json");
    if let Some(key) = provider
        .api_key
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
    {
        request = request.header(reqwest::header::AUTHORIZATION, bearer(key)?);
    }
    for (name, value) in &provider.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let response = request.send().await.map_err(|e| {
        if e.is_timeout() {
            LlmError::IdleTimeout(timeout)
        } else if e.is_builder() {
            LlmError::Config(e.to_string())
        } else {
            LlmError::Connect(e.to_string())
        }
    })?;
    let status = response.status().as_u16();
    let body = response.bytes().await.map_err(|e| {
        if e.is_timeout() {
            LlmError::IdleTimeout(timeout)
        } else {
            LlmError::StreamInterrupted(e.to_string())
        }
    })?;
    let text = String::from_utf8_lossy(&body);
    if !(200..300).contains(&status) {
        return Err(error_from_status(status, None, &text));
    }
    let json: Value = serde_json::from_str(text.trim())
        .map_err(|e| LlmError::InvalidResponse(format!("the answer is not JSON: {e}")))?;
    if let Some(error) = error_from_json_body(&json) {
        return Err(error);
    }
    Ok(json)
}

/// Ids from `{data:[{id}]}`, `{models:[{name|id}]}` or a bare array of objects or strings.
pub fn parse_model_ids(json: &Value) -> Option<Vec<String>> {
    let list = json
        .get("data")
        .or_else(|| json.get("models"))
        .unwrap_or(json)
        .as_array()?;
    let mut ids: Vec<String> = list
        .iter()
        .filter_map(|item| match item {
            Value::String(id) => Some(id.as_str()),
            Value::Object(_) => item
                .get("id")
                .or_else(|| item.get("name"))
                .or_else(|| item.get("model"))
                .and_then(Value::as_str),
            _ => None,
        })
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect();
    ids.sort();
    ids.dedup();
    ids.truncate(MAX_MODELS);
    Some(ids)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn openai_shape_is_sorted_and_deduplicated() {
        let list =
            json!({"object": "list", "data": [{"id": "b"}, {"id": "a"}, {"id": "b"}, {"id": " "}]});
        assert_eq!(
            parse_model_ids(&list),
            Some(vec!["a".to_string(), "b".to_string()])
        );
    }

    #[test]
    fn ollama_and_bare_shapes_are_accepted() {
        let ollama = json!({"models": [{"name": "qwen2.5-coder:7b"}, {"model": "llama3"}]});
        assert_eq!(
            parse_model_ids(&ollama),
            Some(vec!["llama3".to_string(), "qwen2.5-coder:7b".to_string()])
        );
        let bare = json!(["x", {"id": "y"}, 3]);
        assert_eq!(
            parse_model_ids(&bare),
            Some(vec!["x".to_string(), "y".to_string()])
        );
        assert_eq!(parse_model_ids(&json!({"data": "nope"})), None);
    }

    #[test]
    fn at_most_two_thousand_ids_are_kept() {
        let data: Vec<Value> = (0..2500)
            .map(|i| json!({"id": format!("m{i:05}")}))
            .collect();
        let ids = parse_model_ids(&json!({ "data": data })).unwrap_or_default();
        assert_eq!(ids.len(), MAX_MODELS);
        assert_eq!(ids.first().map(String::as_str), Some("m00000"));
    }
}
