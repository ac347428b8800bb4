//! The MCP client against real servers: `@modelcontextprotocol/server-everything` over stdio and streamable HTTP,
//! PyPI `mcp-server-time`, and a scripted stdio peer for the failure paths (exit mid-call, silent initialize,
//! cancellation, interleaved `tools/list_changed`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod oneshot;
pub mod peers;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::guard::path_guard::PathGuard;
use paicli::mcp::{Launch, McpConfig, McpManager, Origin, ServerConfig, ServerState, StartOptions};
use paicli::tools::{SpillStore, ToolContext, ToolLimits, ToolOutcome, ToolRegistry};

/// Generous bound for things that must happen promptly (a cold `npx`-style start can take seconds on CI).
const PROMPT: Duration = Duration::from_secs(60);

struct Harness {
    manager: McpManager,
    registry: Arc<ToolRegistry>,
    _home: tempfile::TempDir,
    dir: tempfile::TempDir,
}

fn stdio(name: &str, command: &Path, args: &[&str]) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        origin: Origin::User,
        source: PathBuf::from("test"),
        disabled: false,
        launch: Ok(Launch::Stdio {
            command: command.to_string_lossy().into_owned(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: BTreeMap::new(),
            cwd: std::env::temp_dir(),
        }),
    }
}

fn peer(name: &str, python: &Path, mode: &str) -> ServerConfig {
    let script = peers::peer_script();
    stdio(name, python, &[script.to_str().unwrap(), mode])
}

fn start(servers: Vec<ServerConfig>, init_timeout: Duration, call_timeout: Duration) -> Harness {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let registry = Arc::new(ToolRegistry::new());
    let manager = McpManager::start(
        McpConfig {
            servers,
            file_errors: Vec::new(),
            file_notices: Vec::new(),
        },
        paicli::tools::mcp::RegistryPublisher::new(Arc::clone(&registry)),
        StartOptions {
            home: home.path().to_path_buf(),
            project_root: dir.path().to_path_buf(),
            init_timeout,
            call_timeout,
            trust_project: false,
            browser: None,
        },
    );
    Harness {
        manager,
        registry,
        _home: home,
        dir,
    }
}

impl Harness {
    fn ctx(&self, cancel: CancellationToken) -> ToolContext {
        let guard = PathGuard::new(self.dir.path()).unwrap();
        let spill = SpillStore::new(self.dir.path(), false, 32_000);
        ToolContext {
            cancel,
            ..ToolContext::new(guard, spill, ToolLimits::default())
        }
    }

    async fn call(&self, tool: &str, args: Value) -> ToolOutcome {
        self.call_with(tool, args, CancellationToken::new()).await
    }

    async fn call_with(&self, tool: &str, args: Value, cancel: CancellationToken) -> ToolOutcome {
        let tool = self
            .registry
            .get(tool)
            .unwrap_or_else(|| panic!("no tool {tool}; have {:?}", self.registry.names()));
        let Value::Object(args) = args else {
            panic!("args must be an object")
        };
        tool.execute(&args, &self.ctx(cancel)).await
    }

    fn state(&self, name: &str) -> ServerState {
        self.manager
            .status()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap()
            .state
    }

    async fn ready(&self) {
        assert!(
            self.manager.wait_for_startup(PROMPT).await,
            "servers still starting"
        );
    }

    /// Waits (bounded) until `check` holds.
    async fn until(&self, what: &str, check: impl Fn(&Harness) -> bool) {
        let deadline = tokio::time::Instant::now() + PROMPT;
        while !check(self) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting for {what}; status {:?}",
                self.manager.status()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn logs(&self, name: &str) -> String {
        self.manager.logs(name).unwrap_or_default().join("\n")
    }
}

fn ok_text(outcome: ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text,
        other => panic!("expected success, got {other:?}"),
    }
}

