#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::*;
use crate::config::WebSettings;
use crate::guard::path_guard::ReadRoots;
use crate::memory::MemoryStore;
use crate::protocol::Risk;
use crate::skills::SkillRoots;
use crate::snapshot::SnapshotHook;
use crate::tools::skill::SkillLibrary;
use crate::tools::{Builtins, SpillStore, ToolLimits, ToolRegistry, builtin_tools};

/// The session's built-in tools from the one catalogue (no snapshots or code index: those add local tools only),
/// with web_search offered: a search provider is set.
fn builtins() -> ToolRegistry {
    let root = std::path::Path::new("/nonexistent/project");
    let home = std::path::Path::new("/nonexistent/home");
    let web = WebSettings {
        searxng_url: Some("http://127.0.0.1:9".into()),
        ..WebSettings::default()
    };
    let roots = SkillRoots {
        user_home: None,
        paicli_home: home.to_path_buf(),
        project_root: root.to_path_buf(),
    };
    let tools = builtin_tools(&Builtins {
        limits: &ToolLimits::default(),
        spill: &SpillStore::new(root, true, 32_000),
        web: &web,
        memory: &Arc::new(MemoryStore::new(home, root)),
        memory_taint: &Arc::new(crate::protocol::MemoryTaint::new(root)),
        skills: &Arc::new(SkillLibrary::load(roots, &[], ReadRoots::default())),
        snapshots: &SnapshotHook::off(None),
        index: None,
    });
    ToolRegistry::with_tools(tools)
}

/// The real built-in tool list, sorted as the registry sends it.
fn all_specs() -> Vec<ToolSpec> {
    builtins().specs()
}

/// What the built-in tools declare, plus `extra` tools (as MCP or later tools would declare themselves).
struct Declared(std::collections::HashMap<String, ToolTraits>);

impl ToolTraitsLookup for Declared {
    fn traits_of(&self, name: &str) -> Option<ToolTraits> {
        self.0.get(name).copied()
    }
}

fn declared(extra: &[(&str, ToolTraits)]) -> Arc<Declared> {
    let registry = builtins();
    let mut map: std::collections::HashMap<String, ToolTraits> = registry
        .names()
        .into_iter()
        .filter_map(|n| registry.traits_of(&n).map(|t| (n, t)))
        .collect();
    map.extend(extra.iter().map(|(n, t)| (n.to_string(), *t)));
    Arc::new(Declared(map))
}

/// The policy over the built-in tools.
fn policy() -> ExposurePolicy {
    ExposurePolicy::new(declared(&[]))
}

/// A tool that reaches the network.
const NETWORK: ToolTraits = ToolTraits {
    network: true,
    external_content: true,
    ..ToolTraits::side_effect(Risk::High)
};

/// The built-in tools that stay on offer whatever the text says: every one that does not reach the network.
fn local() -> Vec<String> {
    let registry = builtins();
    let (network, local): (Vec<String>, Vec<String>) = registry
        .names()
        .into_iter()
        .partition(|n| registry.traits_of(n).is_some_and(|t| t.network));
    // The filter is about these two; every other tool is local.
    assert_eq!(network, ["web_fetch", "web_search"]);
    assert!(local.contains(&"execute_command".to_string()), "{local:?}");
    local
}

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
    let mut local = local();
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
        let scope = policy().begin_turn(input);
        let filter = scope.filter.as_ref().unwrap();
        let offered = filter.filter(&specs);
        assert_eq!(names(&offered), want_names, "tools for {input:?}");
        assert_eq!(classify(input).stance, want_stance, "stance for {input:?}");
        let headline_notice = scope.notices == vec![Notice::HeadlineOnly];
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
    let a = policy().begin_turn("fix the bug in main.rs");
    let b = policy().begin_turn("add a test for parse()");
    let a = serde_json::to_string(&a.filter.unwrap().filter(&specs)).unwrap();
    let b = serde_json::to_string(&b.filter.unwrap().filter(&specs)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn tools_that_declare_network_access_are_removed_with_no_web() {
    let mut specs = all_specs();
    for (name, description) in [
        ("mcp__docs__lookup", "Looks up a URL on the docs site"),
        (
            "mcp__db__query",
            "Runs a SQL query against https://db.example",
        ),
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
    let tools = declared(&[
        ("mcp__docs__lookup", NETWORK),
        ("mcp__db__query", ToolTraits::side_effect(Risk::High)),
        ("browser_status", NETWORK),
        ("mcp__x__get", NETWORK),
    ]);
    let scope = ExposurePolicy::new(tools).begin_turn("do not browse");
    let offered = names(&scope.filter.unwrap().filter(&specs));
    // What a tool is comes from its traits, never from words in its description.
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
    assert_eq!(
        labels(r#"echo "$(curl -s http://x.example)""#),
        vec!["curl"]
    );
    assert_eq!(labels(r#"echo "`wget -q http://x.example`""#), vec!["wget"]);
    assert_eq!(labels(r#"echo "the curl docs""#), Vec::<String>::new());
}

mod gate;
