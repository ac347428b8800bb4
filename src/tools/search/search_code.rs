//! `search_code`: the project's code index, searched by meaning and keywords (see `crate::index`). Builds the
//! index on first use (reporting progress) instead of asking the user to, and re-indexes changed files before
//! each search.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::clamp_arg;
use crate::index::search::{read_call, snippet};
use crate::index::{CodeIndex, IndexProgress, Ranking, SearchRequest, SearchResults};
use crate::protocol::ToolKind;
use crate::tools::fs::{Param, guard_outcome, object_schema};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits, call_view};

const DEFAULT_TOP_K: usize = 5;
const MAX_TOP_K: usize = 30;
/// Snippet lines per hit and their width.
const SNIPPET_LINES: usize = 4;
const SNIPPET_WIDTH: usize = 160;

const PARAMS: &[Param] = &[
    ("query", "string", "Words or identifiers."),
    ("top_k", "integer", "Default 5, max 30."),
    ("path", "string", "Only under this directory or file."),
    (
        "language",
        "string",
        "rust, python, java, javascript, typescript, go, c, cpp, markdown or text.",
    ),
];

/// Searches the code index.
pub struct SearchCode {
    index: Arc<CodeIndex>,
}

impl SearchCode {
    /// The tool over `index`.
    pub fn new(index: Arc<CodeIndex>) -> SearchCode {
        SearchCode { index }
    }
}

#[async_trait]
impl Tool for SearchCode {
    fn name(&self) -> &str {
        "search_code"
    }

    fn description(&self) -> &str {
        "Search the code by meaning and keywords: ranked functions, classes and docs with path:lines and a \
         snippet. For questions like \"where are uploads retried\"; grep_code finds exact strings."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["query"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Search,
            ..ToolTraits::READ_ONLY
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        call_view::pattern_in_path(args, "query")
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        call_view::path_location(args)
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        match self.search(Args(args), ctx).await {
            Ok(outcome) | Err(outcome) => outcome,
        }
    }
}

impl SearchCode {
    async fn search(&self, args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
        let query = args.required_str("query")?.trim();
        if query.is_empty() {
            return Err(ToolOutcome::failed(
                "query is empty; say what you are looking for",
            ));
        }
        let path_prefix = match args
            .str("path")
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != ".")
        {
            Some(path) => {
                let resolved = ctx.guard.resolve(path).map_err(guard_outcome)?;
                let rel = resolved
                    .strip_prefix(&ctx.root)
                    .map(|r| r.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                if resolved.is_dir() && !rel.is_empty() {
                    format!("{rel}/")
                } else {
                    rel
                }
            }
            None => String::new(),
        };
        let request = SearchRequest {
            query: query.to_string(),
            top_k: clamp_arg(args.int("top_k"), DEFAULT_TOP_K, 1, MAX_TOP_K),
            path_prefix,
            language: args.str("language").unwrap_or("").to_string(),
        };
        let progress = ctx.progress.clone();
        let last_tenth = std::sync::atomic::AtomicUsize::new(usize::MAX);
        let on_progress = Arc::new(move |p: IndexProgress| {
            let (what, done, total) = match p {
                IndexProgress::Files { done, total } => ("files", done, total),
                IndexProgress::Vectors { done, total } => ("chunks embedded", done, total),
            };
            // One line per tenth of the work: the channel drops lines it cannot hold anyway.
            let tenth = done * 10 / total.max(1);
            if last_tenth.swap(tenth, std::sync::atomic::Ordering::SeqCst) != tenth {
                progress.line(&format!("indexing: {done}/{total} {what}"));
            }
        });
        let results = self
            .index
            .search(&request, on_progress, &ctx.cancel)
            .await
            .map_err(|e| ToolOutcome::failed(format!("the code index failed: {e}")))?;
        if ctx.cancel.is_cancelled() {
            return Ok(ToolOutcome::Cancelled {
                partial: String::new(),
            });
        }
        Ok(ToolOutcome::ok(render(&request, &results)))
    }
}

/// The result text the model reads.
pub fn render(request: &SearchRequest, results: &SearchResults) -> String {
    let mut out = String::new();
    if results.hits.is_empty() {
        out.push_str(&format!(
            "No matches for \"{}\" in the code index. Try other words, or grep_code for an exact string.\n",
            request.query
        ));
    } else {
        let how = match results.ranking {
            Ranking::Hybrid => "keywords + embeddings",
            Ranking::Keywords => "keywords",
        };
        let n = results.hits.len();
        let noun = if n == 1 { "hit" } else { "hits" };
        out.push_str(&format!(
            "{n} {noun} for \"{}\" (ranked by {how}):\n",
            request.query
        ));
    }
    for (n, hit) in results.hits.iter().enumerate() {
        let c = &hit.chunk;
        out.push_str(&format!(
            "{}. {}:{}-{}  {}  ({}, score {:.3})\n",
            n + 1,
            c.path,
            c.start_line,
            c.end_line,
            c.symbol,
            c.kind,
            hit.score
        ));
        for (line, text) in snippet(c, SNIPPET_LINES, SNIPPET_WIDTH) {
            out.push_str(&format!("   {line:>5} | {text}\n"));
        }
        out.push_str(&format!("   read_file {}\n", read_call(c)));
    }
    if results.catching_up {
        out.push_str(
            "note: the index is catching up with a large change; recent edits may be missing.\n",
        );
    }
    if let Some(error) = &results.embed_error {
        out.push_str(&format!(
            "note: embeddings unavailable ({error}); ranked by keywords only.\n"
        ));
    }
    out
}
