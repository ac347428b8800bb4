//! The embeddings client: an OpenAI-compatible `POST /embeddings` (Ollama's `/v1/embeddings` with
//! `nomic-embed-text`, as PaiCLI uses, or any other server), on the shared TLS setup.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

/// Texts sent per request.
pub const BATCH: usize = 32;
/// Longest text sent, in chars: embedding models read a few thousand tokens at most.
const MAX_TEXT_CHARS: usize = 6000;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why embeddings could not be had; search falls back to keywords.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("cannot reach the embedding server {url}: {source}")]
    Request { url: String, source: reqwest::Error },
    #[error("the embedding server {url} answered {status}: {body}")]
    Status {
        url: String,
        status: u16,
        body: String,
    },
    #[error("the embedding server {url} sent an answer that is not an embeddings list: {reason}")]
    Invalid { url: String, reason: String },
}

/// Where embeddings come from.
#[derive(Clone, Debug)]
pub struct Embedder {
    client: reqwest::Client,
    url: String,
    model: String,
    api_key: Option<String>,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    embedding: Vec<f32>,
    #[serde(default)]
    index: Option<usize>,
}

impl Embedder {
    /// A client for `url` (the `/embeddings` URL, or a base URL it is appended to) and `model`.
    pub fn new(url: &str, model: &str, api_key: Option<String>) -> Embedder {
        let url = url.trim_end_matches('/');
        let url = if url.ends_with("/embeddings") {
            url.to_string()
        } else {
            format!("{url}/embeddings")
        };
        let client = crate::llm::client::tls::client_builder(false)
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(REQUEST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Embedder {
            client,
            url,
            model: model.to_string(),
            api_key,
        }
    }

    /// The model name, stored with the vectors.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// One vector per text, in order.
    pub async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let input: Vec<String> = texts
            .iter()
            .map(|t| t.chars().take(MAX_TEXT_CHARS).collect())
            .collect();
        let mut request = self
            .client
            .post(&self.url)
            .json(&json!({"model": self.model, "input": input}));
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let url = || self.url.clone();
        let response = request
            .send()
            .await
            .map_err(|source| EmbedError::Request { url: url(), source })?;
        let status = response.status();
        if !status.is_success() {
            let body: String = response
                .text()
                .await
                .unwrap_or_default()
                .chars()
                .take(300)
                .collect();
            return Err(EmbedError::Status {
                url: url(),
                status: status.as_u16(),
                body,
            });
        }
        let parsed: Response = response.json().await.map_err(|e| EmbedError::Invalid {
            url: url(),
            reason: e.to_string(),
        })?;
        if parsed.data.len() != texts.len() {
            return Err(EmbedError::Invalid {
                url: url(),
                reason: format!("{} vectors for {} texts", parsed.data.len(), texts.len()),
            });
        }
        let mut items = parsed.data;
        if items.iter().all(|i| i.index.is_some()) {
            items.sort_by_key(|i| i.index);
        }
        let vectors: Vec<Vec<f32>> = items.into_iter().map(|i| i.embedding).collect();
        if vectors.iter().any(Vec::is_empty) {
            return Err(EmbedError::Invalid {
                url: url(),
                reason: "an empty vector".to_string(),
            });
        }
        Ok(vectors)
    }
}
