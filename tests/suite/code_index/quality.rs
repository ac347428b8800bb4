//! Retrieval quality on a real codebase nobody here wrote: the `tokio` crate's source, which the cargo registry
//! holds because paicli depends on it (found through `cargo metadata`). Sixteen questions in plain words, each
//! with the file(s) that answer it; hit@5 counts a question answered when one of its files is among the first
//! five distinct files returned. Three rankings: keywords only, keywords + embeddings from the bag-of-words
//! stand-in server (not a real model: see `embed_server.rs`), and a `grep_code` baseline that searches each of
//! the question's words and ranks files by their matching lines.

use std::collections::HashMap;
use std::path::Path;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{EmbedServer, args, quiet, settings, tool_context};
use crate::support::tokio_source::{copy_tree, tokio_source};
use paicli::index::words::query_terms;
use paicli::index::{CodeIndex, SearchRequest};
use paicli::tools::search::GrepCode;
use paicli::tools::{Tool, ToolOutcome};

/// Each question and the files (relative to the crate root) that answer it.
const QUESTIONS: &[(&str, &[&str])] = &[
    (
        "how does an idle worker steal tasks from another worker's run queue",
        &["src/runtime/scheduler/multi_thread/queue.rs"],
    ),
    (
        "fail with an elapsed error when a future takes longer than a deadline",
        &["src/time/timeout.rs"],
    ),
    (
        "accept incoming TCP connections on a bound socket address",
        &["src/net/tcp/listener.rs"],
    ),
    (
        "limit how many tasks use a resource at once by acquiring permits",
        &["src/sync/semaphore.rs", "src/sync/batch_semaphore.rs"],
    ),
    (
        "send a single value from one task to another exactly once",
        &["src/sync/oneshot.rs"],
    ),
    (
        "many receivers observe only the most recent value and get notified of changes",
        &["src/sync/watch.rs"],
    ),
    (
        "wait for the user to press ctrl-c",
        &["src/signal/ctrl_c.rs"],
    ),
    (
        "run blocking code on a dedicated pool of threads that grows on demand",
        &["src/runtime/blocking/pool.rs"],
    ),
    (
        "hierarchical timer wheel levels with slots",
        &[
            "src/runtime/time/wheel/level.rs",
            "src/runtime/time/wheel/mod.rs",
            "src/runtime/time_alt/wheel/level.rs",
            "src/runtime/time_alt/wheel/mod.rs",
        ],
    ),
    (
        "iterate over the lines of an async buffered reader",
        &["src/io/util/lines.rs"],
    ),
    (
        "copy data in both directions between two streams until both are shut down",
        &["src/io/util/copy_bidirectional.rs"],
    ),
    (
        "configure a runtime with the number of worker threads and thread names",
        &["src/runtime/builder.rs"],
    ),
    (
        "reap orphaned child processes whose handle was dropped",
        &["src/process/unix/orphan.rs"],
    ),
    (
        "broadcast messages to every subscriber and report receivers that lagged behind",
        &["src/sync/broadcast.rs"],
    ),
    (
        "cooperative scheduling budget that forces a task to yield",
        &["src/task/coop/mod.rs", "src/task/coop/consume_budget.rs"],
    ),
    (
        "spawn a collection of tasks and await their results in the order they complete",
        &["src/task/join_set.rs"],
    ),
];

/// Distinct files in rank order, at most five.
fn top_files(paths: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for path in paths {
        if !files.contains(&path) {
            files.push(path);
        }
        if files.len() == 5 {
            break;
        }
    }
    files
}

async fn index_hits(index: &CodeIndex, question: &str) -> Vec<String> {
    let request = SearchRequest {
        query: question.to_string(),
        top_k: 15,
        ..SearchRequest::default()
    };
    let results = index
        .search(&request, quiet(), &CancellationToken::new())
        .await
        .unwrap();
    top_files(results.hits.into_iter().map(|h| h.chunk.path))
}

/// `grep_code` once per word of the question (case-insensitive), files ranked by matching lines, then by the
/// number of the question's words they contain.
async fn grep_hits(root: &Path, question: &str) -> Vec<String> {
    let ctx = tool_context(root);
    let mut lines: HashMap<String, (usize, usize)> = HashMap::new();
    for word in query_terms(question) {
        let call = args(
            json!({"pattern": word, "case_sensitive": false, "max_results": 200, "head_limit": 50, "max_chars": 60000}),
        );
        let ToolOutcome::Ok(output) = GrepCode.execute(&call, &ctx).await else {
            continue;
        };
        let mut file = String::new();
        let mut seen_in: Vec<String> = Vec::new();
        for line in output.text.lines() {
            if let Some((path, number)) = line.rsplit_once(':')
                && !line.starts_with(' ')
                && !line.starts_with('>')
                && number.chars().all(|c| c.is_ascii_digit())
                && !number.is_empty()
            {
                file = path.to_string();
            } else if line.starts_with('>') && !file.is_empty() {
                let entry = lines.entry(file.clone()).or_default();
                entry.0 += 1;
                if !seen_in.contains(&file) {
                    seen_in.push(file.clone());
                    entry.1 += 1;
                }
            }
        }
    }
    let mut ranked: Vec<(String, (usize, usize))> = lines.into_iter().collect();
    ranked.sort_by(|a, b| (b.1.1, b.1.0, &a.0).cmp(&(a.1.1, a.1.0, &b.0)));
    top_files(ranked.into_iter().map(|(path, _)| path))
}

fn answered(files: &[String], expected: &[&str]) -> bool {
    files.iter().any(|f| expected.contains(&f.as_str()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hit_rate_at_5_on_tokio_beats_a_grep_baseline() {
    let source = tokio_source();
    // Indexed in a copy of the crate's `src`: the registry directory is shared and read-only in spirit.
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    copy_tree(&source.join("src"), &root.join("src"));
    let home = tempfile::tempdir().unwrap();
    let server = EmbedServer::start();
    let hybrid = CodeIndex::new(home.path(), &root, &settings(Some(&server.url)));
    let started = std::time::Instant::now();
    let report = hybrid
        .build("", false, quiet(), &CancellationToken::new())
        .await
        .unwrap();
    let build_secs = started.elapsed().as_secs_f64();
    assert_eq!(report.embed_error, None);
    let keywords = CodeIndex::new(home.path(), &root, &settings(None));

    let (mut kw, mut hy, mut grep) = (0, 0, 0);
    for (question, expected) in QUESTIONS {
        let k = index_hits(&keywords, question).await;
        let h = index_hits(&hybrid, question).await;
        let g = grep_hits(&root, question).await;
        let marks = [
            answered(&k, expected),
            answered(&h, expected),
            answered(&g, expected),
        ];
        kw += usize::from(marks[0]);
        hy += usize::from(marks[1]);
        grep += usize::from(marks[2]);
        println!("{marks:?} {question}\n    keywords {k:?}\n    hybrid {h:?}\n    grep {g:?}");
    }
    let n = QUESTIONS.len();
    println!(
        "tokio src: {} files, {} chunks, built in {build_secs:.1} s; hit@5 over {n} questions: keywords {kw}/{n}, \
         hybrid (bag-of-words stand-in embeddings) {hy}/{n}, grep_code baseline {grep}/{n}",
        report.counts.files, report.counts.chunks
    );
    assert!(n >= 10);
    assert!(hy >= grep, "hybrid {hy} < grep baseline {grep}");
    assert!(kw >= grep, "keywords {kw} < grep baseline {grep}");
    assert!(
        kw * 2 >= n,
        "keyword ranking answers fewer than half: {kw}/{n}"
    );
}
