//! Picks the saved facts relevant to a user message: term overlap with ASCII words and CJK bigrams, so it works
//! for Chinese and English without a segmenter.

use std::collections::HashSet;

use super::MemoryEntry;
use crate::llm::tokens::estimate_text;

/// Most facts injected per turn.
pub const MAX_FACTS: usize = 10;

/// Words too common to say anything about relevance.
const STOPWORDS: &[&str] = &[
    "the", "and", "for", "with", "this", "that", "is", "are", "to", "of", "in", "on", "it", "be",
    "we", "you", "a", "an", "or", "do", "use", "please", "can", "should", "what", "how",
];

/// Search terms of `text`: lower-case ASCII words (2+ chars) and bigrams of CJK runs (single chars for runs of 1).
pub fn terms(text: &str) -> HashSet<String> {
    let lower = text.to_lowercase();
    let mut out = HashSet::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, out: &mut HashSet<String>| {
        if word.chars().count() >= 2 && !STOPWORDS.contains(&word.as_str()) {
            out.insert(std::mem::take(word));
        }
        word.clear();
    };
    let flush_cjk = |cjk: &mut Vec<char>, out: &mut HashSet<String>| {
        if cjk.len() == 1 {
            out.insert(cjk[0].to_string());
        }
        for w in cjk.windows(2) {
            out.insert(w.iter().collect());
        }
        cjk.clear();
    };
    for c in lower.chars() {
        if is_cjk(c) {
            flush_word(&mut word, &mut out);
            cjk.push(c);
        } else if c.is_alphanumeric() || c == '_' {
            flush_cjk(&mut cjk, &mut out);
            word.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_cjk(&mut cjk, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_cjk(&mut cjk, &mut out);
    out
}

/// Scripts written without spaces between words, split into bigrams (CJK punctuation is a separator here).
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// How well `fact` matches the query terms (0 = not at all). Long facts do not win by length alone.
pub fn score(query: &HashSet<String>, fact: &str) -> f64 {
    let fact_terms = terms(fact);
    if fact_terms.is_empty() {
        return 0.0;
    }
    let hits = fact_terms.intersection(query).count();
    hits as f64 / (fact_terms.len() as f64).sqrt()
}

/// The best matches for `query`, best first, at most [`MAX_FACTS`], within `max_tokens` (estimated).
/// Stale facts count half.
pub fn rank(entries: Vec<MemoryEntry>, query: &str, now: i64, max_tokens: u64) -> Vec<MemoryEntry> {
    let query = terms(query);
    let mut scored: Vec<(f64, MemoryEntry)> = entries
        .into_iter()
        .map(|e| {
            let mut s = score(&query, &e.fact);
            if e.is_stale_at(now) {
                s /= 2.0;
            }
            (s, e)
        })
        .filter(|(s, _)| *s > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
    let mut used = 0;
    let mut out = Vec::new();
    for (_, entry) in scored.into_iter().take(MAX_FACTS) {
        let cost = estimate_text(&entry.fact) + 8;
        if used + cost > max_tokens {
            continue;
        }
        used += cost;
        out.push(entry);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn terms_cover_words_and_cjk_bigrams() {
        let t = terms("Run cargo test in 项目目录");
        for want in ["run", "cargo", "test", "项目", "目目", "目录"] {
            assert!(t.contains(want), "{want} missing from {t:?}");
        }
        assert!(!t.contains("in"));
    }

    #[test]
    fn relevant_facts_score_above_unrelated_ones() {
        let q = terms("how do I run the tests?");
        assert!(
            score(&q, "Run tests with cargo nextest") > score(&q, "The database is PostgreSQL")
        );
        let q = terms("数据库用的是什么");
        assert!(score(&q, "数据库是 PostgreSQL 15") > 0.0);
    }

    #[test]
    fn the_recall_budget_counts_with_the_shared_estimator() {
        let fact = "数据库是 PostgreSQL 15, run migrations with sqlx";
        let entry = MemoryEntry {
            id: "m1".into(),
            fact: fact.into(),
            scope: super::super::Scope::Project,
            created_at: 0,
            verified_at: 0,
            source: None,
        };
        let cost = crate::llm::tokens::estimate_text(fact) + 8;
        let query = "which 数据库 and migrations?";
        assert_eq!(rank(vec![entry.clone()], query, 0, cost).len(), 1);
        assert!(rank(vec![entry], query, 0, cost - 1).is_empty());
    }
}
