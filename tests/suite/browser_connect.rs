//! `browser_connect` / `browser_disconnect` against a Chromium the test starts with `--remote-debugging-port=0`,
//! and the sensitive-page rule: a page action on a login page is refused in `-p`, naming the flag.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::browser::harness::{BrowserSandbox, peers, serve_pages, tool_result};
use crate::support::{Reply, ScriptedServer};

/// A Chromium with remote debugging on a free port, killed on drop.
struct DebuggableChromium {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
}

impl DebuggableChromium {
    fn start(chromium: &Path) -> Self {
        let profile = tempfile::tempdir().unwrap();
        let mut command = Command::new(chromium);
        command
            .arg("--headless")
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(["--no-first-run", "--no-default-browser-check"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if is_root() {
            command.arg("--no-sandbox");
        }
        let child = command.arg("about:blank").spawn().unwrap();
        // Chromium writes the port it bound to this file once it listens.
        let file = profile.path().join("DevToolsActivePort");
        let deadline = Instant::now() + Duration::from_secs(60);
        let port = loop {
            let port = std::fs::read_to_string(&file)
                .ok()
                .and_then(|text| text.lines().next().and_then(|l| l.trim().parse().ok()));
            if let Some(port) = port {
                break port;
            }
            assert!(
                Instant::now() < deadline,
                "Chromium wrote no DevToolsActivePort"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        DebuggableChromium {
            child,
            port,
            _profile: profile,
        }
    }
}

impl Drop for DebuggableChromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

#[test]
fn connect_attaches_to_a_running_chromium_and_disconnect_goes_back_to_isolated() {
    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let theirs = DebuggableChromium::start(&chromium);
    let url = format!("http://127.0.0.1:{}", theirs.port);
    let sandbox = BrowserSandbox::new(&server_bin, &chromium);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("connect", "browser_connect", json!({"browser_url": url}))]),
        Reply::tool_calls([("status_1", "browser_status", json!({}))]),
        Reply::tool_calls([("disconnect", "browser_disconnect", json!({}))]),
        Reply::tool_calls([("status_2", "browser_status", json!({}))]),
        Reply::tool_calls([(
            "bad",
            "browser_connect",
            json!({"browser_url": "http://127.0.0.1:9"}),
        )]),
        Reply::text("done"),
    ]);
    let output = sandbox.run(&server, "use my browser", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 6, "stderr: {stderr}");

    let connected = format!("mode: connected to the user's Chrome at {url}");
    let connect = tool_result(&requests[1].body, "connect");
    assert!(connect.contains(&connected), "{connect}");
    assert!(
        connect.contains("about:blank"),
        "their tab is listed: {connect}"
    );
    let status = tool_result(&requests[2].body, "status_1");
    assert!(status.contains(&connected), "{status}");
    assert!(status.contains("server: running"), "{status}");

    let disconnect = tool_result(&requests[3].body, "disconnect");
    assert!(disconnect.contains("mode: isolated"), "{disconnect}");
    assert!(disconnect.contains("server: not started"), "{disconnect}");
    let status = tool_result(&requests[4].body, "status_2");
    assert!(status.contains("mode: isolated"), "{status}");
    assert!(status.contains("server: running"), "{status}");

    // Nothing listens there: the error says how to start Chrome, and the isolated browser is back.
    let bad = tool_result(&requests[5].body, "bad");
    assert!(bad.contains("--remote-debugging-port"), "{bad}");
    // The isolated browser ran once (the second status); attaching launches none.
    assert_eq!(sandbox.starts("browser").len(), 1);
    // Their Chromium is still running after paicli detached and exited.
    let mut theirs = theirs;
    assert!(theirs.child.try_wait().unwrap().is_none());
}

#[test]
fn a_page_action_on_a_login_page_needs_a_person_and_print_mode_refuses_it_naming_the_flag() {
    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let site = serve_pages(vec![
        (
            "/login",
            "<!doctype html><title>Sign in</title><button>Sign in</button>".to_string(),
        ),
        (
            "/",
            "<!doctype html><title>Home</title><button>Go</button>".to_string(),
        ),
    ]);
    let sandbox = BrowserSandbox::new(&server_bin, &chromium);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status", "browser_status", json!({}))]),
        Reply::tool_calls([(
            "home",
            "mcp__chrome-devtools__navigate_page",
            json!({"type": "url", "url": format!("{site}/")}),
        )]),
        Reply::tool_calls([(
            "press_home",
            "mcp__chrome-devtools__press_key",
            json!({"key": "Tab"}),
        )]),
        Reply::tool_calls([(
            "login",
            "mcp__chrome-devtools__navigate_page",
            json!({"type": "url", "url": format!("{site}/login")}),
        )]),
        Reply::tool_calls([(
            "press_login",
            "mcp__chrome-devtools__press_key",
            json!({"key": "Tab"}),
        )]),
        Reply::text("done"),
    ]);
    let output = sandbox.run(&server, &format!("sign me in on {site}"), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 6, "stderr: {stderr}");

    // An ordinary page: the key press runs (auto mode, nobody asked).
    let home = tool_result(&requests[3].body, "press_home");
    assert!(!home.contains("[denied"), "{home}");
    // The login page: refused without a person, naming the flag that would run it.
    let login = tool_result(&requests[5].body, "press_login");
    assert!(login.contains("APPROVAL_REQUIRED"), "{login}");
    assert!(login.contains("--approval full"), "{login}");
    assert!(login.contains("login page"), "{login}");
}
