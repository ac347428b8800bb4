//! `/index [path|status]`, `/search <query>` and `/graph <Symbol>`: the code index from the REPL. Indexing and
//! searching watch ESC / Ctrl-C like a task; `/index` draws a progress bar on a terminal.

use std::future::Future;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::{Flow, say_wrapped};
use crate::index::search::snippet;
use crate::index::store::RelationRow;
use crate::index::{CodeIndex, IndexProgress, ProgressFn, Ranking, SearchRequest};
use crate::text::{Msg, trf};
use crate::ui::repl::Session;

/// Hits `/search` shows.
const SEARCH_HITS: usize = 10;
/// Entries listed per `/graph` section.
const GRAPH_ROWS: usize = 15;
/// Cells of the progress bar.
const BAR_CELLS: usize = 24;

/// The session's index, or a message saying it is off.
fn index(session: &Session) -> Option<Arc<CodeIndex>> {
    let index = session.services.index.clone();
    if index.is_none() {
        session.say_error(session.tr(Msg::IndexOff));
    }
    index
}

pub(super) fn index_cmd(session: &mut Session, args: &str) -> Flow {
    let Some(index) = index(session) else {
        return Flow::Continue;
    };
    match args {
        "status" => status(session, &index),
        _ => build(session, &index, args),
    }
    Flow::Continue
}

fn status(session: &Session, index: &CodeIndex) {
    let lines = match index.counts() {
        Ok(None) => vec![session.tr(Msg::IndexStatusNone).to_string()],
        Ok(Some(c)) => {
            let mut lines = vec![trf(
                session.lang,
                Msg::IndexStatus,
                &[
                    ("path", &index.database().display()),
                    ("files", &c.files),
                    ("chunks", &c.chunks),
                    ("embedded", &c.embedded),
                    ("relations", &c.relations),
                ],
            )];
            lines.push(match index.embedder() {
                Some(e) => trf(
                    session.lang,
                    Msg::IndexEmbeddingsAt,
                    &[("model", &e.model()), ("url", &e.url())],
                ),
                None => session.tr(Msg::IndexEmbeddingsNone).to_string(),
            });
            if index.is_catching_up() {
                lines.push(session.tr(Msg::IndexCatchingUp).to_string());
            }
            lines
        }
        Err(e) => return failed(session, &e),
    };
    say_wrapped(session, &lines.join("\n"));
}

/// The project-relative prefix `/index path` names, or an error sentence.
fn prefix_of(session: &Session, arg: &str) -> Result<String, String> {
    let root = &session.config.project_root;
    if arg.is_empty() || arg == "." {
        return Ok(String::new());
    }
    let path = root.join(arg);
    let canonical = path.canonicalize().map_err(|e| format!("{arg}: {e}"))?;
    let rel = canonical
        .strip_prefix(root)
        .map_err(|_| format!("{arg}: outside the project {}", root.display()))?;
    Ok(rel.to_string_lossy().replace('\\', "/"))
}

fn build(session: &Session, index: &CodeIndex, arg: &str) {
    let prefix = match prefix_of(session, arg) {
        Ok(p) => p,
        Err(e) => return session.say_error(&e),
    };
    let started = Instant::now();
    let bar = ProgressBar::new(session);
    let progress = bar.callback();
    let (result, cancelled) = run_watched(session, |cancel| async move {
        index.build(&prefix, false, progress, &cancel).await
    });
    bar.clear();
    let report = match result {
        Ok(r) => r,
        Err(e) => return failed(session, &e),
    };
    let mut lines = Vec::new();
    if cancelled {
        lines.push(session.tr(Msg::IndexCancelled).to_string());
    }
    lines.push(trf(
        session.lang,
        Msg::IndexBuilt,
        &[
            ("files", &report.counts.files),
            ("chunks", &report.counts.chunks),
            (
                "seconds",
                &format!("{:.1}", started.elapsed().as_secs_f64()),
            ),
            ("reindexed", &report.sync.reindexed),
            ("removed", &report.sync.removed),
        ],
    ));
    if let (Some(e), true) = (index.embedder(), report.embedded > 0) {
        lines.push(trf(
            session.lang,
            Msg::IndexEmbedded,
            &[("embedded", &report.embedded), ("model", &e.model())],
        ));
    }
    say_wrapped(session, &lines.join("\n"));
    if let Some(error) = &report.embed_error {
        say_wrapped(
            session,
            &trf(session.lang, Msg::IndexEmbedFailed, &[("error", error)]),
        );
    }
}

