//! One search: keyword candidates by BM25, vector candidates by cosine, fused by reciprocal rank, at most two
//! hits per file so one long file does not push every other answer out of the top.

use std::collections::HashMap;

use super::IndexError;
use super::rank;
use super::store::{ChunkRow, Filter, Store, VectorRow};
use super::words;

/// Candidates each ranking contributes before fusion.
const CANDIDATES: usize = 80;
/// Hits shown per file at most.
const PER_FILE: usize = 2;

/// What to search for.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    /// Natural language or identifiers.
    pub query: String,
    /// Hits wanted (1–30).
    pub top_k: usize,
    /// Project-relative path prefix; empty for all.
    pub path_prefix: String,
    /// Language name (`rust`, `python`…); empty for all.
    pub language: String,
}

/// How the hits were ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// BM25 only (no embedding server, or it failed).
    Keywords,
    /// BM25 and cosine, fused by reciprocal rank.
    Hybrid,
}

/// One search hit.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub chunk: ChunkRow,
    /// Higher is better; BM25 for keyword ranking, the fused score for hybrid.
    pub score: f64,
}

/// The answer to a search.
#[derive(Clone, Debug)]
pub struct SearchResults {
    pub hits: Vec<Hit>,
    pub ranking: Ranking,
    /// A large change is still being indexed in the background: results may miss it.
    pub catching_up: bool,
    /// The embedding server failed during this search (keywords only).
    pub embed_error: Option<String>,
}

/// The stored vectors, in memory for cosine ranking.
pub struct Vectors {
    rows: Vec<VectorRow>,
}

impl Vectors {
    /// Loads every stored vector.
    pub fn load(store: &Store) -> Result<Vectors, IndexError> {
        Ok(Vectors {
            rows: store.vectors()?,
        })
    }

    /// The `limit` chunks closest to `query` within `filter`, best first.
    fn nearest(&self, query: &[f32], filter: &Filter, limit: usize) -> Vec<i64> {
        let mut scored: Vec<(i64, f32)> = self
            .rows
            .iter()
            .filter(|(_, path, language, _)| {
                path.starts_with(&filter.path_prefix)
                    && (filter.language.is_empty() || *language == filter.language)
            })
            .map(|(id, _, _, v)| (*id, rank::cosine(query, v)))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.into_iter().take(limit).map(|(id, _)| id).collect()
    }
}

/// The FTS5 expression for a question: its terms, each quoted, joined by `OR` (BM25 rewards chunks that match
/// more of them); `None` when the question has no searchable word.
pub fn match_expression(query: &str) -> Option<String> {
    let terms = words::query_terms(query);
    if terms.is_empty() {
        return None;
    }
    let quoted: Vec<String> = terms
        .iter()
        .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
        .collect();
    Some(quoted.join(" OR "))
}

/// Runs `request` against `store`; `query_vector` and `vectors` take part when embeddings work.
pub fn run(
    store: &Store,
    request: &SearchRequest,
    query_vector: Option<&[f32]>,
    vectors: Option<&Vectors>,
) -> Result<SearchResults, IndexError> {
    let filter = Filter {
        path_prefix: request.path_prefix.trim_start_matches("./").to_string(),
        language: request.language.trim().to_lowercase(),
    };
    let keyword: Vec<(i64, f64)> = match match_expression(&request.query) {
        Some(expression) => store.keyword_search(&expression, &filter, CANDIDATES)?,
        None => Vec::new(),
    };
    let nearest = match (query_vector, vectors) {
        (Some(q), Some(v)) => Some(v.nearest(q, &filter, CANDIDATES)),
        _ => None,
    };
    let (ranked, ranking): (Vec<(i64, f64)>, Ranking) = match nearest {
        Some(nearest) => {
            let keyword_ids: Vec<i64> = keyword.iter().map(|(id, _)| *id).collect();
            (rank::fuse(&[keyword_ids, nearest]), Ranking::Hybrid)
        }
        None => (keyword, Ranking::Keywords),
    };
    let top_k = request.top_k.max(1);
    let ids: Vec<i64> = ranked.iter().map(|(id, _)| *id).collect();
    let scores: HashMap<i64, f64> = ranked.into_iter().collect();
    let mut per_file: HashMap<String, usize> = HashMap::new();
    let mut hits = Vec::new();
    // Rows are fetched in slices: most searches need only the first few.
    for slice in ids.chunks(top_k * 2) {
        for chunk in store.chunks(slice)? {
            let seen = per_file.entry(chunk.path.clone()).or_default();
            if *seen >= PER_FILE {
                continue;
            }
            *seen += 1;
            let score = scores.get(&chunk.id).copied().unwrap_or_default();
            hits.push(Hit { chunk, score });
            if hits.len() == top_k {
                break;
            }
        }
        if hits.len() == top_k {
            break;
        }
    }
    Ok(SearchResults {
        hits,
        ranking,
        catching_up: false,
        embed_error: None,
    })
}

/// The first `lines` non-blank lines of a hit, each cut to `width` chars, with their line numbers.
pub fn snippet(chunk: &ChunkRow, lines: usize, width: usize) -> Vec<(usize, String)> {
    chunk
        .text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(lines)
        .map(|(i, l)| {
            let line: String = l.trim_end().chars().take(width).collect();
            (chunk.start_line + i, line)
        })
        .collect()
}

/// Lines a suggested `read_file` call asks for at most.
pub const READ_LIMIT: usize = 200;

/// The `read_file` arguments that show a hit: from its first line, its length (at most [`READ_LIMIT`]).
pub fn read_call(chunk: &ChunkRow) -> serde_json::Value {
    let limit = (chunk.end_line + 1)
        .saturating_sub(chunk.start_line)
        .clamp(1, READ_LIMIT);
    serde_json::json!({"path": chunk.path, "offset": chunk.start_line, "limit": limit})
}
