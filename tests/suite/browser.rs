//! The browser end to end: the real chrome-devtools MCP server driving Debian's Chromium, started only when the
//! model first calls a browser tool; a page whose text only JavaScript writes; batch order; the per-turn filter.

#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod harness;

use serde_json::json;

use crate::support::{Reply, ScriptedServer};
use harness::{BrowserSandbox, alive, events, peers, serve_pages, tool_names, tool_result};

/// Text that exists only once the page's script ran (the source spells it in pieces).
const SCRIPT_MADE: &str = "made-by-javascript-42";

fn dynamic_page() -> String {
    "<!doctype html><title>Dynamic page</title><main id=out>loading</main>\
     <script>document.getElementById('out').textContent = 'made-by-' + 'javascript-' + (6 * 7);</script>"
        .to_string()
}

#[test]
fn the_model_reads_a_page_that_javascript_writes_through_the_real_browser() {
    let Some((chromium, server_bin)) = peers() else {
        return;
    };
    let sandbox = BrowserSandbox::new(&server_bin, &chromium);
    std::fs::write(sandbox.project.path().join("a.txt"), "alpha").unwrap();
    std::fs::write(sandbox.project.path().join("b.txt"), "beta").unwrap();
    let site = serve_pages(vec![("/", dynamic_page())]);
    let page = format!("{site}/");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status_1", "browser_status", json!({}))]),
        // A browser call between two reads: the whole batch runs one call at a time, in order.
        Reply::tool_calls([
            ("read_a", "read_file", json!({"path": "a.txt"})),
            (
                "nav",
                "mcp__chrome-devtools__navigate_page",
                json!({"type": "url", "url": page}),
            ),
            ("read_b", "read_file", json!({"path": "b.txt"})),
        ]),
        Reply::tool_calls([("snap", "mcp__chrome-devtools__take_snapshot", json!({}))]),
        Reply::tool_calls([("status_2", "browser_status", json!({}))]),
        Reply::text("done"),
    ]);
    // The user names the local page: that is what lets the browser open it (`docs/browser.md`).
    let output = sandbox.run(&server, &format!("open {page} and read it"), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 5, "stderr: {stderr}");
    // Before the first browser call only the three browser tools exist; the server's join once it runs.
    let first = tool_names(&requests[0].body);
    assert!(first.contains(&"browser_status".to_string()), "{first:?}");
    assert!(
        !first
            .iter()
            .any(|n| n.starts_with("mcp__chrome-devtools__")),
        "{first:?}"
    );
    let second = tool_names(&requests[1].body);
    for tool in ["navigate_page", "take_snapshot", "click"] {
        assert!(
            second.contains(&format!("mcp__chrome-devtools__{tool}")),
            "{second:?}"
        );
    }
    let status = tool_result(&requests[1].body, "status_1");
    assert!(status.contains("mode: isolated"), "{status}");
    assert!(status.contains("server: running"), "{status}");

    // In call order: the results come back as the calls were made (the browser call runs alone between them).
    let order: Vec<String> = events(&output)
        .iter()
        .filter(|e| e["type"] == "user")
        .flat_map(|e| {
            e["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|block| block["type"] == "tool_result")
        .filter_map(|block| block["tool_use_id"].as_str().map(str::to_string))
        .filter(|id| ["read_a", "nav", "read_b"].contains(&id.as_str()))
        .collect();
    assert_eq!(order, ["read_a", "nav", "read_b"]);

    // The snapshot holds what the script wrote, wrapped as untrusted data.
    let snapshot = tool_result(&requests[3].body, "snap");
    assert!(
        snapshot.starts_with(
            "<tool_result tool=\"mcp__chrome-devtools__take_snapshot\" trust=\"untrusted-data\">"
        ),
        "{snapshot}"
    );
    assert!(snapshot.contains(SCRIPT_MADE), "{snapshot}");
    let status = tool_result(&requests[4].body, "status_2");
    assert!(
        status.contains(&format!("Dynamic page — {page} [selected]")),
        "{status}"
    );

    // One server and one browser were started, and neither outlives the session.
    assert_eq!(sandbox.starts("server").len(), 1);
    let browsers = sandbox.starts("browser");
    assert_eq!(browsers.len(), 1);
    assert!(!alive(browsers[0]), "the browser outlived paicli");
}

#[test]
fn a_session_that_never_browses_starts_no_browser_server() {
    // The wrappers would record a start; they point at nothing real, so no peer is needed.
    let missing = std::path::Path::new("/nonexistent/paicli-test");
    let sandbox = BrowserSandbox::new(missing, missing);
    std::fs::write(sandbox.project.path().join("a.txt"), "alpha").unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("read", "read_file", json!({"path": "a.txt"}))]),
        Reply::text("done"),
    ]);
    let output = sandbox.run(&server, "read a.txt", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let names = tool_names(&server.chat_requests()[0].body);
    assert!(names.contains(&"browser_status".to_string()), "{names:?}");
    assert_eq!(sandbox.starts("server"), Vec::<u32>::new());
    assert_eq!(sandbox.starts("browser"), Vec::<u32>::new());
}

