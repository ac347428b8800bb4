//! Runs the release binary against the scripted model server and prints the numbers paicli is held to:
//! process start → first request, peak RSS of a hello-edit run, the client's gap between a tool result and the
//! next request over a 20-turn session, the size of the first request, and `grep_code` against `rg` on a large
//! tree (the crate sources in the cargo registry).
//!
//! When Codex CLI is installed (`scripts/bench` installs it, see support/codex.rs), the same scenarios run with
//! its native binary against the same scripted server in the same run, speaking the Responses API
//! (support/responses_api.rs), and one table puts both side by side. The soak case then runs 1,000 tool turns in
//! a small window, compaction cycling (agent/soak.rs; a few seconds). `PAICLI_BENCH_BIN` measures another
//! binary than this build's (e.g. `target/dist/paicli`).
//!
//! Run with `scripts/bench` (or `cargo bench --bench agent`). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/codex.rs"]
mod codex;
#[path = "support/figures.rs"]
mod figures;
#[path = "support/peak_rss.rs"]
mod peak_rss;
#[path = "support/responses_api.rs"]
mod responses_api;
#[path = "../tests/support/scripted_server.rs"]
mod scripted_server;
#[path = "agent/soak.rs"]
mod soak;
use codex::Codex;
use figures::{median, ms, report};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use scripted_server::{Reply, ScriptedServer};

/// The binary measured: this build's, or `PAICLI_BENCH_BIN` (another profile's, e.g. `target/dist/paicli`).
fn paicli_binary() -> std::ffi::OsString {
    std::env::var_os("PAICLI_BENCH_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_paicli").into())
}
const HELLO: &str = "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"Hello World\");\n    }\n}\n";
const EDITED: &str = "Hello PaiCLI";
const TASK: &str = "把 Hello.java 里的 Hello World 改成 Hello PaiCLI";
/// The hello-edit as Codex's `apply_patch` takes it (its freeform patch format).
const PATCH: &str = "*** Begin Patch\n*** Update File: Hello.java\n@@\n-        System.out.println(\"Hello World\");\n+        System.out.println(\"Hello PaiCLI\");\n*** End Patch\n";
const STARTUP_RUNS: usize = 15;
const SESSION_TURNS: usize = 20;
const SEARCH_RUNS: usize = 5;
/// Files a tree needs for the search case to say something about ripgrep speed.
const SEARCH_MIN_FILES: usize = 10_000;
/// A literal no source file contains (split so this file does not contain it either, should it be searched).
const ABSENT: [&str; 2] = ["paicli_bench_", "absent_literal_7d1f"];

/// The client a scenario runs: paicli (chat completions) or Codex (Responses API).
#[derive(Clone, Copy)]
enum Client<'a> {
    Paicli,
    Codex(&'a Codex),
}

impl Client<'_> {
    fn command(self, project: &Path, home: &Path, server: &ScriptedServer, task: &str) -> Command {
        match self {
            Client::Paicli => paicli(project, home, server, task),
            Client::Codex(codex) => codex.exec(project, &server.url(), task),
        }
    }

    /// Reads Hello.java, then edits it, then answers.
    fn hello_script(self) -> Vec<Reply> {
        match self {
            Client::Paicli => vec![
                Reply::tool_calls([("call_1", "read_file", json!({"path": "Hello.java"}))]),
                Reply::tool_calls([(
                    "call_2",
                    "edit_file",
                    json!({"path": "Hello.java", "old_text": "Hello World", "new_text": EDITED}),
                )]),
                Reply::text("Done."),
            ],
            Client::Codex(_) => vec![
                responses_api::function_call(
                    "call_1",
                    "exec_command",
                    json!({"cmd": "cat Hello.java"}),
                ),
                responses_api::custom_tool_call("call_2", "apply_patch", PATCH),
                responses_api::message("Done."),
            ],
        }
    }

    /// Turn `i` of the twenty-turn session: a read with arguments of its own (identical calls in a row would,
    /// rightly, stop on stagnation).
    fn read_turn(self, i: usize) -> Reply {
        match self {
            Client::Paicli => Reply::tool_calls([(
                format!("call_{i}"),
                "read_file",
                json!({"path": "Hello.java", "offset": 1, "limit": i + 1}),
            )]),
            Client::Codex(_) => responses_api::function_call(
                &format!("call_{i}"),
                "exec_command",
                json!({"cmd": format!("head -n {} Hello.java", i + 1)}),
            ),
        }
    }

    fn answer(self, text: &str) -> Reply {
        match self {
            Client::Paicli => Reply::text(text),
            Client::Codex(_) => responses_api::message(text),
        }
    }
}

