//! `[web]` settings: the search provider and its keys, and the `web_fetch` network policy.

use super::{ConfigError, EnvVars};

/// `web_fetch` calls per 60-second window unless `[web] requests_per_minute` says otherwise.
pub const DEFAULT_REQUESTS_PER_MINUTE: u32 = 30;

/// A web search backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchProviderKind {
    /// Zhipu web search (`GLM_API_KEY`).
    Zhipu,
    /// SerpAPI (`SERPAPI_KEY`).
    Serpapi,
    /// A SearXNG instance (`SEARXNG_URL`).
    Searxng,
    /// Tavily (`TAVILY_API_KEY`).
    Tavily,
    /// Brave Search (`BRAVE_API_KEY`).
    Brave,
}

impl std::str::FromStr for SearchProviderKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "zhipu" | "glm" => Ok(SearchProviderKind::Zhipu),
            "serpapi" => Ok(SearchProviderKind::Serpapi),
            "searxng" => Ok(SearchProviderKind::Searxng),
            "tavily" => Ok(SearchProviderKind::Tavily),
            "brave" => Ok(SearchProviderKind::Brave),
            other => Err(format!(
                "expected zhipu, serpapi, searxng, tavily or brave, got {other:?}"
            )),
        }
    }
}

/// Resolved web settings.
#[derive(Clone, PartialEq, Eq)]
pub struct WebSettings {
    /// Explicit provider; `None` picks the first with a key (zhipu, serpapi, searxng, tavily, brave).
    pub search_provider: Option<SearchProviderKind>,
    /// Lets `web_fetch` reach loopback and private addresses (tests, intranets).
    pub allow_private_hosts: bool,
    /// Default `max_chars` of `web_fetch`.
    pub fetch_max_chars: usize,
    /// `web_fetch` calls per 60 s window; 0 = unlimited.
    pub requests_per_minute: u32,
    pub zhipu_base_url: String,
    pub zhipu_search_engine: String,
    pub serpapi_base_url: String,
    pub searxng_url: Option<String>,
    pub tavily_base_url: String,
    pub brave_base_url: String,
    pub glm_api_key: Option<String>,
    pub serpapi_key: Option<String>,
    pub tavily_api_key: Option<String>,
    pub brave_api_key: Option<String>,
}

// Keys stay out of debug output.
impl std::fmt::Debug for WebSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebSettings")
            .field("search_provider", &self.search_provider)
            .field("allow_private_hosts", &self.allow_private_hosts)
            .field("fetch_max_chars", &self.fetch_max_chars)
            .field("requests_per_minute", &self.requests_per_minute)
            .field("searxng_url", &self.searxng_url)
            .finish_non_exhaustive()
    }
}

impl Default for WebSettings {
    fn default() -> Self {
        WebSettings {
            search_provider: None,
            allow_private_hosts: false,
            fetch_max_chars: 8000,
            requests_per_minute: DEFAULT_REQUESTS_PER_MINUTE,
            zhipu_base_url: "https://open.bigmodel.cn".to_string(),
            zhipu_search_engine: "search_std".to_string(),
            serpapi_base_url: "https://serpapi.com".to_string(),
            searxng_url: None,
            tavily_base_url: "https://api.tavily.com".to_string(),
            brave_base_url: "https://api.search.brave.com".to_string(),
            glm_api_key: None,
            serpapi_key: None,
            tavily_api_key: None,
            brave_api_key: None,
        }
    }
}

/// `[web]` in `config.toml`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebSection {
    pub search_provider: Option<SearchProviderKind>,
    pub allow_private_hosts: Option<bool>,
    pub fetch_max_chars: Option<usize>,
    pub requests_per_minute: Option<u32>,
    pub zhipu_base_url: Option<String>,
    pub zhipu_search_engine: Option<String>,
    pub serpapi_base_url: Option<String>,
    pub searxng_url: Option<String>,
    pub tavily_base_url: Option<String>,
    pub brave_base_url: Option<String>,
}

