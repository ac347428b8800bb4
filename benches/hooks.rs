//! What hooks add to a tool call: the median wall time of the two events every call fires (`PreToolUse`, then
//! `PostToolUse`) with three different no-op command hooks on each, against a session with no hooks, interleaved
//! so both see the same machine load. Each event's three hooks run in parallel, each a `bash -c` reading its JSON
//! input. Target (issue 37): at most 15 ms added per tool call.
//!
//! Run with `cargo bench --bench hooks`. It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use paicli::hooks::{HookEvent, HookPaths, Hooks, ToolSubject};
use serde_json::{Map, Value, json};

const RUNS: usize = 100;

/// Three distinct no-op hooks (identical commands would run once) on every event.
const CONFIG: &str = r#"
[[hooks.PreToolUse]]
matcher = "*"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "true"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "cat >/dev/null"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "exit 0"

[[hooks.PostToolUse]]
matcher = "*"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "true"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "cat >/dev/null"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "exit 0"
"#;

fn hooks_in(home: &std::path::Path, root: &std::path::Path) -> Hooks {
    let paths = HookPaths {
        paicli_home: home.to_path_buf(),
        user_home: None,
        project_root: root.to_path_buf(),
        caller: paicli::config::claude_settings::ClaudeCaller::default(),
    };
    Hooks::load(&paths, false)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

async fn one_call(hooks: &Hooks, args: &Map<String, Value>) {
    let subject = ToolSubject {
        id: "call_1",
        name: "read_file",
        args,
    };
    hooks
        .fire(
            HookEvent::PreToolUse,
            Some("read_file"),
            Map::new(),
            Some(subject),
        )
        .await;
    let mut fields = Map::new();
    fields.insert("tool_response".into(), json!({"content": "fn main() {}"}));
    hooks
        .fire(
            HookEvent::PostToolUse,
            Some("read_file"),
            fields,
            Some(subject),
        )
        .await;
}

fn main() {
    let home = tempfile::tempdir().unwrap();
    let bare_home = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), CONFIG).unwrap();
    let with = hooks_in(home.path(), root.path());
    let without = hooks_in(bare_home.path(), root.path());
    assert_eq!(with.all().len(), 6, "{:?}", with.problems());
    assert!(without.all().is_empty());
    let args = json!({"path": "src/main.rs"});
    let args = args.as_object().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut hooked, mut plain) = (Vec::new(), Vec::new());
    runtime.block_on(async {
        for _ in 0..RUNS {
            for (hooks, samples) in [(&with, &mut hooked), (&without, &mut plain)] {
                let start = Instant::now();
                one_call(hooks, args).await;
                samples.push(start.elapsed());
            }
        }
    });
    let (hooked, plain) = (median(hooked), median(plain));
    println!(
        "hooks per tool call (median of {RUNS}): 3 no-op hooks on PreToolUse and PostToolUse {:.2} ms, none \
         {:.3} ms, added {:.2} ms (target <= 15 ms)",
        hooked.as_secs_f64() * 1e3,
        plain.as_secs_f64() * 1e3,
        (hooked.saturating_sub(plain)).as_secs_f64() * 1e3,
    );
}
