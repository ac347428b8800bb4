//! Web tools: `web_search` (a configured search provider) and `web_fetch` (one page as Markdown, behind the
//! network policy). Both are read-only and parallel-safe.

pub mod fetch;
pub mod html;
pub mod search;

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value};
use url::Url;

use super::fs::object_schema;
use super::{Args, Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits};
use crate::config::WebSettings;
use crate::guard::network::{HopCheck, NetworkError, NetworkPolicy};
use crate::protocol::ToolKind;

pub use fetch::{FetchError, FetchLimits, FetchedPage};
pub use search::{SearchError, SearchHit, SearchProvider, choose_provider};

/// Outcome code when the network policy refuses a URL.
pub const NETWORK_BLOCKED: &str = "NETWORK_BLOCKED";
/// Outcome code when the fetch rate limit is reached.
pub const RATE_LIMITED: &str = "RATE_LIMITED";

/// The web tools for `settings`, sharing one network policy. `web_search` is offered only when a search
/// provider is configured (otherwise the model spends a turn on the error); settings are fixed for the session,
/// so the tool list stays byte-stable.
pub fn web_tools(settings: &WebSettings) -> Vec<Arc<dyn Tool>> {
    let policy = Arc::new(NetworkPolicy::new(
        settings.allow_private_hosts,
        settings.requests_per_minute,
    ));
    let mut tools: Vec<Arc<dyn Tool>> = Vec::new();
    if choose_provider(settings).is_ok() {
        tools.push(Arc::new(WebSearch::new(settings.clone())));
    }
    tools.push(Arc::new(WebFetch::new(policy, settings.fetch_max_chars)));
    tools
}

/// `web_search`: numbered results from the configured provider; their URLs become the turn's grounded URLs.
pub struct WebSearch {
    settings: WebSettings,
}

impl WebSearch {
    /// A search tool using `settings` to pick its provider at call time.
    pub fn new(settings: WebSettings) -> Self {
        WebSearch { settings }
    }
}

#[async_trait]
impl Tool for WebSearch {
    fn name(&self) -> &str {
        "web_search"
    }
    fn description(&self) -> &str {
        "Search the web: numbered results (title, snippet, URL) that web_fetch can read."
    }
    fn parameters(&self) -> Value {
        object_schema(
            &[
                ("query", "string", ""),
                ("top_k", "integer", "Default 5, max 20."),
            ],
            &["query"],
        )
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Fetch,
            network: true,
            external_content: true,
            ..ToolTraits::READ_ONLY
        }
    }
    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        super::call_view::str_arg(args, "query")
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let args = Args(args);
        let query = match args.required_str("query") {
            Ok(q) if !q.trim().is_empty() => q.trim(),
            Ok(_) => return ToolOutcome::failed("query is empty"),
            Err(outcome) => return outcome,
        };
        let top_k = args.int("top_k").unwrap_or(5).clamp(1, 20) as usize;
        let provider = match choose_provider(&self.settings) {
            Ok(p) => p,
            Err(e) => return ToolOutcome::failed(e.to_string()),
        };
        let hits = tokio::select! {
            hits = provider.search(query, top_k) => hits,
            () = ctx.cancel.cancelled() => return ToolOutcome::Cancelled { partial: String::new() },
        };
        match hits {
            Ok(hits) => ToolOutcome::Ok(ToolOutput {
                text: search::format_hits(query, search::name_of(provider.kind), &hits),
                discovered_urls: hits.into_iter().map(|h| h.url).collect(),
                ..ToolOutput::default()
            }),
            Err(e) => ToolOutcome::failed(e.to_string()),
        }
    }
}

/// `web_fetch`: one http(s) page as Markdown (HTML) or text, under the network policy.
pub struct WebFetch {
    policy: Arc<NetworkPolicy>,
    hops: Arc<dyn HopCheck>,
    limits: FetchLimits,
    default_max_chars: usize,
}

impl WebFetch {
    /// A fetch tool whose every hop is checked by `policy`.
    pub fn new(policy: Arc<NetworkPolicy>, default_max_chars: usize) -> Self {
        WebFetch {
            hops: Arc::clone(&policy) as Arc<dyn HopCheck>,
            policy,
            limits: FetchLimits::default(),
            default_max_chars: default_max_chars.max(1),
        }
    }

    /// The same tool with another per-hop check (tests) and limits.
    pub fn with_hops(mut self, hops: Arc<dyn HopCheck>, limits: FetchLimits) -> Self {
        self.hops = hops;
        self.limits = limits;
        self
    }
}