impl WebSection {
    /// Lays `top` over `self`.
    pub fn merge(&mut self, top: WebSection) {
        fn over<T>(slot: &mut Option<T>, v: Option<T>) {
            if v.is_some() {
                *slot = v;
            }
        }
        over(&mut self.search_provider, top.search_provider);
        over(&mut self.allow_private_hosts, top.allow_private_hosts);
        over(&mut self.fetch_max_chars, top.fetch_max_chars);
        over(&mut self.requests_per_minute, top.requests_per_minute);
        over(&mut self.zhipu_base_url, top.zhipu_base_url);
        over(&mut self.zhipu_search_engine, top.zhipu_search_engine);
        over(&mut self.serpapi_base_url, top.serpapi_base_url);
        over(&mut self.searxng_url, top.searxng_url);
        over(&mut self.tavily_base_url, top.tavily_base_url);
        over(&mut self.brave_base_url, top.brave_base_url);
    }
}

impl WebSettings {
    /// Applies the file section.
    pub fn apply_file(&mut self, s: &WebSection) {
        fn set<T: Clone>(slot: &mut T, v: &Option<T>) {
            if let Some(v) = v {
                *slot = v.clone();
            }
        }
        if s.search_provider.is_some() {
            self.search_provider = s.search_provider;
        }
        set(&mut self.allow_private_hosts, &s.allow_private_hosts);
        set(&mut self.fetch_max_chars, &s.fetch_max_chars);
        set(&mut self.requests_per_minute, &s.requests_per_minute);
        set(&mut self.zhipu_base_url, &s.zhipu_base_url);
        set(&mut self.zhipu_search_engine, &s.zhipu_search_engine);
        set(&mut self.serpapi_base_url, &s.serpapi_base_url);
        if s.searxng_url.is_some() {
            self.searxng_url.clone_from(&s.searxng_url);
        }
        set(&mut self.tavily_base_url, &s.tavily_base_url);
        set(&mut self.brave_base_url, &s.brave_base_url);
    }

    /// Applies the environment: `PAICLI_WEB_*` settings and the providers' own variables.
    pub fn apply_env(&mut self, env: &EnvVars) -> Result<(), ConfigError> {
        if let Some(v) = env.parsed::<SearchProviderKind>("PAICLI_WEB_SEARCH_PROVIDER")? {
            self.search_provider = Some(v);
        }
        if let Some(v) = env.flag("PAICLI_WEB_ALLOW_PRIVATE_HOSTS")? {
            self.allow_private_hosts = v;
        }
        if let Some(v) = env.parsed::<usize>("PAICLI_WEB_FETCH_MAX_CHARS")? {
            self.fetch_max_chars = v;
        }
        if let Some(v) = env.parsed::<u32>("PAICLI_WEB_REQUESTS_PER_MINUTE")? {
            self.requests_per_minute = v;
        }
        let text = |key: &str| env.get(key).map(str::to_string);
        for (key, slot) in [
            ("PAICLI_WEB_ZHIPU_BASE_URL", &mut self.zhipu_base_url),
            ("ZHIPU_SEARCH_ENGINE", &mut self.zhipu_search_engine),
            ("PAICLI_WEB_SERPAPI_BASE_URL", &mut self.serpapi_base_url),
            ("PAICLI_WEB_TAVILY_BASE_URL", &mut self.tavily_base_url),
            ("PAICLI_WEB_BRAVE_BASE_URL", &mut self.brave_base_url),
        ] {
            if let Some(v) = text(key) {
                *slot = v;
            }
        }
        for (key, slot) in [
            ("SEARXNG_URL", &mut self.searxng_url),
            ("GLM_API_KEY", &mut self.glm_api_key),
            ("SERPAPI_KEY", &mut self.serpapi_key),
            ("TAVILY_API_KEY", &mut self.tavily_api_key),
            ("BRAVE_API_KEY", &mut self.brave_api_key),
        ] {
            if let Some(v) = text(key) {
                *slot = Some(v);
            }
        }
        Ok(())
    }
}

/// A project may keep `web_fetch` off non-public addresses, never open them.
pub(super) fn tightens_private_hosts(value: &toml::Value) -> bool {
    match value {
        toml::Value::Boolean(on) => !on,
        toml::Value::String(s) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "false" | "0" | "no" | "off"
        ),
        _ => false,
    }
}
