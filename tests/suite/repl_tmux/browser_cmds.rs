//! `/browser` in the real terminal: it reports and never starts a browser on its own; and the approval question
//! before a page action on a login page, with the real Chromium.

use super::Sandbox;
use crate::support::ScriptedServer;

#[test]
fn browser_reports_the_isolated_mode_and_a_failed_connect_says_how_to_start_chrome() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start_with(
        &server,
        &[(
            "PAICLI_BROWSER_MCP_COMMAND",
            "/nonexistent/chrome-devtools-mcp",
        )],
    );
    // The on-demand server is not counted as "not ready".
    assert!(
        !t.screen().contains("ready (/mcp for details)"),
        "{}",
        t.screen()
    );
    t.submit("/browser");
    t.wait_for("mode: isolated browser");
    t.wait_for("server: not started (it starts on the first browser call)");
    t.submit("/mcp");
    t.wait_for("on demand");
    t.submit("/browser connect 9");
    t.wait_for("could not attach to a Chrome at http://127.0.0.1:9");
    t.wait_for("--remote-debugging-port=9222");
    t.submit("/browser nonsense");
    t.wait_for("usage: /browser [status|connect [port]|tabs|disconnect]");
    t.submit("/browser tabs");
    t.wait_for("server: not started");
}

#[test]
fn a_page_action_on_a_login_page_asks_each_time_and_esc_cancels() {
    use crate::suite::browser::harness::{peers, serve_pages};
    use crate::support::Reply;
    use serde_json::json;

    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let site = serve_pages(vec![(
        "/login",
        "<!doctype html><title>Sign in</title><input name=user>".to_string(),
    )]);
    let press = || {
        Reply::tool_calls([(
            "press",
            "mcp__chrome-devtools__press_key",
            json!({"key": "Tab"}),
        )])
    };
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status", "browser_status", json!({}))]),
        Reply::tool_calls([(
            "nav",
            "mcp__chrome-devtools__navigate_page",
            json!({"type": "url", "url": format!("{site}/login")}),
        )]),
        press(),
        Reply::text("Pressed."),
        press(),
    ]);
    let sandbox = Sandbox::new();
    let t = sandbox.start_with(
        &server,
        &[
            ("PAICLI_BROWSER_MCP_COMMAND", server_bin.to_str().unwrap()),
            ("PAICLI_BROWSER_EXECUTABLE", chromium.to_str().unwrap()),
            ("PAICLI_APPROVAL", "auto"),
        ],
    );
    // Auto mode (the default) runs browser calls directly, but asks before acting on a login page.
    t.submit(&format!("sign me in at {site}/login"));
    let screen = t.wait_for("Approve? [y/Enter]");
    assert!(screen.contains("looks like a login page"), "{screen}");
    t.keys(&["y"]);
    t.wait_for("Pressed.");
    t.wait_prompt(2, super::terminal::DEADLINE);
    // Asked again (an approval of a sensitive call is never remembered); ESC denies and cancels.
    t.submit("once more");
    t.wait_until("the second question", super::terminal::DEADLINE, |s| {
        s.matches("Approve? [y/Enter]").count() >= 2
    });
    t.keys(&["Escape"]);
    let screen = t.wait_prompt(3, super::terminal::DEADLINE);
    assert!(screen.contains("denied; the task is cancelled"), "{screen}");
    t.submit("/browser");
    t.wait_for("server: running");
    t.wait_for(&format!("Sign in — {site}/login"));
}

#[test]
fn a_local_page_opens_once_the_user_names_it_and_the_refusal_says_how() {
    use crate::suite::browser::harness::{peers, serve_pages};
    use crate::support::Reply;
    use serde_json::json;

    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let site = serve_pages(vec![(
        "/admin",
        "<!doctype html><title>Admin panel</title><p>hi".to_string(),
    )]);
    let navigate = || {
        Reply::tool_calls([(
            "nav",
            "mcp__chrome-devtools__navigate_page",
            json!({"type": "url", "url": format!("{site}/admin")}),
        )])
    };
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status", "browser_status", json!({}))]),
        navigate(),
        Reply::text("The browser refused it."),
        navigate(),
        Reply::text("Opened."),
    ]);
    let sandbox = Sandbox::new();
    let t = sandbox.start_with(
        &server,
        &[
            ("PAICLI_BROWSER_MCP_COMMAND", server_bin.to_str().unwrap()),
            ("PAICLI_BROWSER_EXECUTABLE", chromium.to_str().unwrap()),
        ],
    );
    // Not named by the user: refused before the browser sees it, and the line says what would open it.
    t.submit("look at the admin page");
    t.wait_for("The browser refused it.");
    let screen = t.wait_prompt(2, super::terminal::DEADLINE);
    assert!(screen.contains("denied"), "{screen}");
    assert!(screen.contains("allow_local"), "{screen}");
    // Named in the next message (host and port, no scheme): it opens.
    let host = site.trim_start_matches("http://");
    t.submit(&format!("it runs on {host}, open it"));
    t.wait_for("Opened.");
    t.wait_prompt(3, super::terminal::DEADLINE);
    t.submit("/browser tabs");
    t.wait_for(&format!("Admin panel — {site}/admin"));
}