#[test]
fn dont_go_online_removes_the_browser_tools() {
    let missing = std::path::Path::new("/nonexistent/paicli-test");
    let sandbox = BrowserSandbox::new(missing, missing);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("status", "browser_status", json!({}))]),
        Reply::text("ok"),
    ]);
    let output = sandbox.run(&server, "不要联网，总结一下这个项目", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let requests = server.chat_requests();
    let names = tool_names(&requests[0].body);
    assert!(names.contains(&"read_file".to_string()), "{names:?}");
    for browser in ["browser_status", "browser_connect", "browser_disconnect"] {
        assert!(!names.contains(&browser.to_string()), "{names:?}");
    }
    // A call anyway is refused, and nothing starts.
    let refused = tool_result(&requests[1].body, "status");
    assert!(refused.contains("WEB_FORBIDDEN"), "{refused}");
    assert_eq!(sandbox.starts("server"), Vec::<u32>::new());
}

#[test]
fn an_mcp_json_entry_that_disables_chrome_devtools_removes_the_browser() {
    let missing = std::path::Path::new("/nonexistent/paicli-test");
    let sandbox = BrowserSandbox::new(missing, missing);
    std::fs::create_dir_all(sandbox.paicli_home()).unwrap();
    std::fs::write(
        sandbox.paicli_home().join("mcp.json"),
        json!({"mcpServers": {"chrome-devtools": {"command": "chrome-devtools-mcp", "disabled": true}}})
            .to_string(),
    )
    .unwrap();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let output = sandbox.run(&server, "hello", &[]);
    assert_eq!(output.status.code(), Some(0));
    let names = tool_names(&server.chat_requests()[0].body);
    assert!(
        !names.iter().any(|n| n.starts_with("browser_")),
        "{names:?}"
    );
}

mod batch {
    //! Any browser tool in a batch makes the whole batch run one call at a time, reads included.

    use std::path::Path;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use async_trait::async_trait;
    use paicli::guard::path_guard::PathGuard;
    use paicli::llm::ToolCall;
    use paicli::tools::browser::BROWSER_CONTROL;
    use paicli::tools::executor::NullObserver;
    use paicli::tools::{
        Executor, ExecutorOptions, SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome,
        ToolRegistry, ToolTraits,
    };
    use serde_json::{Map, Value, json};
    use tokio::sync::{Semaphore, mpsc};

    /// Parallel-safe: says it started, then waits until the test lets it through.
    struct Read {
        started: mpsc::UnboundedSender<String>,
        gate: Semaphore,
        in_flight: AtomicUsize,
        max_in_flight: AtomicUsize,
    }

