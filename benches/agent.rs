//! Runs the release binary against the scripted model server and prints the numbers paicli is held to:
//! process start → first request, peak RSS of a hello-edit run, the client's gap between a tool result and the
//! next request over a 20-turn session, the size of the first request, and `grep_code` against `rg` on a large
//! tree (the crate sources in the cargo registry).
//!
//! Run with `scripts/bench` (or `cargo bench --bench agent`). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/figures.rs"]
mod figures;
#[path = "../tests/support/scripted_server.rs"]
mod scripted_server;
use figures::{median, ms, report};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use scripted_server::{Reply, ScriptedServer};

const PAICLI: &str = env!("CARGO_BIN_EXE_paicli");
const HELLO: &str = "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"Hello World\");\n    }\n}\n";
const STARTUP_RUNS: usize = 15;
const SESSION_TURNS: usize = 20;
const SEARCH_RUNS: usize = 5;
/// Files a tree needs for the search case to say something about ripgrep speed.
const SEARCH_MIN_FILES: usize = 10_000;
/// A literal no source file contains (split so this file does not contain it either, should it be searched).
const ABSENT: [&str; 2] = ["paicli_bench_", "absent_literal_7d1f"];

fn main() {
    // `cargo bench` passes `--bench`; any other argument is not ours to interpret.
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("Hello.java"), HELLO).unwrap();

    // Measured first, so the peak RSS of waited-for children is this scenario's.
    let (first_request_bytes, tools_bytes, hello_ms) = hello_edit(project.path(), home.path());
    let peak_rss_kb = children_peak_rss_kb();
    let startup = startup_to_first_request(project.path(), home.path());
    let gaps = session_gaps(project.path(), home.path());

    println!("paicli benchmark (release binary, scripted server on 127.0.0.1)");
    report(
        "process start → first request, median of 15 (ms)",
        ms(median(&startup)),
        8.0,
        2,
    );
    report(
        "process start → first request, best of 15 (ms)",
        ms(*startup.iter().min().unwrap()),
        8.0,
        2,
    );
    report(
        "peak RSS, hello-edit run (KB)",
        peak_rss_kb as f64,
        18.0 * 1024.0,
        2,
    );
    report(
        "client gap tool result → next request, median of 20 (ms)",
        ms(median(&gaps)),
        3.0,
        2,
    );
    report(
        "client gap, worst of 20 (ms)",
        ms(*gaps.iter().max().unwrap()),
        f64::NAN,
        2,
    );
    report(
        "first request bytes (system prompt + tools + task)",
        first_request_bytes as f64,
        10.0 * 1024.0,
        2,
    );
    report(
        "  of which tool definitions (bytes)",
        tools_bytes as f64,
        f64::NAN,
        2,
    );
    report("hello-edit run, wall clock (ms)", hello_ms, f64::NAN, 2);
    search_vs_rg(home.path());
}

fn paicli(project: &Path, home: &Path, server: &ScriptedServer, task: &str) -> Command {
    let mut cmd = Command::new(PAICLI);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("PAICLI_HOME", home.join(".paicli"))
        .args(["-C"])
        .arg(project)
        .args(["--base-url", &server.url(), "--model", "bench", "-p", task])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

fn hello_edit(project: &Path, home: &Path) -> (usize, usize, f64) {
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "read_file", json!({"path": "Hello.java"}))]),
        Reply::tool_calls([(
            "call_2",
            "edit_file",
            json!({"path": "Hello.java", "old_text": "Hello World", "new_text": "Hello PaiCLI"}),
        )]),
        Reply::text("Done."),
    ]);
    let started = Instant::now();
    let status = paicli(
        project,
        home,
        &server,
        "把 Hello.java 里的 Hello World 改成 Hello PaiCLI",
    )
    .status()
    .unwrap();
    let wall = started.elapsed();
    assert!(status.success(), "hello-edit run failed: {status}");
    std::fs::write(project.join("Hello.java"), HELLO).unwrap();
    let first = server.chat_requests().remove(0);
    let tools = serde_json::to_vec(&first.body["tools"]).unwrap().len();
    (first.raw_body.len(), tools, wall.as_secs_f64() * 1000.0)
}

fn startup_to_first_request(project: &Path, home: &Path) -> Vec<Duration> {
    (0..STARTUP_RUNS)
        .map(|_| {
            let server = ScriptedServer::with_replies([Reply::text("ok")]);
            let spawned = Instant::now();
            let mut child = paicli(project, home, &server, "hi").spawn().unwrap();
            let first = server.wait_request_blocking(0);
            let status = child.wait().unwrap();
            assert!(status.success(), "start-up run failed: {status}");
            first.received_at.duration_since(spawned)
        })
        .collect()
}

