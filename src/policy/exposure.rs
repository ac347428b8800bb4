//! TurnToolPolicy (spec §5): which tools each turn offers, computed from the text the user submitted, and the
//! execution-time check that every call stays inside that offer.
//!
//! The filter only subtracts: web tools (those declaring `network`) go when the user says not to go online, pastes
//! only a headline, or asks for a local text edit; a fetching tool (`needs_grounded_url`, i.e. `web_fetch`) stays
//! hidden until the turn has a grounded URL (one the user wrote, or one a successful `web_search` returned as typed
//! `discovered_urls`). Local tools are always offered, and the filtered
//! list keeps the registry's sorted order, so equal exposure means byte-identical tool definitions.

mod classify;
mod shell_words;

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use regex::Regex;

use crate::protocol::{CallGate, GateCall, GateVerdict, ToolOutcome};
use crate::protocol::{Notice, ToolFilter, TurnHook, TurnScope};
use crate::protocol::{ToolSpec, ToolTraits, ToolTraitsLookup};

pub use crate::guard::urls::{normalize_url, urls_in_text};
pub use classify::{TurnExposure, WebStance, classify, prewarm};
pub use shell_words::{NetworkCommand, network_commands, split_commands};

/// The call names a tool this turn did not offer.
pub const TOOL_NOT_ADVERTISED: &str = "TOOL_NOT_ADVERTISED";
/// A web tool or network command when the user said not to go online (or asked for a local text edit).
pub const WEB_FORBIDDEN: &str = "WEB_FORBIDDEN";
/// A web tool or network command when the user only pasted a headline.
pub const NO_ACTION: &str = "NO_ACTION";
/// A fetch of a URL that neither the user nor this turn's search results gave.
pub const UNGROUNDED_URL: &str = "UNGROUNDED_URL";

/// Compiles a pattern written in this module; the unit tests run every one of them.
pub(crate) fn literal_regex(pattern: &'static str) -> Regex {
    #[allow(clippy::expect_used)]
    Regex::new(pattern).expect("literal pattern compiles (covered by the exposure tests)")
}

/// The per-turn hook: register it with `Agent::add_turn_hook`.
pub struct ExposurePolicy {
    /// What the offered tools declared (the filter sees only their specs).
    tools: Arc<dyn ToolTraitsLookup>,
}

impl ExposurePolicy {
    /// A policy that learns what each offered tool is from `tools` (the registry).
    pub fn new(tools: Arc<dyn ToolTraitsLookup>) -> Self {
        ExposurePolicy { tools }
    }
}

impl TurnHook for ExposurePolicy {
    fn begin_turn(&self, submitted: &str) -> TurnScope {
        let exposure = classify(submitted);
        let notices = if exposure.stance == WebStance::HeadlineOnly {
            vec![Notice::HeadlineOnly]
        } else {
            Vec::new()
        };
        let state = Arc::new(TurnState::new(exposure));
        TurnScope {
            gates: vec![Arc::new(ExposureGate(Arc::clone(&state)))],
            filter: Some(Arc::new(ExposureFilter {
                state,
                tools: Arc::clone(&self.tools),
            })),
            notices,
        }
    }
}

/// What the filter and the gate of one turn share.
#[derive(Debug)]
pub struct TurnState {
    stance: WebStance,
    grounded: Mutex<BTreeSet<String>>,
    offer: Mutex<Option<Offer>>,
}