#[async_trait]
impl Tool for WebFetch {
    fn name(&self) -> &str {
        "web_fetch"
    }
    fn description(&self) -> &str {
        "Fetch a public http(s) page the user gave or web_search found, as Markdown or text."
    }
    fn parameters(&self) -> Value {
        let mut schema = object_schema(
            &[("url", "string", ""), ("max_chars", "integer", "")],
            &["url"],
        );
        // The default is the `web.fetch_max_chars` setting: the model is told the one in force.
        schema["properties"]["max_chars"]["description"] =
            Value::from(format!("Default {}.", self.default_max_chars));
        schema
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Fetch,
            network: true,
            external_content: true,
            needs_grounded_url: true,
            ..ToolTraits::READ_ONLY
        }
    }
    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        super::call_view::str_arg(args, "url")
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let args = Args(args);
        let raw = match args.required_str("url") {
            Ok(u) => u.trim(),
            Err(outcome) => return outcome,
        };
        let url = match Url::parse(raw) {
            Ok(u) => u,
            Err(e) => return ToolOutcome::failed(format!("invalid URL {raw:?}: {e}")),
        };
        let max_chars = args
            .int("max_chars")
            .map_or(self.default_max_chars, |n| n.clamp(1, 200_000) as usize);
        if let Err(e) = self.policy.acquire() {
            return ToolOutcome::denied(RATE_LIMITED, e.to_string());
        }
        let fetched = tokio::select! {
            r = fetch::fetch(url, self.hops.as_ref(), &self.limits) => r,
            () = ctx.cancel.cancelled() => return ToolOutcome::Cancelled { partial: String::new() },
        };
        match fetched {
            Ok(page) => render_page(&page, max_chars),
            Err(FetchError::Policy(e @ NetworkError::RateLimited { .. })) => {
                ToolOutcome::denied(RATE_LIMITED, e.to_string())
            }
            Err(FetchError::Policy(e)) => ToolOutcome::denied(NETWORK_BLOCKED, e.to_string()),
            Err(e) => ToolOutcome::failed(e.to_string()),
        }
    }
}

/// The page as the model sees it: a header with title, URL and length, then the text, cut at `max_chars`.
pub fn render_page(page: &FetchedPage, max_chars: usize) -> ToolOutcome {
    let mime = page
        .content_type
        .as_deref()
        .and_then(|ct| ct.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let looks_html = mime.is_empty() && sniff_html(&page.body);
    let is_html = mime == "text/html" || mime == "application/xhtml+xml" || looks_html;
    let is_text = mime.starts_with("text/")
        || mime.ends_with("json")
        || mime.ends_with("+xml")
        || mime == "application/xml"
        || mime == "application/javascript";
    if !page_ok(page.status) {
        let text = decode(&page.body, page.content_type.as_deref(), is_html);
        let excerpt: String = text.chars().take(300).collect();
        return ToolOutcome::failed(format!("HTTP {} from {}: {excerpt}", page.status, page.url));
    }
    let (title, body) = if is_html {
        let text = html::html_to_markdown(&decode(&page.body, page.content_type.as_deref(), true));
        (text.title, text.markdown)
    } else if is_text || (mime.is_empty() && std::str::from_utf8(&page.body).is_ok()) {
        (
            None,
            decode(&page.body, page.content_type.as_deref(), false),
        )
    } else {
        let kind = if mime.is_empty() {
            "unknown type"
        } else {
            mime.as_str()
        };
        return ToolOutcome::ok(format!(
            "URL: {}\nBinary content ({kind}, {} bytes) is not shown.",
            page.url,
            page.body.len()
        ));
    };
    let total = body.chars().count();
    let mut out = String::new();
    if let Some(title) = title {
        out.push_str(&format!("Title: {title}\n"));
    }
    out.push_str(&format!("URL: {}\nLength: {total} chars\n\n", page.url));
    if total > max_chars {
        out.extend(body.chars().take(max_chars));
        out.push_str(&format!(
            "\n\n[truncated: showed {max_chars} of {total} chars; call web_fetch with a larger max_chars for more]"
        ));
    } else {
        out.push_str(&body);
    }
    ToolOutcome::ok(out)
}

fn page_ok(status: u16) -> bool {
    (200..300).contains(&status)
}

fn sniff_html(body: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&body[..body.len().min(512)]).to_ascii_lowercase();
    head.contains("<html") || head.contains("<!doctype html")
}

/// Decodes `body` by its BOM, the `charset` of `content_type`, or (HTML) a `<meta charset>`; UTF-8 otherwise.
pub fn decode(body: &[u8], content_type: Option<&str>, html: bool) -> String {
    let label = content_type
        .and_then(charset_param)
        .or_else(|| if html { meta_charset(body) } else { None });
    let encoding = label
        .and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    let (text, _, _) = encoding.decode(body);
    text.into_owned()
}

fn charset_param(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("charset")).then(|| v.trim().trim_matches('"').to_string())
    })
}

fn meta_charset(body: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(&body[..body.len().min(2048)]).to_ascii_lowercase();
    let at = head.find("charset=")? + "charset=".len();
    let value: String = head[at..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    (!value.is_empty()).then_some(value)
}

#[cfg(test)]
mod tests;