/// What the scenarios measured for one client.
struct Figures {
    /// Process start → first model request, per run.
    startup: Vec<Duration>,
    peak_rss_kb: i64,
    /// Last frame of a tool-call reply → the next model request, per turn.
    gaps: Vec<Duration>,
    first_request_bytes: usize,
    hello_ms: f64,
}

fn measure(client: Client, project: &Path, home: &Path) -> Figures {
    let (first_request_bytes, peak_rss_kb, hello_ms) = hello_edit(client, project, home);
    Figures {
        startup: startup_to_first_request(client, project, home),
        peak_rss_kb,
        gaps: session_gaps(client, project, home),
        first_request_bytes,
        hello_ms,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is not ours to interpret.
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("Hello.java"), HELLO).unwrap();

    let ours = measure(Client::Paicli, project.path(), home.path());
    let tools_bytes = tools_bytes(project.path(), home.path());
    let codex = Codex::find();
    let theirs = codex.as_ref().map(|c| {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("Hello.java"), HELLO).unwrap();
        measure(Client::Codex(c), project.path(), home.path())
    });

    println!(
        "paicli benchmark ({}, scripted server on 127.0.0.1)",
        Path::new(&paicli_binary()).display()
    );
    side_by_side(&ours, theirs.as_ref(), codex.as_ref());
    report(
        "process start → first request, best of 15 (ms)",
        ms(*ours.startup.iter().min().unwrap()),
        f64::NAN,
        2,
    );
    report(
        "client gap, worst of 20 (ms)",
        ms(*ours.gaps.iter().max().unwrap()),
        f64::NAN,
        2,
    );
    report(
        "first request: of which tool definitions (bytes)",
        tools_bytes as f64,
        f64::NAN,
        0,
    );
    report(
        "hello-edit run, wall clock (ms)",
        ours.hello_ms,
        f64::NAN,
        1,
    );
    if let Some(theirs) = &theirs {
        report(
            "Codex hello-edit run, wall clock (ms)",
            theirs.hello_ms,
            f64::NAN,
            1,
        );
    }
    link_order_coverage();
    soak::run(home.path());
    search_vs_rg(home.path());
}

/// How many of the functions build/link-order.txt lists the measured binary holds (build.rs has the linker put
/// them first): a low share means the list is stale, and start-up and memory are measured without its effect
/// (`scripts/link-order` rewrites it). Needs `nm`; says so when it is missing.
fn link_order_coverage() {
    let listed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/build/link-order.txt"))
            .unwrap_or_default();
    let Ok(out) = Command::new("nm")
        .args(["--defined-only", "--format=just-symbols"])
        .arg(paicli_binary())
        .output()
    else {
        println!("  link order: nm not found, coverage not measured");
        return;
    };
    let defined: std::collections::HashSet<&[u8]> = out.stdout.split(|b| *b == b'\n').collect();
    let names: Vec<&str> = listed.lines().filter(|l| !l.is_empty()).collect();
    let found = names
        .iter()
        .filter(|n| defined.contains(n.as_bytes()))
        .count();
    report(
        "link order: listed functions found in the binary (%)",
        100.0 * found as f64 / names.len().max(1) as f64,
        f64::NAN,
        1,
    );
}

