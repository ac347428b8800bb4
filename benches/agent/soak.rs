//! The soak case: 1,000 tool turns in a 16k-token window, so old results are cleared and old turns summarized
//! again and again; paicli's peak RSS over the whole session against a 2-request task in the same window
//! (target ≤ 1.3×: a long session must not keep what compaction dropped).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::json;

use paicli::agent::context::compaction::REQUIRED_HEADINGS;

use super::figures::report;
use super::scripted_server::{RecordedRequest, Reply, ScriptedServer};
use super::{paicli, peak_rss};

const TURNS: usize = 1_000;
/// Small enough that compaction runs every few dozen turns (thresholds: see `Thresholds::for_window`).
const WINDOW: &str = "16000";
/// The scripted provider counts one token per four bytes of request body.
const BYTES_PER_TOKEN: usize = 4;
const RATIO_TARGET: f64 = 1.3;

fn is_summary(r: &RecordedRequest) -> bool {
    r.body["messages"][0]["content"]
        .as_str()
        .is_some_and(|s| s.starts_with("You compress"))
}

fn summary() -> String {
    REQUIRED_HEADINGS
        .iter()
        .map(|h| format!("{h}\n- Read notes.txt in slices, turn after turn; nothing changed yet."))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `turns` reads of notes.txt (each its own slice), then an answer; summary requests get a summary.
fn server(turns: usize) -> (ScriptedServer, Arc<AtomicUsize>) {
    let summaries = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&summaries);
    let step = AtomicUsize::new(0);
    let server = ScriptedServer::with_responder(move |r| {
        let prompt = (r.raw_body.len() / BYTES_PER_TOKEN) as u64;
        if is_summary(r) {
            counted.fetch_add(1, Ordering::SeqCst);
            return Reply::text(summary()).usage(prompt, 120).chunk_chars(200);
        }
        let k = step.fetch_add(1, Ordering::SeqCst);
        if k < turns {
            Reply::tool_calls([(
                format!("call_{k}"),
                "read_file",
                json!({"path": "notes.txt", "offset": k % 40 + 1, "limit": 20}),
            )])
            .content(format!("Step {k}: reading the next slice of the notes."))
            .usage(prompt, 40)
            .chunk_chars(200)
        } else {
            Reply::text("All slices read.").usage(prompt, 5)
        }
    });
    (server, summaries)
}

/// One run of `turns` tool turns: peak RSS (KB), model requests, summary requests, wall clock (s).
fn run_once(project: &Path, home: &Path, turns: usize) -> (i64, usize, usize, f64) {
    let (server, summaries) = server(turns);
    let mut cmd = paicli(project, home, &server, "read the notes slice by slice");
    cmd.env("PAICLI_CONTEXT_WINDOW", WINDOW);
    let started = Instant::now();
    let (status, peak_kb) = peak_rss::run(&mut cmd);
    let wall = started.elapsed().as_secs_f64();
    assert!(
        status.success(),
        "soak run ({turns} turns) failed: {status}"
    );
    let requests = server.chat_requests().len();
    let summaries = summaries.load(Ordering::SeqCst);
    assert_eq!(
        requests - summaries,
        turns + 1,
        "every turn was asked for ({turns} turns)"
    );
    (peak_kb, requests, summaries, wall)
}

pub fn run(home: &Path) {
    let project = tempfile::tempdir().unwrap();
    let notes: String = (0..60)
        .map(|l| format!("line {l}: the module keeps its callers and edge cases listed here.\n"))
        .collect();
    std::fs::write(project.path().join("notes.txt"), notes).unwrap();
    let (short_kb, _, _, _) = run_once(project.path(), home, 1);
    let (soak_kb, requests, summaries, wall) = run_once(project.path(), home, TURNS);
    println!("  soak: {TURNS} tool turns in a {WINDOW}-token window");
    report(
        "peak RSS, 2-request task, same window (MB)",
        short_kb as f64 / 1024.0,
        f64::NAN,
        1,
    );
    report(
        "peak RSS, 1,000 tool turns (MB)",
        soak_kb as f64 / 1024.0,
        f64::NAN,
        1,
    );
    report(
        "soak / 2-request peak RSS",
        soak_kb as f64 / short_kb as f64,
        RATIO_TARGET,
        2,
    );
    report("soak: model requests", requests as f64, f64::NAN, 0);
    report(
        "soak: of which summary requests",
        summaries as f64,
        f64::NAN,
        0,
    );
    report("soak: wall clock (s)", wall, f64::NAN, 1);
}
