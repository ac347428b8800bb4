#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Map, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::protocol::ToolTraits;

async fn check(scope: &TurnScope, name: &str, args: Value) -> GateVerdict {
    let args: Map<String, Value> = args.as_object().unwrap().clone();
    let cancel = CancellationToken::new();
    scope.gates[0]
        .check(GateCall {
            id: "1",
            name,
            args: &args,
            traits: ToolTraits::READ_ONLY,
            write_targets: &[],
            cancel: &cancel,
        })
        .await
}

fn denied(verdict: &GateVerdict) -> Option<(&str, &str)> {
    match verdict {
        GateVerdict::Deny { code, reason } => Some((code.as_str(), reason.as_str())),
        _ => None,
    }
}

const NAVIGATE: &str = "mcp__chrome-devtools__navigate_page";

#[test]
fn only_the_browser_servers_tools_are_checked_and_only_their_url_arguments() {
    assert!(is_browser_page_tool(NAVIGATE));
    assert!(is_browser_page_tool("mcp__chrome-devtools__new_page"));
    assert!(!is_browser_page_tool("mcp__chrome-devtools-2__new_page"));
    assert!(!is_browser_page_tool("browser_connect"));
    assert!(!is_browser_page_tool("web_fetch"));
    let args =
        json!({"url": "a", "installUrlOrBundleUrl": "b", "type": "url", "timeout": 5, "URL": "c"});
    let mut found: Vec<&str> = url_arguments(args.as_object().unwrap()).collect();
    found.sort_unstable();
    assert_eq!(found, ["a", "b", "c"]);
}

#[tokio::test]
async fn a_loopback_page_the_user_did_not_name_is_refused_with_the_fetch_code() {
    let hook = PageUrlHook::new(PageRules::new(false));
    let scope = hook.begin_turn("open the admin page");
    for (tool, args) in [
        (
            NAVIGATE,
            json!({"type": "url", "url": "http://127.0.0.1:8080/admin"}),
        ),
        (
            "mcp__chrome-devtools__new_page",
            json!({"url": "http://169.254.169.254/"}),
        ),
        (
            NAVIGATE,
            json!({"type": "url", "url": "file:///etc/passwd"}),
        ),
        (
            "mcp__chrome-devtools__install_pwa",
            json!({"installUrlOrBundleUrl": "file:///tmp/x.swbn"}),
        ),
    ] {
        let verdict = check(&scope, tool, args.clone()).await;
        let (code, _) = denied(&verdict).unwrap_or_else(|| panic!("{tool} {args}: {verdict:?}"));
        assert_eq!(code, NETWORK_BLOCKED);
    }
    // No URL, a blank page, or not the browser: nothing to check.
    let back = check(&scope, NAVIGATE, json!({"type": "back"})).await;
    assert_eq!(back, GateVerdict::Allow);
    let blank = check(
        &scope,
        "mcp__chrome-devtools__new_page",
        json!({"url": "about:blank"}),
    )
    .await;
    assert_eq!(blank, GateVerdict::Allow);
    let other = check(
        &scope,
        "mcp__fetcher__get",
        json!({"url": "http://127.0.0.1/"}),
    )
    .await;
    assert_eq!(other, GateVerdict::Allow);
}

#[tokio::test]
async fn a_host_the_user_named_stays_open_on_later_turns() {
    let hook = PageUrlHook::new(PageRules::new(false));
    let first = hook.begin_turn("start the dev server and check localhost:3000");
    let home = json!({"type": "url", "url": "http://localhost:3000/"});
    assert_eq!(check(&first, NAVIGATE, home).await, GateVerdict::Allow);
    let later = hook.begin_turn("now the settings page");
    let settings = json!({"type": "url", "url": "http://localhost:3000/settings"});
    assert_eq!(check(&later, NAVIGATE, settings).await, GateVerdict::Allow);
    let elsewhere = json!({"type": "url", "url": "http://localhost:5432/"});
    assert!(denied(&check(&later, NAVIGATE, elsewhere).await).is_some());
}

#[tokio::test]
async fn allow_local_opens_loopback_but_not_the_metadata_address() {
    let hook = PageUrlHook::new(PageRules::new(true));
    let scope = hook.begin_turn("check my app");
    let local = json!({"type": "url", "url": "http://127.0.0.1:8080/"});
    assert_eq!(check(&scope, NAVIGATE, local).await, GateVerdict::Allow);
    let metadata = json!({"url": "http://169.254.169.254/latest/meta-data/"});
    let verdict = check(&scope, "mcp__chrome-devtools__new_page", metadata).await;
    let (_, reason) = denied(&verdict).unwrap();
    assert!(
        reason.contains("link-local") || reason.contains("169.254.169.254"),
        "{reason}"
    );
}