/// A row of the table: what, how to read it from the figures, paicli's target, decimal places.
type Row = (&'static str, fn(&Figures) -> f64, f64, usize);

/// One table: each figure for paicli, for Codex (when installed), their ratio and paicli's target.
fn side_by_side(ours: &Figures, theirs: Option<&Figures>, codex: Option<&Codex>) {
    let rows: [Row; 4] = [
        (
            "process start → first model request, median of 15 (ms)",
            |f| ms(median(&f.startup)),
            6.0,
            2,
        ),
        (
            "peak RSS, hello-edit run (MB)",
            |f| f.peak_rss_kb as f64 / 1024.0,
            15.0,
            1,
        ),
        (
            "client gap tool result → next request, median of 20 (ms)",
            |f| ms(median(&f.gaps)),
            1.5,
            2,
        ),
        (
            "first request bytes (system prompt + tools + task)",
            |f| f.first_request_bytes as f64,
            11.0 * 1024.0,
            0,
        ),
    ];
    let other = codex.map_or_else(|| "Codex".to_string(), |c| c.version.clone());
    println!(
        "  {:<58} {:>10} {:>16} {:>8}   target",
        "figure", "paicli", other, "ratio"
    );
    for (what, figure, target, decimals) in rows {
        let value = figure(ours);
        let verdict = if value <= target { "ok" } else { "OVER TARGET" };
        let (them, ratio) = match theirs {
            Some(t) => (
                format!("{:.decimals$}", figure(t)),
                format!("{:.3}×", value / figure(t)),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        println!("  {what:<58} {value:>10.decimals$} {them:>16} {ratio:>8}   ≤ {target} {verdict}");
    }
    if codex.is_none() {
        println!(
            "  (Codex CLI not installed: scripts/bench installs it; PAICLI_BENCH_CODEX names a binary)"
        );
    }
}

fn paicli(project: &Path, home: &Path, server: &ScriptedServer, task: &str) -> Command {
    let mut cmd = Command::new(paicli_binary());
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

/// The hello-edit: first request bytes, the run's peak RSS (KB) and wall clock (ms); checks the edit landed.
fn hello_edit(client: Client, project: &Path, home: &Path) -> (usize, i64, f64) {
    let server = ScriptedServer::with_replies(client.hello_script());
    let started = Instant::now();
    let (status, peak_rss_kb) = peak_rss::run(&mut client.command(project, home, &server, TASK));
    let wall = started.elapsed();
    assert!(status.success(), "hello-edit run failed: {status}");
    let edited = std::fs::read_to_string(project.join("Hello.java")).unwrap();
    assert!(edited.contains(EDITED), "the edit did not land: {edited}");
    std::fs::write(project.join("Hello.java"), HELLO).unwrap();
    let first = server.chat_requests().remove(0);
    (
        first.raw_body.len(),
        peak_rss_kb,
        wall.as_secs_f64() * 1000.0,
    )
}

/// The bytes of paicli's tool definitions in its first request.
fn tools_bytes(project: &Path, home: &Path) -> usize {
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let status = paicli(project, home, &server, "hi").status().unwrap();
    assert!(status.success(), "tools run failed: {status}");
    let first = server.chat_requests().remove(0);
    serde_json::to_vec(&first.body["tools"]).unwrap().len()
}

fn startup_to_first_request(client: Client, project: &Path, home: &Path) -> Vec<Duration> {
    (0..STARTUP_RUNS)
        .map(|_| {
            let server = ScriptedServer::with_replies([client.answer("ok")]);
            let spawned = Instant::now();
            let mut child = client
                .command(project, home, &server, "hi")
                .spawn()
                .unwrap();
            let first = server.wait_chat_request_blocking(0);
            let status = child.wait().unwrap();
            assert!(status.success(), "start-up run failed: {status}");
            first.received_at.duration_since(spawned)
        })
        .collect()
}

fn session_gaps(client: Client, project: &Path, home: &Path) -> Vec<Duration> {
    let server = ScriptedServer::start();
    let handles: Vec<_> = (0..SESSION_TURNS)
        .map(|i| server.push(client.read_turn(i)))
        .collect();
    server.push(client.answer("done"));
    let status = client
        .command(project, home, &server, "read it twenty times")
        .status()
        .unwrap();
    assert!(status.success(), "session run failed: {status}");
    let requests = server.chat_requests();
    assert_eq!(
        requests.len(),
        SESSION_TURNS + 1,
        "every turn was asked for"
    );
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
