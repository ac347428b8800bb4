//! The execution-time check: codes for web use while web is off, ungrounded URLs, and tools not offered.

use serde_json::{Map, Value, json};

use super::*;
use tokio_util::sync::CancellationToken;

use crate::protocol::ToolOutput;

/// What the built-in tool `name` declares (read-only for names no tool has).
fn traits_of(name: &str) -> ToolTraits {
    builtins().traits_of(name).unwrap_or(ToolTraits::READ_ONLY)
}

struct Turn {
    scope: TurnScope,
    cancel: CancellationToken,
}

fn turn(input: &str) -> Turn {
    let scope = policy().begin_turn(input);
    // The agent filters before the first request; the gate then knows what was offered.
    scope.filter.as_ref().unwrap().filter(&all_specs());
    Turn {
        scope,
        cancel: CancellationToken::new(),
    }
}

impl Turn {
    async fn check(&self, name: &str, args: Value) -> GateVerdict {
        let args: Map<String, Value> = args.as_object().unwrap().clone();
        let call = GateCall {
            id: "call_1",
            name,
            args: &args,
            traits: traits_of(name),
            write_targets: &[],
            cancel: &self.cancel,
        };
        self.scope.gates[0].check(call).await
    }

    async fn code(&self, name: &str, args: Value) -> Option<String> {
        match self.check(name, args).await {
            GateVerdict::Deny { code, .. } => Some(code),
            _ => None,
        }
    }

    fn offered(&self) -> Vec<String> {
        names(&self.scope.filter.as_ref().unwrap().filter(&all_specs()))
    }
}

#[tokio::test]
async fn web_tools_are_refused_when_web_is_off() {
    let t = turn("不要联网，修一下 main.rs");
    assert_eq!(
        t.code("web_search", json!({"query": "x"})).await.as_deref(),
        Some(WEB_FORBIDDEN)
    );
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://a.example"}))
            .await
            .as_deref(),
        Some(WEB_FORBIDDEN)
    );
    for command in [
        "curl https://a.example",
        "wget -q https://a.example",
        "git clone https://github.com/a/b",
        "cd x && git pull",
        "git fetch origin",
        "pip install requests",
        "npm install",
        "ssh host ls",
        "scp a host:b",
        "ls; $(curl -s https://a.example)",
    ] {
        assert_eq!(
            t.code("execute_command", json!({"command": command}))
                .await
                .as_deref(),
            Some(WEB_FORBIDDEN),
            "{command}"
        );
    }
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "cargo test && git status"})
        )
        .await,
        None
    );
    assert_eq!(t.code("read_file", json!({"path": "a"})).await, None);

    let t = turn("《深入理解 Java 虚拟机》");
    assert_eq!(
        t.code("web_search", json!({"query": "x"})).await.as_deref(),
        Some(NO_ACTION)
    );
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "curl https://a.example"})
        )
        .await
        .as_deref(),
        Some(NO_ACTION)
    );
}

#[tokio::test]
async fn web_fetch_needs_a_grounded_url() {
    let t = turn("Summarize https://Example.com/post/ please");
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://example.com/post"}))
            .await,
        None
    );
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://example.com/post#top"}))
            .await,
        None
    );
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://evil.example/"}))
            .await
            .as_deref(),
        Some(UNGROUNDED_URL)
    );
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "curl -sL https://example.com/post"})
        )
        .await,
        None
    );
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "curl -s https://other.example/x"})
        )
        .await
        .as_deref(),
        Some(UNGROUNDED_URL)
    );
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "wget -O - example.com"})
        )
        .await
        .as_deref(),
        Some(UNGROUNDED_URL),
        "curl/wget with no URL"
    );
    assert_eq!(
        t.code("execute_command", json!({"command": "curl --version"}))
            .await,
        None
    );
    assert_eq!(
        t.code(
            "execute_command",
            json!({"command": "curl http://localhost:8080/health"})
        )
        .await,
        None,
        "a local dev server is not the web"
    );
}

#[tokio::test]
async fn search_results_ground_web_fetch_through_typed_urls_only() {
    let t = turn("find the tokio changelog");
    assert!(!t.offered().contains(&"web_fetch".to_string()));
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://tokio.rs/blog"}))
            .await
            .as_deref(),
        Some(TOOL_NOT_ADVERTISED),
        "hidden until the turn has a URL"
    );
    let args = Map::new();
    let call = GateCall {
        id: "call_2",
        name: "web_search",
        args: &args,
        traits: traits_of("web_search"),
        write_targets: &[],
        cancel: &t.cancel,
    };
    let gate = &t.scope.gates[0];
    // A URL only mentioned in result text grounds nothing.
    gate.after(
        call,
        &ToolOutcome::ok("see https://tokio.rs/blog"),
        Duration::ZERO,
    )
    .await;
    assert!(!t.offered().contains(&"web_fetch".to_string()));
    let found = ToolOutput {
        text: "1. Tokio blog".into(),
        discovered_urls: vec!["https://Tokio.rs/blog/".into()],
        ..ToolOutput::default()
    };
    gate.after(call, &ToolOutcome::Ok(found), Duration::ZERO)
        .await;
    assert!(t.offered().contains(&"web_fetch".to_string()));
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://tokio.rs/blog"}))
            .await,
        None
    );
}

#[tokio::test]
async fn calls_to_tools_the_turn_did_not_offer_are_refused() {
    let t = turn("fix main.rs");
    let mut specs = all_specs();
    specs.retain(|s| s.name != "write_file");
    // A narrower registry left write_file out: the executor reports unknown tools, not this gate.
    t.scope.filter.as_ref().unwrap().filter(&specs);
    assert_eq!(t.code("read_file", json!({"path": "a"})).await, None);
    assert_eq!(
        t.code("write_file", json!({"path": "a", "content": ""}))
            .await,
        None,
        "unknown to the filter"
    );
    let mut specs = all_specs();
    specs.push(ToolSpec {
        name: "browser_open".into(),
        description: "Opens a page".into(),
        parameters: json!({"type": "object"}),
    });
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    let t = turn("fix main.rs");
    t.scope.filter.as_ref().unwrap().filter(&specs);
    assert_eq!(
        t.code("browser_open", json!({})).await,
        None,
        "browser tools follow web on"
    );
    let t = turn("summarize the README");
    assert_eq!(
        t.code("web_fetch", json!({"url": "https://a.example"}))
            .await
            .as_deref(),
        Some(TOOL_NOT_ADVERTISED)
    );
    // A gate used without the filter (no request yet) still hides web_fetch without a URL.
    let t = turn("summarize the README");
    let fresh = policy().begin_turn("summarize the README");
    let args = json!({"url": "https://a.example"})
        .as_object()
        .unwrap()
        .clone();
    let call = GateCall {
        id: "c",
        name: "web_fetch",
        args: &args,
        traits: traits_of("web_fetch"),
        write_targets: &[],
        cancel: &t.cancel,
    };
    assert!(matches!(
        fresh.gates[0].check(call).await,
        GateVerdict::Deny { code, .. } if code == TOOL_NOT_ADVERTISED
    ));
}
