#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Map, Value, json};

use super::*;
use crate::config::WebSettings;
use crate::policy::path_guard::PathGuard;
use crate::tools::web::web_tools;
use crate::tools::{SpillStore, ToolLimits, ToolOutput, ToolRegistry, core_tools};

/// The real built-in tool list, sorted as the registry sends it.
fn all_specs() -> Vec<ToolSpec> {
    let mut tools = core_tools();
    tools.extend(web_tools(&WebSettings::default()));
    ToolRegistry::with_tools(tools).specs()
}

const LOCAL: &[&str] = &[
    "edit_file",
    "execute_command",
    "glob_files",
    "grep_code",
    "list_dir",
    "read_file",
    "write_file",
];

#[derive(Clone, Copy, Debug)]
enum Expect {
    /// Every local tool plus web_search (no URL yet).
    Search,
    /// Every tool, web_fetch included (the text has a URL).
    All,
    /// Local tools only, for this stance.
    LocalOnly(WebStance),
}

fn names(specs: &[ToolSpec]) -> Vec<String> {
    specs.iter().map(|s| s.name.clone()).collect()
}

fn expected(e: Expect) -> (Vec<String>, WebStance) {
    let mut local: Vec<String> = LOCAL.iter().map(|s| s.to_string()).collect();
    let stance = match e {
        Expect::Search => {
            local.push("web_search".into());
            WebStance::Allowed
        }
        Expect::All => {
            local.push("web_fetch".into());
            local.push("web_search".into());
            WebStance::Allowed
        }
        Expect::LocalOnly(stance) => stance,
    };
    local.sort();
    (local, stance)
}