/// Everything the stdio and HTTP runs of server-everything share.
async fn exercise_everything(h: &Harness) {
    h.ready().await;
    assert_eq!(h.state("everything"), ServerState::Ready);
    let echo = h.registry.get("mcp__everything__echo").unwrap();
    assert!(
        echo.description()
            .ends_with("(MCP server: everything, tool: echo)"),
        "{}",
        echo.description()
    );
    assert_eq!(echo.parameters()["properties"]["message"]["type"], "string");
    assert!(echo.parameters().get("$schema").is_none());

    let text = ok_text(
        h.call("mcp__everything__echo", json!({"message": "hello mcp"}))
            .await,
    );
    assert_eq!(text, "Echo: hello mcp");
    let sum = ok_text(
        h.call("mcp__everything__get-sum", json!({"a": 2, "b": 40}))
            .await,
    );
    assert!(sum.contains("42"), "{sum}");

    match h.call("mcp__everything__get-tiny-image", json!({})).await {
        ToolOutcome::Ok(out) => {
            assert_eq!(out.images.len(), 1, "{out:?}");
            assert!(
                out.text.contains("[image: image/png, attached]"),
                "{}",
                out.text
            );
        }
        other => panic!("{other:?}"),
    }

    let listing = ok_text(h.call("mcp__everything__list_resources", json!({})).await);
    let uri = listing
        .lines()
        .find_map(|l| {
            l.split_whitespace()
                .next()
                .filter(|u| u.starts_with("demo://resource/static/"))
        })
        .unwrap_or_else(|| panic!("no static resource in {listing}"))
        .to_string();
    let read = ok_text(
        h.call("mcp__everything__read_resource", json!({"uri": uri}))
            .await,
    );
    assert!(
        read.starts_with(&format!("<resource server=\"everything\" uri=\"{uri}\"")),
        "{read}"
    );

    let cancel = CancellationToken::new();
    let expanded = paicli::mcp::expand_mentions(
        &h.manager,
        &format!("summarize @everything:{uri} and @nope:demo://x please"),
        &cancel,
    )
    .await;
    assert!(
        expanded.starts_with("summarize <resource server=\"everything\""),
        "{expanded}"
    );
    assert!(
        expanded.contains("<resource_error server=\"nope\" uri=\"demo://x\">no MCP server named `nope`</resource_error> please"),
        "{expanded}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_stdio_lists_calls_reads_and_follows_list_changed() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let h = start(
        vec![stdio("everything", &everything, &["stdio"])],
        PROMPT,
        PROMPT,
    );
    exercise_everything(&h).await;
    // server-everything registers more tools right after `initialized` and announces them with an unsolicited
    // `notifications/tools/list_changed`; the registry must follow.
    h.until("the list_changed refresh", |h| {
        h.registry
            .get("mcp__everything__simulate-research-query")
            .is_some()
            && h.manager.status()[0].tool_loads >= 2
    })
    .await;
    h.manager.shutdown().await;
    assert!(h.registry.names().is_empty(), "{:?}", h.registry.names());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_streamable_http() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut server = tokio::process::Command::new(&everything)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let deadline = tokio::time::Instant::now() + PROMPT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "HTTP server never listened"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let h = start(
        vec![ServerConfig {
            launch: Ok(Launch::Http {
                url: format!("http://127.0.0.1:{port}/mcp"),
                headers: BTreeMap::from([("X-Test".to_string(), "1".to_string())]),
                oauth: Default::default(),
            }),
            ..stdio("everything", Path::new("unused"), &[])
        }],
        PROMPT,
        PROMPT,
    );
    exercise_everything(&h).await;
    h.manager.shutdown().await;
    server.kill().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_server_answers_get_current_time() {
    let Some(time) = peers::time_server() else {
        return;
    };
    let h = start(vec![stdio("time", &time, &[])], PROMPT, PROMPT);
    h.ready().await;
    assert_eq!(h.state("time"), ServerState::Ready);
    let text = ok_text(
        h.call("mcp__time__get_current_time", json!({"timezone": "UTC"}))
            .await,
    );
    let reply: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(reply["timezone"], "UTC");
    assert!(reply["datetime"].as_str().unwrap().contains('T'), "{text}");
    // A bad argument comes back as the server's error, as a failed call.
    match h
        .call(
            "mcp__time__get_current_time",
            json!({"timezone": "Not/AZone"}),
        )
        .await
    {
        ToolOutcome::Failed { reason } => {
            assert!(reason.starts_with("MCP tool returned error: "), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_interleaved_with_a_reply_refreshes_atomically() {
    let Some(python) = peers::python() else {
        return;
    };
    let h = start(vec![peer("peer", &python, "normal")], PROMPT, PROMPT);
    h.ready().await;
    assert_eq!(h.manager.status()[0].tool_loads, 1);
    let before = h.registry.names();
    assert_eq!(
        before,
        [
            "mcp__peer__add_tool",
            "mcp__peer__exit_now",
            "mcp__peer__hang"
        ]
    );
    assert_eq!(
        ok_text(h.call("mcp__peer__add_tool", json!({})).await),
        "added"
    );
    h.until("the new tool", |h| {
        h.registry.get("mcp__peer__added_3").is_some()
    })
    .await;
    assert_eq!(h.manager.status()[0].tools, 4);
    assert_eq!(h.manager.status()[0].tool_loads, 2);
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_exiting_mid_call_fails_the_call_and_nothing_else() {
    let Some(python) = peers::python() else {
        return;
    };
    let h = start(
        vec![
            peer("dying", &python, "normal"),
            peer("other", &python, "normal"),
        ],
        PROMPT,
        PROMPT,
    );
    h.ready().await;
    match h.call("mcp__dying__exit_now", json!({})).await {
        ToolOutcome::Failed { reason } => {
            assert!(reason.contains("server `dying` exited"), "{reason}");
            assert!(reason.contains("exiting mid-call"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(h.state("dying"), ServerState::Failed(_)));
    assert!(
        h.registry.get("mcp__dying__hang").is_none(),
        "a lost server's tools are withdrawn"
    );
    assert_eq!(h.state("other"), ServerState::Ready);
    assert_eq!(
        ok_text(h.call("mcp__other__add_tool", json!({})).await),
        "added"
    );
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_initializes_times_out_and_others_start() {
    let Some(python) = peers::python() else {
        return;
    };
    // The limit applies to every server here: the other one is the stdlib-only peer, ready in well under it.
    let h = start(
        vec![
            peer("silent", &python, "silent"),
            peer("other", &python, "normal"),
        ],
        Duration::from_secs(5),
        PROMPT,
    );
    h.ready().await;
    match h.state("silent") {
        ServerState::Failed(reason) => {
            assert!(
                reason.contains("initialize timed out after 5 s"),
                "{reason}"
            );
            assert!(
                reason.contains("recv initialize"),
                "stderr tail included: {reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(h.state("other"), ServerState::Ready);
    assert!(h.registry.get("mcp__other__hang").is_some());
    assert!(
        h.registry
            .names()
            .iter()
            .all(|n| !n.starts_with("mcp__silent__"))
    );
    assert!(
        h.manager
            .take_notices()
            .iter()
            .any(|n| n.to_string().contains("`silent` failed"))
    );
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_and_cancellation_send_notifications_cancelled() {
    let Some(python) = peers::python() else {
        return;
    };
    let h = start(
        vec![peer("peer", &python, "normal")],
        PROMPT,
        Duration::from_secs(1),
    );
    h.ready().await;
    match h.call("mcp__peer__hang", json!({})).await {
        ToolOutcome::Failed { reason } => {
            assert!(reason.contains("timed out after 1 s"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    h.until("the cancel notification", |h| {
        h.logs("peer").contains("cancelled request")
    })
    .await;

    let cancel = CancellationToken::new();
    let call = h.call_with("mcp__peer__hang", json!({}), cancel.clone());
    let trigger = async {
        h.until("the second call", |h| {
            h.logs("peer").matches("recv tools/call").count() == 2
        })
        .await;
        cancel.cancel();
    };
    let (outcome, ()) = tokio::join!(call, trigger);
    assert_eq!(
        outcome,
        ToolOutcome::Cancelled {
            partial: String::new()
        }
    );
    h.until("the second cancel notification", |h| {
        h.logs("peer").matches("cancelled request").count() == 2
    })
    .await;
    assert_eq!(h.state("peer"), ServerState::Ready, "the session survives");
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_disable_enable_and_prompts_on_a_real_server() {
    let Some(everything) = peers::everything() else {
        return;
    };
    let h = start(
        vec![stdio("everything", &everything, &["stdio"])],
        PROMPT,
        PROMPT,
    );
    h.ready().await;
    assert_eq!(h.state("everything"), ServerState::Ready);

    let prompts = h.manager.prompts("everything").await.unwrap();
    assert!(!prompts.is_empty(), "server-everything lists prompts");
    assert!(prompts.iter().all(|p| !p.name.is_empty()), "{prompts:?}");
    let resources = h.manager.resources("everything").await.unwrap();
    assert!(
        resources.iter().any(|r| !r.uri.is_empty()),
        "server-everything lists resources"
    );

    h.manager.disable("everything").await.unwrap();
    assert_eq!(h.state("everything"), ServerState::Disabled);
    assert!(h.registry.names().is_empty(), "{:?}", h.registry.names());
    let refused = h.manager.restart("everything").await.unwrap_err();
    assert!(refused.contains("/mcp enable everything"), "{refused}");
    assert!(h.manager.disable("everything").await.is_err());

    h.manager.enable("everything").unwrap();
    h.until("the server to come back", |h| {
        h.state("everything") == ServerState::Ready
            && h.registry.get("mcp__everything__echo").is_some()
    })
    .await;
    assert!(
        ok_text(
            h.call("mcp__everything__echo", json!({"message": "again"}))
                .await
        )
        .contains("again")
    );

    h.manager.restart("everything").await.unwrap();
    h.until("the restarted server", |h| {
        h.state("everything") == ServerState::Ready
            && h.registry.get("mcp__everything__echo").is_some()
    })
    .await;
    assert!(
        ok_text(
            h.call("mcp__everything__echo", json!({"message": "after restart"}))
                .await
        )
        .contains("after restart")
    );
    assert!(
        h.manager
            .restart("nobody")
            .await
            .unwrap_err()
            .contains("no MCP server named `nobody`")
    );
    h.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_notifications_invalidate_the_cache() {
    let Some(python) = peers::python() else {
        return;
    };
    let h = start(vec![peer("peer", &python, "resources")], PROMPT, PROMPT);
    h.ready().await;
    // Listed once at start, so the system prompt's index needs no request of its own.
    let cached = h.manager.cached_resources();
    assert_eq!(cached.len(), 1);
    assert_eq!(cached[0].1[0].uri, "peer://note");
    let link = h.manager.link("peer").unwrap();
    let cancel = CancellationToken::new();
    let text = |contents: Vec<Value>| contents[0]["text"].as_str().unwrap().to_string();
    assert_eq!(
        text(link.read_resource("peer://note", &cancel).await.unwrap()),
        "v1"
    );

    // `resources/updated` forgets the cached contents; until then the cache answers.
    assert_eq!(
        ok_text(h.call("mcp__peer__touch_note", json!({})).await),
        "touched"
    );
    let deadline = tokio::time::Instant::now() + PROMPT;
    loop {
        let now = text(link.read_resource("peer://note", &cancel).await.unwrap());
        if now == "v2" {
            break;
        }
        assert_eq!(now, "v1");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the update never arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // `resources/list_changed` forgets the listing, lists again and moves the generation.
    let generation = h.manager.resources_generation();
    assert_eq!(
        ok_text(h.call("mcp__peer__add_resource", json!({})).await),
        "added"
    );
    h.until("the new listing", |h| {
        h.manager.resources_generation() != generation
            && h.manager.cached_resources().first().map(|(_, l)| l.len()) == Some(2)
    })
    .await;
    h.manager.shutdown().await;
}
