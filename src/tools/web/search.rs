//! Search providers for `web_search`: Zhipu, SerpAPI, SearXNG, Tavily and Brave, each one HTTP call and a JSON
//! shape to read hits from.

use std::time::Duration;

use serde_json::{Value, json};

use crate::config::{SearchProviderKind, WebSettings};
use crate::llm::client::tls;

/// One search result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchHit {
    pub title: String,
    pub snippet: String,
    pub url: String,
}

/// A configured provider: which one, where, and its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchProvider {
    pub kind: SearchProviderKind,
    base_url: String,
    key: String,
    /// Zhipu's engine (`search_std`, `search_pro`, ...).
    engine: String,
}

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(
        "no web search provider is configured: set GLM_API_KEY (Zhipu), SERPAPI_KEY, SEARXNG_URL, \
         TAVILY_API_KEY or BRAVE_API_KEY, or choose one with [web] search_provider"
    )]
    NotConfigured,
    #[error("web search provider {provider} needs {variable}")]
    MissingKey {
        provider: &'static str,
        variable: &'static str,
    },
    #[error("{provider} search failed: {message}")]
    Http {
        provider: &'static str,
        message: String,
    },
    #[error("{provider} answered HTTP {status}: {body}")]
    Status {
        provider: &'static str,
        status: u16,
        body: String,
    },
    #[error("{provider} answered with JSON that has no results list: {message}")]
    Shape {
        provider: &'static str,
        message: String,
    },
}

/// The auto-detection order of spec §6.5, then the extra providers.
const AUTO_ORDER: [SearchProviderKind; 5] = [
    SearchProviderKind::Zhipu,
    SearchProviderKind::Serpapi,
    SearchProviderKind::Searxng,
    SearchProviderKind::Tavily,
    SearchProviderKind::Brave,
];

/// The provider named by the settings, or the first one with a key.
pub fn choose_provider(settings: &WebSettings) -> Result<SearchProvider, SearchError> {
    match settings.search_provider {
        Some(kind) => provider_for(kind, settings),
        None => AUTO_ORDER
            .iter()
            .find_map(|kind| provider_for(*kind, settings).ok())
            .ok_or(SearchError::NotConfigured),
    }
}

fn provider_for(kind: SearchProviderKind, s: &WebSettings) -> Result<SearchProvider, SearchError> {
    let (key, base_url, variable) = match kind {
        SearchProviderKind::Zhipu => (
            s.glm_api_key.clone(),
            s.zhipu_base_url.clone(),
            "GLM_API_KEY",
        ),
        SearchProviderKind::Serpapi => (
            s.serpapi_key.clone(),
            s.serpapi_base_url.clone(),
            "SERPAPI_KEY",
        ),
        SearchProviderKind::Searxng => (
            s.searxng_url.as_ref().map(|_| String::new()),
            s.searxng_url.clone().unwrap_or_default(),
            "SEARXNG_URL",
        ),
        SearchProviderKind::Tavily => (
            s.tavily_api_key.clone(),
            s.tavily_base_url.clone(),
            "TAVILY_API_KEY",
        ),
        SearchProviderKind::Brave => (
            s.brave_api_key.clone(),
            s.brave_base_url.clone(),
            "BRAVE_API_KEY",
        ),
    };
    let key = key.ok_or(SearchError::MissingKey {
        provider: name_of(kind),
        variable,
    })?;
    Ok(SearchProvider {
        kind,
        base_url: base_url.trim_end_matches('/').to_string(),
        key,
        engine: s.zhipu_search_engine.clone(),
    })
}

/// The provider's display name.
pub fn name_of(kind: SearchProviderKind) -> &'static str {
    match kind {
        SearchProviderKind::Zhipu => "zhipu",
        SearchProviderKind::Serpapi => "serpapi",
        SearchProviderKind::Searxng => "searxng",
        SearchProviderKind::Tavily => "tavily",
        SearchProviderKind::Brave => "brave",
    }
}