fn session_gaps(project: &Path, home: &Path) -> Vec<Duration> {
    let server = ScriptedServer::start();
    let handles: Vec<_> = (0..SESSION_TURNS)
        .map(|i| {
            // Distinct arguments each turn: twenty identical calls would (rightly) stop on stagnation.
            server.push(Reply::tool_calls([(
                format!("call_{i}"),
                "read_file",
                json!({"path": "Hello.java", "offset": 1, "limit": i + 1}),
            )]))
        })
        .collect();
    server.push(Reply::text("done"));
    let status = paicli(project, home, &server, "read it twenty times")
        .status()
        .unwrap();
    assert!(status.success(), "session run failed: {status}");
    let requests = server.chat_requests();
    handles
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let reply_done = h.last_sent_at().unwrap();
            requests[i + 1].received_at.duration_since(reply_done)
        })
        .collect()
}

/// `grep_code` for an absent literal over the cargo registry's crate sources, against `rg` on the same tree.
fn search_vs_rg(home: &Path) {
    let Some(tree) = registry_sources() else {
        println!("  search: no cargo registry sources found (set CARGO_HOME); skipped");
        return;
    };
    let files = count_files(&tree);
    if files < SEARCH_MIN_FILES {
        println!(
            "  search: {} holds {files} files, fewer than {SEARCH_MIN_FILES}; skipped",
            tree.display()
        );
        return;
    }
    let literal = ABSENT.concat();
    let rg_available = Command::new("rg").arg("--version").output().is_ok();
    // One run of each first, so both read from a warm page cache.
    grep_code_once(&tree, home, &literal);
    let grep: Vec<Duration> = (0..SEARCH_RUNS)
        .map(|_| grep_code_once(&tree, home, &literal))
        .collect();
    println!("  search tree: {} ({files} files)", tree.display());
    report(
        "grep_code, absent literal, median of 5 (ms)",
        ms(median(&grep)),
        f64::NAN,
        2,
    );
    if !rg_available {
        println!("  rg not found (scripts/bench installs ripgrep); no comparison");
        return;
    }
    rg_once(&tree, &literal);
    let rg: Vec<Duration> = (0..SEARCH_RUNS).map(|_| rg_once(&tree, &literal)).collect();
    report(
        "rg, same literal and tree, median of 5 (ms)",
        ms(median(&rg)),
        f64::NAN,
        2,
    );
    report(
        "grep_code / rg",
        ms(median(&grep)) / ms(median(&rg)),
        1.3,
        2,
    );
}

/// `$CARGO_HOME/registry/src` (default `~/.cargo`): every unpacked crate this machine has built with.
fn registry_sources() -> Option<std::path::PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let src = cargo_home.join("registry").join("src");
    src.is_dir().then_some(src)
}

fn count_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| match entry.file_type() {
            Ok(t) if t.is_dir() => count_files(&entry.path()),
            Ok(t) if t.is_file() => 1,
            _ => 0,
        })
        .sum()
}

/// The client's gap around one `grep_code` call: from the reply that asks for it to the request carrying its
/// result, so process start-up is not counted.
fn grep_code_once(tree: &Path, home: &Path, literal: &str) -> Duration {
    let server = ScriptedServer::start();
    let call = server.push(Reply::tool_calls([(
        "call_1",
        "grep_code",
        json!({"pattern": literal}),
    )]));
    server.push(Reply::text("none found"));
    let status = paicli(tree, home, &server, "search").status().unwrap();
    assert!(status.success(), "search run failed: {status}");
    let requests = server.chat_requests();
    let result = requests[1].body["messages"].to_string();
    assert!(
        result.contains("No matches"),
        "grep_code did not finish: {result}"
    );
    requests[1]
        .received_at
        .duration_since(call.last_sent_at().unwrap())
}

/// One `rg` process over the same files `grep_code` searches (hidden files, ignore files outside git too).
fn rg_once(tree: &Path, literal: &str) -> Duration {
    let started = Instant::now();
    let status = Command::new("rg")
        .args([
            "--hidden",
            "--no-require-git",
            "--fixed-strings",
            "--quiet",
            literal,
        ])
        .arg(tree)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let elapsed = started.elapsed();
    // rg exits 1 when nothing matched, which is the point.
    assert_eq!(
        status.code(),
        Some(1),
        "rg found the absent literal or failed"
    );
    elapsed
}

/// The largest resident set of any child waited for so far, in KB (Linux reports KB).
fn children_peak_rss_kb() -> i64 {
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    usage.max_rss()
}