/// The latest tool list the filter produced.
#[derive(Debug, Default)]
struct Offer {
    /// Every tool the filter was given.
    known: HashSet<String>,
    offered: HashSet<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl TurnState {
    /// State for a turn classified as `exposure`.
    pub fn new(exposure: TurnExposure) -> Self {
        TurnState {
            stance: exposure.stance,
            grounded: Mutex::new(exposure.grounded.into_iter().collect()),
            offer: Mutex::new(None),
        }
    }

    /// The turn's web stance.
    pub fn stance(&self) -> WebStance {
        self.stance
    }

    /// The grounded URLs so far (normalized, sorted).
    pub fn grounded(&self) -> Vec<String> {
        lock(&self.grounded).iter().cloned().collect()
    }

    fn web_allowed(&self) -> bool {
        self.stance == WebStance::Allowed
    }

    fn is_grounded(&self, url: &str) -> bool {
        normalize_url(url).is_some_and(|u| lock(&self.grounded).contains(&u))
    }

    /// The code and reason for web use while web is off.
    fn web_denial(&self, what: &str) -> GateVerdict {
        match self.stance {
            WebStance::HeadlineOnly => GateVerdict::deny(
                NO_ACTION,
                format!(
                    "{what}: the user only pasted a headline and has not said what to do; ask them instead of \
                     going online"
                ),
            ),
            WebStance::LocalTransform => GateVerdict::deny(
                WEB_FORBIDDEN,
                format!("{what}: this turn is a local edit of text the user gave; work offline"),
            ),
            _ => GateVerdict::deny(
                WEB_FORBIDDEN,
                format!("{what}: the user asked not to go online this turn"),
            ),
        }
    }
}

/// The turn's tool filter.
pub struct ExposureFilter {
    pub state: Arc<TurnState>,
    /// What each offered tool declared; a tool it does not know is treated as local.
    pub tools: Arc<dyn ToolTraitsLookup>,
}

impl ToolFilter for ExposureFilter {
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec> {
        let state = &self.state;
        let web_allowed = state.web_allowed();
        let has_url = !lock(&state.grounded).is_empty();
        let mut offer = Offer::default();
        let mut kept = Vec::with_capacity(tools.len());
        for tool in tools {
            offer.known.insert(tool.name.clone());
            let traits = self
                .tools
                .traits_of(&tool.name)
                .unwrap_or(ToolTraits::READ_ONLY);
            let hidden =
                (traits.network && !web_allowed) || (traits.needs_grounded_url && !has_url);
            if !hidden {
                offer.offered.insert(tool.name.clone());
                kept.push(tool.clone());
            }
        }
        if kept.is_empty() && !tools.is_empty() {
            tracing::warn!("the exposure filter removed every tool; only web tools are registered");
        }
        *lock(&state.offer) = Some(offer);
        kept
    }
}

/// The turn's execution-time check.
pub struct ExposureGate(pub Arc<TurnState>);

impl ExposureGate {
    fn check_command(&self, command: &str) -> GateVerdict {
        let state = &self.0;
        for found in network_commands(command) {
            if !state.web_allowed() {
                return state.web_denial(&format!("`{}` reaches the network", found.label));
            }
            let Some(urls) = found.urls else { continue };
            if urls.is_empty() {
                if is_info_only(command) {
                    continue;
                }
                return GateVerdict::deny(
                    UNGROUNDED_URL,
                    format!(
                        "`{}` without an http(s) URL; name the full URL, which must come from the user or this \
                         turn's search results",
                        found.label
                    ),
                );
            }
            for url in urls {
                if !is_loopback_url(&url) && !state.is_grounded(&url) {
                    return GateVerdict::deny(
                        UNGROUNDED_URL,
                        format!(
                            "`{}` to {url}, which neither the user nor this turn's search results gave",
                            found.label
                        ),
                    );
                }
            }
        }
        GateVerdict::Allow
    }
}

#[async_trait]
impl CallGate for ExposureGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        let state = &self.0;
        let traits = call.traits;
        let advertised = match &*lock(&state.offer) {
            Some(offer) if offer.known.contains(call.name) => offer.offered.contains(call.name),
            // Unknown to the filter (or no request yet): the executor reports unknown tools itself.
            _ => !traits.needs_grounded_url || !lock(&state.grounded).is_empty(),
        };
        if traits.network && !state.web_allowed() {
            return state.web_denial(&format!("`{}` is a web tool", call.name));
        }
        if !advertised {
            let why = if traits.needs_grounded_url {
                "; it appears once the user gives a URL or web_search finds one"
            } else {
                ""
            };
            return GateVerdict::deny(
                TOOL_NOT_ADVERTISED,
                format!("`{}` is not offered in this turn{why}", call.name),
            );
        }
        if traits.needs_grounded_url {
            let url = call.args.get("url").and_then(|v| v.as_str()).unwrap_or("");
            if !state.is_grounded(url) {
                return GateVerdict::deny(
                    UNGROUNDED_URL,
                    format!(
                        "{url:?} was not given by the user or found by web_search in this turn; fetch only \
                         those URLs"
                    ),
                );
            }
        }
        if traits.runs_commands
            && let Some(command) = call.args.get("command").and_then(|v| v.as_str())
        {
            return self.check_command(command);
        }
        GateVerdict::Allow
    }

    async fn after(&self, _call: GateCall<'_>, outcome: &ToolOutcome, _duration: Duration) {
        // Typed provenance only: URLs a tool returned as `discovered_urls`, never URLs parsed out of result text.
        if let ToolOutcome::Ok(output) = outcome
            && !output.discovered_urls.is_empty()
        {
            let mut grounded = lock(&self.0.grounded);
            grounded.extend(
                output
                    .discovered_urls
                    .iter()
                    .filter_map(|u| normalize_url(u)),
            );
        }
    }
}

/// `curl --version` and friends touch no URL.
fn is_info_only(command: &str) -> bool {
    split_commands(command).iter().any(|words| {
        words.len() == 2 && matches!(words[1].as_str(), "--version" | "-V" | "--help" | "-h")
    })
}

/// A URL on this machine (a local dev server) is not the web.
fn is_loopback_url(raw: &str) -> bool {
    let Ok(url) = url::Url::parse(raw) else {
        return false;
    };
    match url.host() {
        Some(url::Host::Domain(d)) => d == "localhost" || d.ends_with(".localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests;
