//! The session's one browser: the built-in `chrome-devtools` MCP server, started on first use, switched between
//! an isolated browser and the user's own Chrome. Switches hold one lock, and the server's tools leave and rejoin
//! the registry in one step each, so no call sees a half-registered server.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Map;
use tokio_util::sync::CancellationToken;

use super::pages::{PageTracker, Tab, parse_tabs};
use crate::config::BrowserSettings;
use crate::mcp::browser_entry::{self, BrowserMode, CHROME_DEVTOOLS, Host};
use crate::mcp::content::render_items;
use crate::mcp::{McpManager, ServerState};

/// The remote-debugging endpoint `browser_connect` attaches to when given none.
pub const DEFAULT_BROWSER_URL: &str = "http://127.0.0.1:9222";

/// Why a browser action failed, in words for the model and the person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrowserError {
    /// The server would not start or answer.
    #[error("the browser is not available: {0}")]
    Unavailable(String),
    /// Nothing answered at the debugging endpoint.
    #[error(
        "could not attach to a Chrome at {url}: {reason}. Start Chrome with remote debugging first, e.g. \
         `google-chrome --remote-debugging-port=9222 --user-data-dir=/tmp/chrome-debug` (or enable it in \
         chrome://inspect/#remote-debugging), then connect again. The isolated browser is used meanwhile."
    )]
    NotAttached { url: String, reason: String },
    /// The user's own `chrome-devtools` entry in mcp.json decides how the browser starts.
    #[error(
        "the `chrome-devtools` server comes from the user's mcp.json, which decides which browser it drives; \
         switching is not available (edit mcp.json instead)"
    )]
    UserEntry,
    /// `browser_url` is not an http(s) URL.
    #[error("browser_url must be an http(s) URL such as {DEFAULT_BROWSER_URL}, got {0:?}")]
    BadUrl(String),
}

/// What `browser_status` and `/browser status` report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserReport {
    pub mode: BrowserMode,
    /// The server runs (its tools are registered).
    pub running: bool,
    /// The user's mcp.json defines the server.
    pub user_entry: bool,
    /// Open tabs (known only while the server runs).
    pub tabs: Vec<Tab>,
    pub last_error: Option<String>,
}

impl BrowserReport {
    /// The report as the model reads it.
    pub fn render(&self) -> String {
        let mut out = match &self.mode {
            BrowserMode::Isolated if self.user_entry => {
                "mode: as configured in the user's mcp.json (`chrome-devtools`)".to_string()
            }
            BrowserMode::Isolated => {
                "mode: isolated (a fresh browser whose profile is thrown away; no logins)"
                    .to_string()
            }
            BrowserMode::Connected { browser_url } => {
                format!(
                    "mode: connected to the user's Chrome at {browser_url} (their logins apply)"
                )
            }
        };
        out.push_str(if self.running {
            "\nserver: running; its page tools are mcp__chrome-devtools__*"
        } else {
            "\nserver: not started (browser_status starts it)"
        });
        if self.running {
            if self.tabs.is_empty() {
                out.push_str("\ntabs: none");
            } else {
                out.push_str("\ntabs:");
                for (i, tab) in self.tabs.iter().enumerate() {
                    let title = if tab.title.is_empty() {
                        "(untitled)"
                    } else {
                        &tab.title
                    };
                    let selected = if tab.selected { " [selected]" } else { "" };
                    out.push_str(&format!("\n  {}. {title} — {}{selected}", i + 1, tab.url));
                }
            }
        }
        if let Some(error) = &self.last_error {
            out.push_str(&format!("\nlast error: {error}"));
        }
        out
    }
}

struct State {
    mode: BrowserMode,
    last_error: Option<String>,
}

/// The session's browser.
pub struct BrowserController {
    mcp: McpManager,
    settings: BrowserSettings,
    host: Host,
    pages: Arc<PageTracker>,
    user_entry: bool,
    state: Mutex<State>,
    /// Held across a mode switch, so two switches (or a switch and a start) never interleave.
    switching: tokio::sync::Mutex<()>,
    /// How long a start may take (a cold `npx` start or a browser launch can take seconds).
    start_limit: Duration,
}

