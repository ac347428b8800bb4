//! The browser (spec §1, §6.3): chrome-devtools-mcp as the built-in `chrome-devtools` MCP server, started on
//! first use; `browser_status` / `browser_connect` / `browser_disconnect`; the traits of the server's own tools;
//! the page tracker the approval gate reads to spot login, payment and account pages; and the check of every URL
//! the browser is asked to open (`url_gate`). See `docs/browser.md`.

pub mod controller;
pub mod pages;
pub mod tools;
pub mod url_gate;

use crate::mcp::browser_entry::CHROME_DEVTOOLS;
use crate::protocol::{Risk, ToolTraits};

pub use controller::{BrowserController, BrowserError, BrowserReport, DEFAULT_BROWSER_URL};
pub use pages::{PageTracker, Tab};
pub use tools::browser_tools;
pub use url_gate::PageUrlHook;

/// The browser tools' own traits: they reach the network and bring page text back, and any of them in a batch
/// makes the whole batch run one call at a time (a page is one shared state). Harmless otherwise.
pub const BROWSER_CONTROL: ToolTraits = ToolTraits {
    external_content: true,
    network: true,
    serial_batch: true,
    ..ToolTraits::side_effect(Risk::None)
};

/// The chrome-devtools server's tools: like [`BROWSER_CONTROL`], and side-effecting (they drive a real browser).
const BROWSER_PAGE_TOOL: ToolTraits = ToolTraits {
    external_content: true,
    network: true,
    serial_batch: true,
    ..ToolTraits::side_effect(Risk::Medium)
};

/// The server's tools that act on the page as a user would (input, dialogs, scripts): on a login, payment or
/// account page they need the person.
const PAGE_ACTIONS: &[&str] = &[
    "click",
    "drag",
    "evaluate_script",
    "fill",
    "fill_form",
    "handle_dialog",
    "press_key",
    "type_text",
    "upload_file",
];

/// The traits of `tool` of MCP server `server`, when that server is the browser.
pub fn server_tool_traits(server: &str, tool: &str) -> Option<ToolTraits> {
    (server == CHROME_DEVTOOLS).then(|| ToolTraits {
        acts_on_page: PAGE_ACTIONS.contains(&tool),
        ..BROWSER_PAGE_TOOL
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_actions_act_on_the_page_and_every_browser_tool_is_serial_web_content() {
        let click = server_tool_traits(CHROME_DEVTOOLS, "click");
        let snapshot = server_tool_traits(CHROME_DEVTOOLS, "take_snapshot");
        for traits in [click, snapshot] {
            let traits = traits.unwrap_or_default();
            assert!(traits.network && traits.external_content && traits.serial_batch);
            assert!(!traits.parallel_safe);
        }
        assert!(click.is_some_and(|t| t.acts_on_page));
        assert!(snapshot.is_some_and(|t| !t.acts_on_page));
        assert_eq!(server_tool_traits("everything", "click"), None);
    }
}
