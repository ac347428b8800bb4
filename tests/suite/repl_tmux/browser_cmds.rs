//! `/browser` in the real terminal, with no browser installed: it reports, and never starts one on its own.

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