impl BrowserController {
    /// The browser of a session whose servers `mcp` runs: adds the built-in isolated server to start on demand
    /// unless an `mcp.json` defines `chrome-devtools`. `None` when that entry is disabled: no browser then.
    pub fn install(
        mcp: &McpManager,
        settings: &BrowserSettings,
        host: Host,
        pages: Arc<PageTracker>,
        start_limit: Duration,
    ) -> Option<Arc<BrowserController>> {
        let existing = mcp
            .status()
            .into_iter()
            .find(|s| s.name == CHROME_DEVTOOLS)
            .map(|s| s.state);
        if existing == Some(ServerState::Disabled) {
            return None;
        }
        let user_entry = existing.is_some()
            || !mcp.add_on_demand(
                CHROME_DEVTOOLS,
                browser_entry::launch(settings, &BrowserMode::Isolated, &host),
            );
        Some(Arc::new(BrowserController {
            mcp: mcp.clone(),
            settings: settings.clone(),
            host,
            pages,
            user_entry,
            state: Mutex::new(State {
                mode: BrowserMode::Isolated,
                last_error: None,
            }),
            switching: tokio::sync::Mutex::new(()),
            start_limit,
        }))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn remember(&self, error: &BrowserError) {
        self.state().last_error = Some(error.to_string());
    }

    /// The current mode.
    pub fn mode(&self) -> BrowserMode {
        self.state().mode.clone()
    }

    /// True while the server runs.
    pub fn running(&self) -> bool {
        self.mcp
            .status()
            .iter()
            .any(|s| s.name == CHROME_DEVTOOLS && s.state == ServerState::Ready)
    }

    /// Starts the server if needed and lists the open tabs.
    pub async fn tabs(&self, cancel: &CancellationToken) -> Result<Vec<Tab>, BrowserError> {
        let result = self.list_tabs(cancel).await;
        if let Err(e) = &result {
            self.remember(e);
        }
        result
    }

    async fn list_tabs(&self, cancel: &CancellationToken) -> Result<Vec<Tab>, BrowserError> {
        let link = self
            .mcp
            .ensure_ready(CHROME_DEVTOOLS, self.start_limit)
            .await
            .map_err(BrowserError::Unavailable)?;
        let reply = link
            .call_tool("list_pages", Map::new(), cancel)
            .await
            .map_err(|e| BrowserError::Unavailable(e.to_string()))?;
        let (text, _) = render_items(&reply.content);
        if reply.is_error {
            return Err(BrowserError::Unavailable(text));
        }
        self.pages.observe(&text);
        Ok(parse_tabs(&text).unwrap_or_default())
    }

    /// The report; with `start`, the server is started first so the tabs are known.
    pub async fn report(&self, start: bool, cancel: &CancellationToken) -> BrowserReport {
        let tabs = if start || self.running() {
            self.tabs(cancel).await.unwrap_or_default()
        } else {
            Vec::new()
        };
        let state = self.state();
        BrowserReport {
            mode: state.mode.clone(),
            running: self.running(),
            user_entry: self.user_entry,
            tabs,
            last_error: state.last_error.clone(),
        }
    }

    /// Restarts the server attached to the Chrome at `browser_url` and lists its tabs. On failure the isolated
    /// browser is back (to start on demand) and the error says how to start Chrome for debugging.
    pub async fn connect(
        &self,
        browser_url: &str,
        cancel: &CancellationToken,
    ) -> Result<Vec<Tab>, BrowserError> {
        if self.user_entry {
            return Err(BrowserError::UserEntry);
        }
        let url = url::Url::parse(browser_url)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| BrowserError::BadUrl(browser_url.to_string()))?;
        let browser_url = url.as_str().trim_end_matches('/').to_string();
        let _switch = self.switching.lock().await;
        let mode = BrowserMode::Connected {
            browser_url: browser_url.clone(),
        };
        self.switch_to(mode).await?;
        match self.list_tabs(cancel).await {
            Ok(tabs) => {
                self.state().last_error = None;
                Ok(tabs)
            }
            Err(e) => {
                let reason = match e {
                    BrowserError::Unavailable(reason) => reason,
                    other => other.to_string(),
                };
                let error = BrowserError::NotAttached {
                    url: browser_url,
                    reason: first_line(&reason),
                };
                self.remember(&error);
                self.switch_to(BrowserMode::Isolated).await?;
                Err(error)
            }
        }
    }

    /// Back to the isolated browser (started on the next browser call); the user's Chrome is left running.
    pub async fn disconnect(&self) -> Result<(), BrowserError> {
        if self.user_entry {
            return Err(BrowserError::UserEntry);
        }
        let _switch = self.switching.lock().await;
        self.switch_to(BrowserMode::Isolated).await
    }

    async fn switch_to(&self, mode: BrowserMode) -> Result<(), BrowserError> {
        let launch = browser_entry::launch(&self.settings, &mode, &self.host);
        self.mcp
            .relaunch_on_demand(CHROME_DEVTOOLS, launch)
            .await
            .map_err(BrowserError::Unavailable)?;
        self.pages.clear();
        self.state().mode = mode;
        Ok(())
    }
}

/// The first line of a server's error (its stack traces help nobody here).
fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no answer")
        .trim_end_matches('.')
        .to_string()
}