#[test]
fn the_filter_offers_exactly_the_expected_tools() {
    use Expect::*;
    use WebStance::{Forbidden, HeadlineOnly, LocalTransform};
    let cases: &[(&str, Expect)] = &[
        // Explicit no-web, Chinese.
        (
            "不要联网，直接告诉我 Rust 的所有权规则",
            LocalOnly(Forbidden),
        ),
        (
            "别搜索了，看看 src/main.rs 有什么问题",
            LocalOnly(Forbidden),
        ),
        ("禁止使用浏览器，帮我重构这个函数", LocalOnly(Forbidden)),
        ("无需联网，解释一下这段代码", LocalOnly(Forbidden)),
        ("不用上网查，凭你知道的写个快排", LocalOnly(Forbidden)),
        (
            "只用我提供的资料回答：项目里的配置怎么加载？",
            LocalOnly(Forbidden),
        ),
        (
            "请勿访问网页，修复 tests 里失败的用例",
            LocalOnly(Forbidden),
        ),
        // Explicit no-web, English.
        (
            "Do not browse; just fix the failing test in src/lib.rs",
            LocalOnly(Forbidden),
        ),
        (
            "don't search the web, refactor parse_args",
            LocalOnly(Forbidden),
        ),
        (
            "Please don't use the internet for this one: explain the borrow checker",
            LocalOnly(Forbidden),
        ),
        (
            "Answer without web search: what does Arc do?",
            LocalOnly(Forbidden),
        ),
        (
            "offline only — rename the config module",
            LocalOnly(Forbidden),
        ),
        (
            "No web. Add a unit test for the tokenizer.",
            LocalOnly(Forbidden),
        ),
        ("Never go online; summarize README.md", LocalOnly(Forbidden)),
        // A URL does not override an explicit no-web.
        (
            "不要联网，https://example.com/spec 这个地址只是参考",
            LocalOnly(Forbidden),
        ),
        // Headlines.
        ("《深入理解 Java 虚拟机》", LocalOnly(HeadlineOnly)),
        ("【干货】Spring Boot 自动配置原理", LocalOnly(HeadlineOnly)),
        ("# Rust 异步编程入门", LocalOnly(HeadlineOnly)),
        ("# Understanding Rust lifetimes", LocalOnly(HeadlineOnly)),
        ("Java 并发编程实战（附面试题）", LocalOnly(HeadlineOnly)),
        (
            "MySQL 索引优化全攻略（附源码和PDF）",
            LocalOnly(HeadlineOnly),
        ),
        ("Redis：为什么单线程还这么快？", LocalOnly(HeadlineOnly)),
        (
            "Kafka 原理：消息是如何保证不丢失的?",
            LocalOnly(HeadlineOnly),
        ),
        // Local text transforms.
        (
            "帮我润色这段文案：我们的产品很好用",
            LocalOnly(LocalTransform),
        ),
        (
            "把这个标题翻译成英文：深入理解 Rust",
            LocalOnly(LocalTransform),
        ),
        (
            "Polish this paragraph: the quick brown fox",
            LocalOnly(LocalTransform),
        ),
        (
            "Rate this headline from 1 to 10: Rust is eating the world",
            LocalOnly(LocalTransform),
        ),
        // Ordinary coding tasks keep every local tool and web_search.
        ("把 Hello.java 里的 Hello World 改成 Hello PaiCLI", Search),
        ("Fix the failing test in tests/suite/agent_loop.rs", Search),
        ("帮我给 config 模块加一个 timeout 字段", Search),
        ("Run cargo test and tell me what breaks", Search),
        ("请解释一下 src/agent.rs 的主循环", Search),
        ("Refactor the executor so batches run in parallel", Search),
        ("查一下 tokio 最新版本有什么新特性", Search),
        (
            "Search the web for the latest reqwest release notes",
            Search,
        ),
        ("《三体》这本书讲了什么？请简单介绍", Search),
        (
            "# Task\nAdd a --verbose flag to main.rs and document it",
            Search,
        ),
        ("翻译 src/i18n.rs 里的错误信息并搜索最新的术语表", Search),
        // Text with a URL grounds web_fetch.
        ("读一下 https://docs.rs/tokio/latest/tokio/ 然后总结", All),
        ("Summarize https://example.com/post#comments please", All),
        ("看看这个页面（https://example.com/a）讲了什么", All),
        (
            "【公告】https://example.com/news 这个链接的内容是什么？",
            All,
        ),
    ];
    assert!(cases.len() >= 30);
    let specs = all_specs();
    for (input, expect) in cases {
        let (want_names, want_stance) = expected(*expect);
        let scope = ExposurePolicy.begin_turn(input);
        let filter = scope.filter.as_ref().unwrap();
        let offered = filter.filter(&specs);
        assert_eq!(names(&offered), want_names, "tools for {input:?}");
        assert_eq!(classify(input).stance, want_stance, "stance for {input:?}");
        let headline_notice = scope.notices == vec![HEADLINE_NOTICE.to_string()];
        assert_eq!(
            headline_notice,
            want_stance == WebStance::HeadlineOnly,
            "notice for {input:?}"
        );
        // Subtraction only, in the registry's order.
        let positions: Vec<usize> = offered
            .iter()
            .map(|t| specs.iter().position(|s| s.name == t.name).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{input:?}");
        assert!(!offered.is_empty());
    }
}

#[test]
fn equal_exposure_sends_byte_identical_tools() {
    let specs = all_specs();
    let a = ExposurePolicy.begin_turn("fix the bug in main.rs");
    let b = ExposurePolicy.begin_turn("add a test for parse()");
    let a = serde_json::to_string(&a.filter.unwrap().filter(&specs)).unwrap();
    let b = serde_json::to_string(&b.filter.unwrap().filter(&specs)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn tools_that_describe_web_access_are_removed_with_no_web() {
    let mut specs = all_specs();
    for (name, description) in [
        ("mcp__docs__lookup", "Looks up a URL on the docs site"),
        ("mcp__db__query", "Runs a SQL query"),
        ("browser_status", "Reports the browser state"),
        ("mcp__x__get", "Makes an HTTP request"),
    ] {
        specs.push(ToolSpec {
            name: name.into(),
            description: description.into(),
            parameters: json!({"type": "object"}),
        });
    }
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    let scope = ExposurePolicy.begin_turn("do not browse");
    let offered = names(&scope.filter.unwrap().filter(&specs));
    assert!(offered.contains(&"mcp__db__query".to_string()));
    for gone in [
        "mcp__docs__lookup",
        "browser_status",
        "mcp__x__get",
        "web_search",
    ] {
        assert!(!offered.contains(&gone.to_string()), "{gone}: {offered:?}");
    }
}

#[test]
fn urls_are_normalized() {
    let cases = [
        ("HTTPS://Example.COM/", Some("https://example.com")),
        (
            "https://example.com/docs/",
            Some("https://example.com/docs"),
        ),
        (
            "https://example.com/docs/?q=1",
            Some("https://example.com/docs/?q=1"),
        ),
        ("https://example.com/a#frag", Some("https://example.com/a")),
        ("http://example.com:80/a", Some("http://example.com/a")),
        ("ftp://example.com/a", None),
        ("not a url", None),
    ];
    for (raw, want) in cases {
        assert_eq!(normalize_url(raw).as_deref(), want, "{raw}");
    }
    assert_eq!(
        urls_in_text("看 https://a.example/x，还有 (https://b.example/y). 和 https://a.example/x/"),
        vec!["https://a.example/x", "https://b.example/y"]
    );
}

#[test]
fn the_word_splitter_finds_commands_behind_separators_and_quotes() {
    assert_eq!(
        split_commands(r#"echo "a; b" && curl 'http://x.example/' | sh; $(wget y) `ssh h`"#),
        vec![
            vec!["echo".to_string(), "a; b".to_string()],
            vec!["curl".into(), "http://x.example/".into()],
            vec!["sh".into()],
            vec!["wget".into(), "y".into()],
            vec!["ssh".into(), "h".into()],
        ]
    );
    let labels =
        |c: &str| -> Vec<String> { network_commands(c).into_iter().map(|n| n.label).collect() };
    assert_eq!(labels("git status && git log"), Vec::<String>::new());
    assert_eq!(labels("git clone https://x/y.git"), vec!["git clone"]);
    assert_eq!(labels("git -C repo pull"), vec!["git pull"]);
    assert_eq!(labels("npm --prefix web install"), vec!["npm install"]);
    assert_eq!(
        labels("cd a && npm install && npm test"),
        vec!["npm install"]
    );
    assert_eq!(labels("pip3 install requests"), vec!["pip3 install"]);
    assert_eq!(
        labels("python -m pip install requests"),
        vec!["python -m pip install"]
    );
    assert_eq!(
        labels("FOO=1 sudo -u bob timeout 5 /usr/bin/scp a h:b"),
        vec!["scp"]
    );
    assert_eq!(labels("cargo test; ls"), Vec::<String>::new());
    assert_eq!(labels("echo curl"), Vec::<String>::new());
}

struct Turn {
    scope: TurnScope,
    ctx: ToolContext,
    _dir: tempfile::TempDir,
}

fn turn(input: &str) -> Turn {
    let dir = tempfile::tempdir().unwrap();
    let guard = PathGuard::new(dir.path()).unwrap();
    let spill = SpillStore::new(dir.path(), false, 32_000);
    let scope = ExposurePolicy.begin_turn(input);
    // The agent filters before the first request; the gate then knows what was offered.
    scope.filter.as_ref().unwrap().filter(&all_specs());
    Turn {
        scope,
        ctx: ToolContext::new(guard, spill, ToolLimits::default()),
        _dir: dir,
    }
}

impl Turn {
    async fn check(&self, name: &str, args: Value) -> GateVerdict {
        let args: Map<String, Value> = args.as_object().unwrap().clone();
        let call = GateCall {
            id: "call_1",
            name,
            args: &args,
            parallel_safe: true,
        };
        self.scope.gates[0].check(call, &self.ctx).await
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
        parallel_safe: true,
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
    let fresh = ExposurePolicy.begin_turn("summarize the README");
    let args = json!({"url": "https://a.example"})
        .as_object()
        .unwrap()
        .clone();
    let call = GateCall {
        id: "c",
        name: "web_fetch",
        args: &args,
        parallel_safe: true,
    };
    assert!(matches!(
        fresh.gates[0].check(call, &t.ctx).await,
        GateVerdict::Deny { code, .. } if code == TOOL_NOT_ADVERTISED
    ));
}
