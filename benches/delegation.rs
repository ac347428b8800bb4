//! What delegation costs before the first request: reading 50 agent definitions at start-up (against the same
//! folders empty, interleaved so both see the same machine load), and the first request's bytes with all 19
//! tools, with only the built-in agents and with the 50 definitions listed in the `agent` tool's description.
//! Targets (issue 39): at most 1 ms added by the definitions; the first request with all tools within 11 KB.
//!
//! Run with `cargo bench --bench delegation` (or `--profile dev` for a quick look: discovery is then several
//! times slower than in release). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/figures.rs"]
mod figures;
#[path = "../tests/support/scripted_server.rs"]
mod scripted_server;
use figures::{median, ms, report};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use paicli::agents::discover::{AgentRoots, discover};
use scripted_server::{Reply, ScriptedServer};

const PAICLI: &str = env!("CARGO_BIN_EXE_paicli");
const RUNS: usize = 200;
const DEFINITIONS: usize = 50;
const FIRST_REQUEST_TARGET: f64 = 11.0 * 1024.0;

fn main() {
    let empty = tempfile::tempdir().unwrap();
    let full = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    for layer in [".claude/agents", ".paicli/agents", ".codex/agents"] {
        std::fs::create_dir_all(empty.path().join(layer)).unwrap();
    }
    seed_definitions(full.path());

    let roots = |project: &Path| AgentRoots {
        user_home: Some(home.path().to_path_buf()),
        claude_sources: paicli::config::claude_settings::ClaudeSources::ALL,
        paicli_home: home.path().join(".paicli"),
        project_root: project.to_path_buf(),
    };
    let (with, without) = (roots(full.path()), roots(empty.path()));
    let found = discover(&with);
    assert_eq!(
        found.agents.len(),
        DEFINITIONS + 3,
        "every definition (and the 3 built-in agents) is read: {:?}",
        found.skipped
    );
    let (mut full_times, mut empty_times) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        full_times.push(timed(|| discover(&with).agents.len()));
        empty_times.push(timed(|| discover(&without).agents.len()));
    }
    let added = median(&full_times).saturating_sub(median(&empty_times));

    let (plain_bytes, plain_tools) = first_request(empty.path(), home.path(), &[]);
    let (listed_bytes, listed_tools) = first_request(full.path(), home.path(), &[]);
    let off = [("PAICLI_AGENTS", "false"), ("PAICLI_TASK_LIST", "false")];
    let (bare_bytes, bare_tools) = first_request(empty.path(), home.path(), &off);

    let profile = if cfg!(debug_assertions) {
        "dev"
    } else {
        "release"
    };
    println!("delegation ({profile} build)");
    report(
        "discovery of 50 definitions, median (ms)",
        ms(median(&full_times)),
        f64::NAN,
        3,
    );
    report(
        "discovery of empty folders, median (ms)",
        ms(median(&empty_times)),
        f64::NAN,
        3,
    );
    report("added by 50 definitions (ms)", ms(added), 1.0, 3);
    report(
        &format!("first request bytes, {plain_tools} tools, built-in agents"),
        plain_bytes as f64,
        FIRST_REQUEST_TARGET,
        3,
    );
    report(
        &format!("first request bytes, {bare_tools} tools, agent and update_plan off"),
        bare_bytes as f64,
        f64::NAN,
        3,
    );
    report(
        "  added by agent and update_plan (bytes)",
        plain_bytes.saturating_sub(bare_bytes) as f64,
        f64::NAN,
        3,
    );
    report(
        &format!("first request bytes, {listed_tools} tools, 50 more agents listed"),
        listed_bytes as f64,
        f64::NAN,
        3,
    );
}

/// 50 definitions over the project's three layers: Claude's and paicli's Markdown, Codex's TOML.
fn seed_definitions(project: &Path) {
    for i in 0..DEFINITIONS {
        let (dir, name, text) = match i % 3 {
            0 => (
                ".claude/agents",
                format!("claude-{i}.md"),
                format!(
                    "---\nname: claude-{i}\ndescription: Looks at part {i} of the code.\ntools: Read, Grep, Glob\n\
                     model: inherit\n---\nYou read part {i} of the code and report what it does.\n"
                ),
            ),
            1 => (
                ".paicli/agents",
                format!("paicli-{i}.md"),
                format!(
                    "---\nname: paicli-{i}\ndescription: Checks part {i}.\ntools: read_file, grep_code\n---\n\
                     You check part {i} and say what is wrong.\n"
                ),
            ),
            _ => (
                ".codex/agents",
                format!("codex-{i}.toml"),
                format!(
                    "name = \"codex-{i}\"\ndescription = \"Explains part {i}.\"\n\
                     developer_instructions = \"Explain part {i} briefly.\"\n"
                ),
            ),
        };
        let dir = project.join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The first request's bytes and tool count of a `-p` run in `project`.
fn first_request(project: &Path, home: &Path, env: &[(&str, &str)]) -> (usize, usize) {
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let status = Command::new(PAICLI)
        .env_clear()
        .envs(env.iter().copied())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("PAICLI_HOME", home.join(".paicli"))
        .args(["-C"])
        .arg(project)
        .args(["--base-url", &server.url(), "--model", "bench", "-p", "hi"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "the -p run failed: {status}");
    let first = server.chat_requests().remove(0);
    let names: Vec<&str> = first.body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    let tool_bytes = serde_json::to_vec(&first.body["tools"]).unwrap().len();
    println!("  tools ({tool_bytes} bytes): {}", names.join(", "));
    (first.raw_body.len(), names.len())
}

fn timed<T>(work: impl FnOnce() -> T) -> Duration {
    let started = Instant::now();
    std::hint::black_box(work());
    started.elapsed()
}