pub(super) fn search(session: &mut Session, args: &str) -> Flow {
    if args.is_empty() {
        session.say_error(session.tr(Msg::SearchUsage));
        return Flow::Continue;
    }
    let Some(index) = index(session) else {
        return Flow::Continue;
    };
    let request = SearchRequest {
        query: args.to_string(),
        top_k: SEARCH_HITS,
        ..SearchRequest::default()
    };
    let bar = ProgressBar::new(session);
    let progress = bar.callback();
    let (result, cancelled) = run_watched(session, |cancel| {
        let (index, request) = (Arc::clone(&index), request.clone());
        async move { index.search(&request, progress, &cancel).await }
    });
    bar.clear();
    if cancelled {
        session.say(session.tr(Msg::IndexCancelled));
        return Flow::Continue;
    }
    let results = match result {
        Ok(r) => r,
        Err(e) => {
            failed(session, &e);
            return Flow::Continue;
        }
    };
    let style = session.surface().style;
    let mut lines = Vec::new();
    if results.hits.is_empty() {
        lines.push(trf(session.lang, Msg::SearchNone, &[("query", &args)]));
    } else {
        let ranking = session.tr(match results.ranking {
            Ranking::Hybrid => Msg::RankingHybrid,
            Ranking::Keywords => Msg::RankingKeywords,
        });
        lines.push(style.bold(&trf(
            session.lang,
            Msg::SearchHeading,
            &[
                ("count", &results.hits.len()),
                ("query", &args),
                ("ranking", &ranking),
            ],
        )));
    }
    let width = session.surface().width.saturating_sub(10).max(20);
    for (n, hit) in results.hits.iter().enumerate() {
        let c = &hit.chunk;
        lines.push(format!(
            "{:>2}. {}  {}  {}",
            n + 1,
            style.bold(&format!("{}:{}-{}", c.path, c.start_line, c.end_line)),
            c.symbol,
            style.dim(&format!("({}, {:.3})", c.kind, hit.score))
        ));
        for (line, text) in snippet(c, 3, width) {
            lines.push(style.dim(&format!("    {line:>5} | {text}")));
        }
    }
    session.say(&lines.join("\n"));
    if results.catching_up {
        session.say(session.tr(Msg::IndexCatchingUp));
    }
    if let Some(error) = &results.embed_error {
        say_wrapped(
            session,
            &trf(session.lang, Msg::IndexEmbedFailed, &[("error", error)]),
        );
    }
    Flow::Continue
}

pub(super) fn graph(session: &mut Session, args: &str) -> Flow {
    if args.is_empty() {
        session.say_error(session.tr(Msg::GraphUsage));
        return Flow::Continue;
    }
    let Some(index) = index(session) else {
        return Flow::Continue;
    };
    if matches!(index.counts(), Ok(None)) {
        session.say(session.tr(Msg::IndexStatusNone));
        return Flow::Continue;
    }
    let graph = match index.graph(args) {
        Ok(g) => g,
        Err(e) => {
            failed(session, &e);
            return Flow::Continue;
        }
    };
    if graph.is_empty() {
        session.say(&trf(session.lang, Msg::GraphNone, &[("symbol", &args)]));
        return Flow::Continue;
    }
    let style = session.surface().style;
    let mut lines = vec![style.dim(session.tr(Msg::GraphBestEffort))];
    let sections: [Section<'_>; 8] = [
        (Msg::GraphDefinitions, &graph.definitions, |r| &r.source),
        (Msg::GraphContains, &graph.contains, |r| &r.target),
        (Msg::GraphContainedIn, &graph.contained_in, |r| &r.source),
        (Msg::GraphExtends, &graph.extends, |r| &r.target),
        (Msg::GraphImplements, &graph.implements, |r| &r.target),
        (Msg::GraphSubtypes, &graph.subtypes, |r| &r.source),
        (Msg::GraphCallers, &graph.callers, |r| &r.source),
        (Msg::GraphCalls, &graph.calls, |r| &r.target),
    ];
    for (title, rows, name) in sections {
        if rows.is_empty() {
            continue;
        }
        lines.push(style.bold(session.tr(title)));
        for row in rows.iter().take(GRAPH_ROWS) {
            lines.push(format!(
                "  {}  {}",
                name(row),
                style.dim(&format!("{}:{}", row.path, row.line))
            ));
        }
        if rows.len() > GRAPH_ROWS {
            lines.push(style.dim(&format!("  … +{}", rows.len() - GRAPH_ROWS)));
        }
    }
    session.say(&lines.join("\n"));
    Flow::Continue
}

/// A `/graph` section: its title, its rows, and which end of each row names the other symbol.
type Section<'a> = (Msg, &'a [RelationRow], fn(&RelationRow) -> &str);

fn failed(session: &Session, error: &dyn std::fmt::Display) {
    session.say_error(&trf(
        session.lang,
        Msg::IndexFailed,
        &[("error", &error.to_string())],
    ));
}

/// Runs the future `work` makes on the session's runtime, with ESC / Ctrl-C cancelling its token; returns its
/// output and whether it was cancelled.
fn run_watched<T, F, W>(session: &Session, work: W) -> (T, bool)
where
    W: FnOnce(CancellationToken) -> F,
    F: Future<Output = T>,
{
    let mut token = None;
    let output = session.block_on_cancellable(|cancel| {
        token = Some(cancel.clone());
        work(cancel)
    });
    (output, token.is_some_and(|t| t.is_cancelled()))
}

/// A one-line progress bar on stdout, redrawn in place; nothing when stdout is not a terminal.
struct ProgressBar {
    on: bool,
    files: &'static str,
    vectors: &'static str,
}

impl ProgressBar {
    fn new(session: &Session) -> ProgressBar {
        ProgressBar {
            on: std::io::stdout().is_terminal(),
            files: session.tr(Msg::IndexProgressFiles),
            vectors: session.tr(Msg::IndexProgressVectors),
        }
    }

    fn callback(&self) -> ProgressFn {
        let (on, files, vectors) = (self.on, self.files, self.vectors);
        Arc::new(move |p: IndexProgress| {
            if !on {
                return;
            }
            let (label, done, total) = match p {
                IndexProgress::Files { done, total } => (files, done, total),
                IndexProgress::Vectors { done, total } => (vectors, done, total),
            };
            let filled = (done * BAR_CELLS)
                .checked_div(total)
                .unwrap_or(BAR_CELLS)
                .min(BAR_CELLS);
            let bar = format!("{}{}", "█".repeat(filled), "░".repeat(BAR_CELLS - filled));
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\r\x1b[2K{label} {bar} {done}/{total}");
            let _ = out.flush();
        })
    }

    /// Erases the bar.
    fn clear(&self) {
        if self.on {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\r\x1b[2K");
            let _ = out.flush();
        }
    }
}