    #[async_trait]
    impl Tool for Read {
        fn name(&self) -> &str {
            "read"
        }
        fn description(&self) -> &str {
            "Waits at a gate."
        }
        fn parameters(&self) -> Value {
            json!({"type": "object", "properties": {"id": {"type": "string"}}})
        }
        fn traits(&self) -> ToolTraits {
            ToolTraits::READ_ONLY
        }
        async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.max_in_flight.fetch_max(now, Ordering::SeqCst);
            let id = args["id"].as_str().unwrap_or_default().to_string();
            self.started.send(id).unwrap();
            self.gate.acquire().await.unwrap().forget();
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            ToolOutcome::ok("read")
        }
    }

    /// Declares what `browser_status` declares.
    struct BrowserLike;

    #[async_trait]
    impl Tool for BrowserLike {
        fn name(&self) -> &str {
            "browser_like"
        }
        fn description(&self) -> &str {
            "A browser tool."
        }
        fn parameters(&self) -> Value {
            json!({"type": "object", "properties": {}})
        }
        fn traits(&self) -> ToolTraits {
            BROWSER_CONTROL
        }
        async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
            ToolOutcome::ok("status")
        }
    }

    fn call(id: &str, name: &str, args: Value) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: args.to_string(),
        }
    }

    fn context(root: &Path) -> ToolContext {
        ToolContext::new(
            PathGuard::new(root).unwrap(),
            SpillStore::new(root, false, 32_000),
            ToolLimits::default(),
        )
    }

    async fn max_reads_at_once(with_browser: bool) -> (usize, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let (started_tx, mut started) = mpsc::unbounded_channel();
        let read = Arc::new(Read {
            started: started_tx,
            gate: Semaphore::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        });
        let tools: Vec<Arc<dyn Tool>> = vec![read.clone(), Arc::new(BrowserLike)];
        let exec = Executor::new(
            Arc::new(ToolRegistry::with_tools(tools)),
            ExecutorOptions::default(),
        );
        let mut calls = vec![
            call("r1", "read", json!({"id": "r1"})),
            call("r2", "read", json!({"id": "r2"})),
        ];
        if with_browser {
            calls.push(call("b", "browser_like", json!({})));
        }
        let ctx = context(&dir.path().canonicalize().unwrap());
        let control = async {
            let mut order = Vec::new();
            while order.len() < 2 {
                order.push(started.recv().await.unwrap());
                // The executor ran on this thread until it waited: a parallel step has started both reads by now.
                while let Ok(other) = started.try_recv() {
                    order.push(other);
                }
                read.gate.add_permits(order.len());
            }
            order
        };
        let (results, order) = tokio::join!(exec.run_batch(&calls, &ctx, &NullObserver), control);
        assert!(results.iter().all(|r| r.outcome.is_ok()));
        (read.max_in_flight.load(Ordering::SeqCst), order)
    }

    #[tokio::test]
    async fn a_browser_tool_in_a_batch_makes_the_reads_run_one_at_a_time() {
        // Without it the two reads run together (so the check can tell), with it one after the other, in order.
        assert_eq!(max_reads_at_once(false).await.0, 2);
        assert_eq!(
            max_reads_at_once(true).await,
            (1, vec!["r1".into(), "r2".into()])
        );
    }
}

mod on_demand {
    //! The manager's on-demand servers (the built-in browser's lifecycle), with the scripted stdio peer.

    use std::collections::BTreeMap;
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::time::Duration;

    use paicli::mcp::{Launch, McpConfig, McpManager, ServerState, StartOptions};
    use paicli::tools::ToolRegistry;

    use crate::suite::mcp_servers::peers;

    fn state(manager: &McpManager, name: &str) -> ServerState {
        manager
            .status()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap()
            .state
    }

    #[tokio::test]
    async fn an_on_demand_server_starts_when_asked_and_a_relaunch_leaves_it_waiting_again() {
        let Some(python) = peers::python() else {
            return;
        };
        let home = tempfile::tempdir().unwrap();
        let registry = Arc::new(ToolRegistry::new());
        let manager = McpManager::start(
            McpConfig::default(),
            paicli::tools::mcp::RegistryPublisher::new(Arc::clone(&registry)),
            StartOptions {
                home: home.path().to_path_buf(),
                project_root: home.path().to_path_buf(),
                init_timeout: Duration::from_secs(60),
                call_timeout: Duration::from_secs(60),
                trust_project: false,
                browser: None,
            },
        );
        let launch = Launch::Stdio {
            command: python.to_string_lossy().into_owned(),
            args: vec![
                peers::peer_script().to_string_lossy().into_owned(),
                "normal".to_string(),
            ],
            env: BTreeMap::new(),
            cwd: PathBuf::from(home.path()),
        };
        assert!(manager.add_on_demand("peer", launch.clone()));
        // A configured server of that name wins.
        assert!(!manager.add_on_demand("peer", launch.clone()));
        assert_eq!(state(&manager, "peer"), ServerState::OnDemand);
        assert!(manager.wait_for_startup(Duration::from_millis(1)).await);
        assert!(
            registry
                .names()
                .iter()
                .all(|n| !n.starts_with("mcp__peer__"))
        );

        manager
            .ensure_ready("peer", Duration::from_secs(60))
            .await
            .unwrap();
        assert_eq!(state(&manager, "peer"), ServerState::Ready);
        let tools = registry.names();
        assert!(
            tools.iter().any(|n| n.starts_with("mcp__peer__")),
            "{tools:?}"
        );

        manager.relaunch_on_demand("peer", launch).await.unwrap();
        assert_eq!(state(&manager, "peer"), ServerState::OnDemand);
        assert!(
            registry
                .names()
                .iter()
                .all(|n| !n.starts_with("mcp__peer__"))
        );
        manager
            .ensure_ready("peer", Duration::from_secs(60))
            .await
            .unwrap();
        assert!(
            registry
                .names()
                .iter()
                .any(|n| n.starts_with("mcp__peer__"))
        );
        manager.shutdown().await;
    }
}
