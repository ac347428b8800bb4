//! The check every browser call that opens a URL passes before it reaches the chrome-devtools server
//! (`navigate_page`, `new_page`, and any of its tools with an argument named `url` or `…Url`): the browser's page
//! rules (`guard::network::page`) with the hosts the user named in this session's messages.
//!
//! Only the person's own messages name hosts: a page, a search result or a file cannot open a local address.
//! A refusal is final, as `web_fetch`'s is (it asks nobody either): the model is told to ask the user, who can
//! name the page or switch `[browser] allow_local` on.

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use serde_json::Value;

use crate::guard::network::{NamedHosts, PageRules};
use crate::mcp::browser_entry::CHROME_DEVTOOLS;
use crate::protocol::{CallGate, GateCall, GateVerdict, TurnHook, TurnScope};
use crate::tools::web::NETWORK_BLOCKED;

/// The turn hook: register it with `Agent::add_turn_hook` before the approval hook, so nobody is asked to approve
/// a page that would be refused.
pub struct PageUrlHook(Arc<Shared>);

struct Shared {
    rules: PageRules,
    /// Every host the user named so far in this session (a local app named once stays open on later turns).
    named: Mutex<NamedHosts>,
}

impl PageUrlHook {
    /// The hook for `rules` (built from `[browser] allow_local`).
    pub fn new(rules: PageRules) -> Self {
        PageUrlHook(Arc::new(Shared {
            rules,
            named: Mutex::new(NamedHosts::default()),
        }))
    }
}

impl TurnHook for PageUrlHook {
    fn begin_turn(&self, submitted: &str) -> TurnScope {
        self.0
            .named
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add_text(submitted);
        TurnScope {
            gates: vec![Arc::new(PageUrlGate(Arc::clone(&self.0)))],
            filter: None,
            notices: Vec::new(),
        }
    }
}

/// The turn's gate.
struct PageUrlGate(Arc<Shared>);

/// Whether `name` is a tool of the browser's server.
fn is_browser_page_tool(name: &str) -> bool {
    name.strip_prefix("mcp__")
        .and_then(|rest| rest.strip_prefix(CHROME_DEVTOOLS))
        .is_some_and(|rest| rest.starts_with("__"))
}

/// The URL-carrying arguments of a call: those named `url` or ending in `Url` (`installUrlOrBundleUrl`).
fn url_arguments(args: &serde_json::Map<String, Value>) -> impl Iterator<Item = &str> {
    args.iter()
        .filter(|(key, _)| key.to_ascii_lowercase().ends_with("url"))
        .filter_map(|(_, value)| value.as_str())
}

#[async_trait]
impl CallGate for PageUrlGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if !is_browser_page_tool(call.name) {
            return GateVerdict::Allow;
        }
        let named = self
            .0
            .named
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for url in url_arguments(call.args) {
            let checked = tokio::select! {
                checked = self.0.rules.check(url, &named) => checked,
                () = call.cancel.cancelled() => {
                    return GateVerdict::deny("CANCELLED", "cancelled by the user; 用户已取消");
                }
            };
            if let Err(refusal) = checked {
                return GateVerdict::deny(NETWORK_BLOCKED, refusal.to_string());
            }
        }
        GateVerdict::Allow
    }
}

#[cfg(test)]
mod tests;
