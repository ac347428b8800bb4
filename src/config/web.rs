//! `[web]` settings: the search provider and its keys, and the `web_fetch` network policy.

use super::settings::{Maybe, Plain, Project, Secret, Text, declare_settings, setting};

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

impl SearchProviderKind {
    /// Every provider, in the order one is picked when none is named.
    pub const ALL: [SearchProviderKind; 5] = [
        SearchProviderKind::Zhipu,
        SearchProviderKind::Serpapi,
        SearchProviderKind::Searxng,
        SearchProviderKind::Tavily,
        SearchProviderKind::Brave,
    ];

    /// The name files, variables and `/config` use.
    pub fn name(self) -> &'static str {
        match self {
            SearchProviderKind::Zhipu => "zhipu",
            SearchProviderKind::Serpapi => "serpapi",
            SearchProviderKind::Searxng => "searxng",
            SearchProviderKind::Tavily => "tavily",
            SearchProviderKind::Brave => "brave",
        }
    }
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

declare_settings! {
    /// Resolved web settings.
    #[derive(Clone, PartialEq, Eq)]
    pub struct WebSettings in config.web {
        /// web_search provider. Unset = the first with a key, in this order: GLM_API_KEY (zhipu), SERPAPI_KEY,
        /// SEARXNG_URL, TAVILY_API_KEY, BRAVE_API_KEY (keys live in the environment or .env, never here).
        pub search_provider: Option<SearchProviderKind> = setting("web.search_provider", Maybe::UNSET)
            .env(&["PAICLI_WEB_SEARCH_PROVIDER"])
            .example("\"zhipu\""),
        /// Let web_fetch reach localhost, private, link-local and other non-public addresses (intranets, tests).
        /// A project's own files may set false, never true: a cloned repository could aim web_fetch at the cloud
        /// metadata service or the LAN.
        pub allow_private_hosts: bool = setting("web.allow_private_hosts", Plain(false))
            .env(&["PAICLI_WEB_ALLOW_PRIVATE_HOSTS"])
            .project(Project::TightenOnly(tightens_private_hosts)),
        /// Characters web_fetch returns when the model does not ask for a max_chars.
        pub fetch_max_chars: usize = setting("web.fetch_max_chars", Plain(8000))
            .env(&["PAICLI_WEB_FETCH_MAX_CHARS"]),
        /// web_fetch calls per 60-second window (0 = unlimited).
        pub requests_per_minute: u32 = setting("web.requests_per_minute", Plain(DEFAULT_REQUESTS_PER_MINUTE))
            .env(&["PAICLI_WEB_REQUESTS_PER_MINUTE"]),
        /// Zhipu search endpoint (a proxy or a local stand-in); it receives your key.
        pub zhipu_base_url: String = setting("web.zhipu_base_url", Text("https://open.bigmodel.cn"))
            .env(&["PAICLI_WEB_ZHIPU_BASE_URL"])
            .project(Project::Trusted),
        /// Zhipu search engine (search_std, search_pro, ...).
        pub zhipu_search_engine: String = setting("web.zhipu_search_engine", Text("search_std"))
            .env(&["ZHIPU_SEARCH_ENGINE"]),
        /// SerpAPI endpoint; it receives your key.
        pub serpapi_base_url: String = setting("web.serpapi_base_url", Text("https://serpapi.com"))
            .env(&["PAICLI_WEB_SERPAPI_BASE_URL"])
            .project(Project::Trusted),
        /// Your SearXNG instance; /search?format=json is appended.
        pub searxng_url: Option<String> = setting("web.searxng_url", Maybe::UNSET)
            .env(&["SEARXNG_URL"])
            .example("\"http://localhost:8888\""),
        /// Tavily endpoint; it receives your key.
        pub tavily_base_url: String = setting("web.tavily_base_url", Text("https://api.tavily.com"))
            .env(&["PAICLI_WEB_TAVILY_BASE_URL"])
            .project(Project::Trusted),
        /// Brave Search endpoint; it receives your key.
        pub brave_base_url: String = setting("web.brave_base_url", Text("https://api.search.brave.com"))
            .env(&["PAICLI_WEB_BRAVE_BASE_URL"])
            .project(Project::Trusted),
        /// Zhipu search key (the GLM provider's key).
        pub glm_api_key: Option<String> = setting("web.zhipu_api_key", Secret).env_only(&["GLM_API_KEY"]),
        /// SerpAPI key.
        pub serpapi_key: Option<String> = setting("web.serpapi_key", Secret).env_only(&["SERPAPI_KEY"]),
        /// Tavily key.
        pub tavily_api_key: Option<String> = setting("web.tavily_api_key", Secret).env_only(&["TAVILY_API_KEY"]),
        /// Brave Search key.
        pub brave_api_key: Option<String> = setting("web.brave_api_key", Secret).env_only(&["BRAVE_API_KEY"]),
    }
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

/// A project may keep `web_fetch` off non-public addresses, never open them.
fn tightens_private_hosts(value: &toml::Value) -> bool {
    match value {
        toml::Value::Boolean(on) => !on,
        toml::Value::String(s) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "false" | "0" | "no" | "off"
        ),
        _ => false,
    }
}