impl SearchProvider {
    /// Runs `query` and returns at most `top_k` hits.
    pub async fn search(&self, query: &str, top_k: usize) -> Result<Vec<SearchHit>, SearchError> {
        let provider = name_of(self.kind);
        let http_err = |e: reqwest::Error| SearchError::Http {
            provider,
            message: e.to_string(),
        };
        let client = tls::client_builder(false)
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(http_err)?;
        let count = top_k.to_string();
        let request = match self.kind {
            SearchProviderKind::Zhipu => client
                .post(format!("{}/api/paas/v4/tools/web_search", self.base_url))
                .bearer_auth(&self.key)
                .json(&json!({
                    "search_query": query,
                    "search_engine": self.engine,
                    "search_intent": false,
                    "count": top_k.min(50),
                })),
            SearchProviderKind::Serpapi => client.get(self.url_with_query(
                "/search.json",
                &[
                    ("engine", "google"),
                    ("q", query),
                    ("num", count.as_str()),
                    ("api_key", self.key.as_str()),
                ],
            )?),
            SearchProviderKind::Searxng => {
                client.get(self.url_with_query("/search", &[("q", query), ("format", "json")])?)
            }
            SearchProviderKind::Tavily => client
                .post(format!("{}/search", self.base_url))
                .bearer_auth(&self.key)
                .json(&json!({"query": query, "max_results": top_k.min(20)})),
            SearchProviderKind::Brave => client
                .get(self.url_with_query(
                    "/res/v1/web/search",
                    &[("q", query), ("count", count.as_str())],
                )?)
                .header("X-Subscription-Token", &self.key)
                .header("Accept", "application/json"),
        };
        let response = request.send().await.map_err(http_err)?;
        let status = response.status();
        let text = response.text().await.map_err(http_err)?;
        if !status.is_success() {
            return Err(SearchError::Status {
                provider,
                status: status.as_u16(),
                body: text.chars().take(300).collect(),
            });
        }
        let value: Value = serde_json::from_str(&text).map_err(|e| SearchError::Shape {
            provider,
            message: e.to_string(),
        })?;
        let mut hits = self.parse(&value).ok_or_else(|| SearchError::Shape {
            provider,
            message: text.chars().take(200).collect(),
        })?;
        hits.truncate(top_k);
        Ok(hits)
    }

    /// `base_url` + `path` with the query pairs encoded.
    fn url_with_query(&self, path: &str, pairs: &[(&str, &str)]) -> Result<url::Url, SearchError> {
        let mut url = url::Url::parse(&format!("{}{path}", self.base_url)).map_err(|e| {
            SearchError::Http {
                provider: name_of(self.kind),
                message: format!("invalid base URL {:?}: {e}", self.base_url),
            }
        })?;
        url.query_pairs_mut().extend_pairs(pairs);
        Ok(url)
    }

    /// Reads the hits out of the provider's JSON; `None` when the results list is missing.
    fn parse(&self, value: &Value) -> Option<Vec<SearchHit>> {
        let (list, title, snippet, url) = match self.kind {
            SearchProviderKind::Zhipu => (value.get("search_result"), "title", "content", "link"),
            SearchProviderKind::Serpapi => (
                value.get("organic_results").or(Some(&Value::Null)),
                "title",
                "snippet",
                "link",
            ),
            SearchProviderKind::Searxng => (value.get("results"), "title", "content", "url"),
            SearchProviderKind::Tavily => (value.get("results"), "title", "content", "url"),
            SearchProviderKind::Brave => (
                value.pointer("/web/results").or(Some(&Value::Null)),
                "title",
                "description",
                "url",
            ),
        };
        let field = |item: &Value, key: &str| {
            item.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        // SerpAPI and Brave leave the list out when nothing matched.
        let items = match list? {
            Value::Null => return Some(Vec::new()),
            v => v.as_array()?,
        };
        Some(
            items
                .iter()
                .map(|item| SearchHit {
                    title: field(item, title),
                    snippet: field(item, snippet),
                    url: field(item, url),
                })
                .filter(|hit| !hit.url.is_empty())
                .collect(),
        )
    }
}

/// Numbered `title / snippet / URL` lines; snippets cut to 200 characters.
pub fn format_hits(query: &str, provider: &str, hits: &[SearchHit]) -> String {
    if hits.is_empty() {
        return format!("No results for {query:?} ({provider}).");
    }
    let mut out = format!("Results for {query:?} ({provider}):\n");
    for (i, hit) in hits.iter().enumerate() {
        let snippet: String = hit.snippet.split_whitespace().collect::<Vec<_>>().join(" ");
        let snippet = if snippet.chars().count() > 200 {
            format!("{}…", snippet.chars().take(200).collect::<String>())
        } else {
            snippet
        };
        let title = if hit.title.is_empty() {
            "(untitled)"
        } else {
            &hit.title
        };
        out.push_str(&format!(
            "{}. {title}\n   {snippet}\n   URL: {}\n",
            i + 1,
            hit.url
        ));
    }
    out
}
