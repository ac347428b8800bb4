//! The browser opens only pages the user or the settings allow: through the scripted model and the real
//! chrome-devtools server, a navigate to a loopback page the user did not name is refused before it reaches the
//! browser, a project's own config cannot open it, and the user's `[browser] allow_local` does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use serde_json::json;

use crate::suite::browser::harness::{BrowserSandbox, peers, serve_pages_logged, tool_result};
use crate::support::{Reply, ScriptedServer};

const SECRET: &str = "internal-admin-panel-7";

/// A local "admin" page, the server's request log, and a script: status, navigate there, status.
fn admin_site() -> (String, Arc<Mutex<Vec<String>>>, ScriptedServer) {
    let (site, asked) = serve_pages_logged(vec![(
        "/admin",
        format!("<!doctype html><title>Admin</title><p>{SECRET}</p>"),
    )]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status_1", "browser_status", json!({}))]),
        Reply::tool_calls([(
            "nav",
            "mcp__chrome-devtools__navigate_page",
            json!({"type": "url", "url": format!("{site}/admin")}),
        )]),
        Reply::tool_calls([("status_2", "browser_status", json!({}))]),
        Reply::text("done"),
    ]);
    (site, asked, server)
}

// The user asks about "the admin page" without naming it, as a prompt-injected page would have the model do.
const PROMPT: &str = "summarise the admin page";

#[test]
fn a_loopback_page_the_user_did_not_name_is_refused_and_never_opened() {
    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let sandbox = BrowserSandbox::new(&server_bin, &chromium);
    // A project cannot open local pages for itself: its own config is ignored for this setting.
    let project_config = sandbox.project.path().join(".paicli");
    std::fs::create_dir_all(&project_config).unwrap();
    std::fs::write(
        project_config.join("config.toml"),
        "[browser]\nallow_local = true\n",
    )
    .unwrap();
    let (site, asked, server) = admin_site();
    let output = sandbox.run(&server, PROMPT, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The one call that would have done something was refused: exit 4.
    assert_eq!(output.status.code(), Some(4), "stderr: {stderr}");
    assert!(
        stderr.contains("ignored `browser.allow_local`"),
        "stderr: {stderr}"
    );

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 4, "stderr: {stderr}");
    let nav = tool_result(&requests[2].body, "nav");
    assert!(nav.contains("NETWORK_BLOCKED"), "{nav}");
    assert!(nav.contains("allow_local = true"), "{nav}");
    assert!(nav.contains("本机"), "{nav}");
    // The page was never asked for, and the browser shows no such tab.
    assert_eq!(*asked.lock().unwrap(), Vec::<String>::new());
    let status = tool_result(&requests[3].body, "status_2");
    assert!(!status.contains(&site), "{status}");
    assert!(!status.contains("Admin"), "{status}");
}

#[test]
fn the_users_allow_local_setting_opens_loopback_pages() {
    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let sandbox = BrowserSandbox::new(&server_bin, &chromium);
    std::fs::create_dir_all(sandbox.paicli_home()).unwrap();
    std::fs::write(
        sandbox.paicli_home().join("config.toml"),
        "[browser]\nallow_local = true\n",
    )
    .unwrap();
    let (site, asked, server) = admin_site();
    let output = sandbox.run(&server, PROMPT, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 4, "stderr: {stderr}");
    let nav = tool_result(&requests[2].body, "nav");
    assert!(!nav.contains("[denied"), "{nav}");
    assert!(asked.lock().unwrap().contains(&"/admin".to_string()));
    let status = tool_result(&requests[3].body, "status_2");
    assert!(
        status.contains(&format!("Admin — {site}/admin")),
        "{status}"
    );
}
