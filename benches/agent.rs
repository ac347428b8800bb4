//! Runs the release binary against the scripted model server and prints the numbers paicli is held to:
//! process start → first request, peak RSS of a hello-edit run, the client's gap between a tool result and the
//! next request over a 20-turn session, and the size of the first request.
//!
//! Run with `scripts/bench` (or `cargo bench --bench agent`). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/scripted_server.rs"]
mod scripted_server;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use scripted_server::{Reply, ScriptedServer};

const PAICLI: &str = env!("CARGO_BIN_EXE_paicli");
const HELLO: &str = "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"Hello World\");\n    }\n}\n";
const STARTUP_RUNS: usize = 15;
const SESSION_TURNS: usize = 20;

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
        15.0,
    );
    report(
        "process start → first request, best of 15 (ms)",
        ms(*startup.iter().min().unwrap()),
        15.0,
    );
    report(
        "peak RSS, hello-edit run (KB)",
        peak_rss_kb as f64,
        20.0 * 1024.0,
    );
    report(
        "client gap tool result → next request, median of 20 (ms)",
        ms(median(&gaps)),
        3.0,
    );
    report(
        "client gap, worst of 20 (ms)",
        ms(*gaps.iter().max().unwrap()),
        f64::NAN,
    );
    report(
        "first request bytes (system prompt + tools + task)",
        first_request_bytes as f64,
        10.0 * 1024.0,
    );
    report(
        "  of which tool definitions (bytes)",
        tools_bytes as f64,
        f64::NAN,
    );
    report("hello-edit run, wall clock (ms)", hello_ms, f64::NAN);
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

/// The largest resident set of any child waited for so far, in KB (Linux reports KB).
fn children_peak_rss_kb() -> i64 {
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    usage.max_rss()
}

fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(what: &str, value: f64, target: f64) {
    if target.is_nan() {
        println!("  {what:<62} {value:>10.2}");
    } else {
        let verdict = if value <= target { "ok" } else { "OVER TARGET" };
        println!("  {what:<62} {value:>10.2}   target ≤ {target:<8} {verdict}");
    }
}
