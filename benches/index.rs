//! The code index on the `tokio` crate's source (from the cargo registry, found through `cargo metadata`):
//! indexing from scratch, re-indexing after one file changed (target ≤ 200 ms), the median `search_code`
//! latency including its freshness walk (target ≤ 20 ms), and the peak RSS of the process while indexing.
//! Keyword ranking only: no embedding server is involved.
//!
//! Run with `cargo bench --bench index` (release build). It prints; it never fails on a number. Each figure
//! comes with the machine's load average, since the bench shares its cores. `PAICLI_BENCH_REPEAT=n` runs the
//! re-index and search phases n times as long (for a profiler attached after the first line).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use paicli::config::IndexSettings;
use paicli::index::{CodeIndex, ProgressFn, SearchRequest};

#[path = "../tests/support/tokio_source.rs"]
mod tokio_source;
use tokio_source::{copy_tree, tokio_source};

/// Re-index runs and search rounds (each round asks every query once).
const RUNS: usize = 9;
const ROUNDS: usize = 5;

const QUERIES: &[&str] = &[
    "how does an idle worker steal tasks from another worker's run queue",
    "fail with an elapsed error when a future takes longer than a deadline",
    "accept incoming TCP connections on a bound socket address",
    "limit how many tasks use a resource at once by acquiring permits",
    "send a single value from one task to another exactly once",
    "wait for the user to press ctrl-c",
    "iterate over the lines of an async buffered reader",
    "JoinSet",
    "poll_read",
    "reap orphaned child processes",
];

/// The sample below which `fraction` of the samples fall (nearest rank).
fn percentile(samples: &[Duration], fraction: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn median(samples: &[Duration]) -> Duration {
    percentile(samples, 0.5)
}

/// The 1-minute load average, as `uptime` shows it.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .map_or_else(|| "?".into(), |l| format!("load {l}"))
}

fn repeat() -> usize {
    std::env::var("PAICLI_BENCH_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// `VmHWM` (peak resident set) of this process, in MB; 0 where /proc is missing.
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    copy_tree(&tokio_source(), &root);
    let home = tempfile::tempdir().unwrap();
    let index = CodeIndex::new(home.path(), &root, &IndexSettings::default());
    let quiet: ProgressFn = Arc::new(|_| {});
    let cancel = CancellationToken::new();
    let rss_before = peak_rss_mb();

    let started = Instant::now();
    let report = runtime
        .block_on(index.build("", false, Arc::clone(&quiet), &cancel))
        .unwrap();
    let scratch = started.elapsed();
    let rss_indexing = peak_rss_mb();
    let db_mb = std::fs::metadata(index.database()).map_or(0.0, |m| m.len() as f64 / 1e6);
    println!(
        "index tokio from scratch: {} files, {} chunks, {} relations in {} (database {db_mb:.1} MB, {})",
        report.counts.files,
        report.counts.chunks,
        report.counts.relations,
        ms(scratch),
        load()
    );
    println!("peak RSS: {rss_before:.1} MB before, {rss_indexing:.1} MB after indexing");

    let changed = root.join("src/time/sleep.rs");
    let original = std::fs::read_to_string(&changed).unwrap();
    let mut samples = Vec::new();
    for run in 0..RUNS * repeat() {
        std::fs::write(
            &changed,
            format!("{original}\n// edit {run}\nfn bench_edit_{run}() {{}}\n"),
        )
        .unwrap();
        let started = Instant::now();
        let report = runtime
            .block_on(index.build("", false, Arc::clone(&quiet), &cancel))
            .unwrap();
        samples.push(started.elapsed());
        assert_eq!(report.sync.reindexed, 1);
    }
    println!(
        "re-index after one file changed (walk + chunk + write): median {} over {} runs, worst {} \
         (target ≤ 200 ms, {})",
        ms(median(&samples)),
        samples.len(),
        ms(percentile(&samples, 1.0)),
        load()
    );

    let mut samples = Vec::new();
    for _ in 0..ROUNDS * repeat() {
        for query in QUERIES {
            let request = SearchRequest {
                query: (*query).to_string(),
                top_k: 5,
                ..SearchRequest::default()
            };
            let started = Instant::now();
            let results = runtime
                .block_on(index.search(&request, Arc::clone(&quiet), &cancel))
                .unwrap();
            samples.push(started.elapsed());
            assert!(!results.hits.is_empty(), "{query}");
        }
    }
    println!(
        "search_code latency incl. freshness walk: median {}, p95 {}, worst {} over {} searches \
         (target ≤ 20 ms, {})",
        ms(median(&samples)),
        ms(percentile(&samples, 0.95)),
        ms(percentile(&samples, 1.0)),
        samples.len(),
        load()
    );
}
