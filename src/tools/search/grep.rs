//! `grep_code`: lines matching a literal or regex, with context and suggested reads (format in `report`).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value};

use super::clamp_arg;
use super::glob::search_base;
use super::report::{FileMatches, render};
use super::walk::{PathGlob, walk_files};
use crate::tools::fs::text::{SNIFF_BYTES, classify, decode_lossy};
use crate::tools::fs::{Param, display, object_schema, run_blocking};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits};

/// Files bigger than this are skipped (generated bundles, logs, data dumps).
const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

const PARAMS: &[Param] = &[
    (
        "pattern",
        "string",
        "Text to find (literal unless regex is true).",
    ),
    (
        "path",
        "string",
        "File or directory to search, relative to the project root (default \".\").",
    ),
    (
        "glob",
        "string",
        "Only files matching this glob, e.g. `*.rs` (as in glob_files).",
    ),
    (
        "regex",
        "boolean",
        "Treat pattern as a regular expression (default false).",
    ),
    ("case_sensitive", "boolean", "Match case (default true)."),
    (
        "context_lines",
        "integer",
        "Context lines around each hit (0-5, default 0).",
    ),
    (
        "max_results",
        "integer",
        "Most hits in total (default 50, max 200).",
    ),
    (
        "head_limit",
        "integer",
        "Most hits per file (default 20, max 50).",
    ),
    (
        "max_chars",
        "integer",
        "Output size cap (default 24000, 1000-60000).",
    ),
];

/// Searches file contents; the output format is shown in the `report` module docs.
pub struct GrepCode;

#[async_trait]
impl Tool for GrepCode {
    fn name(&self) -> &str {
        "grep_code"
    }

    fn description(&self) -> &str {
        "Search file contents (honours .gitignore, skips binary files). Output: `file:line` blocks with `>` on \
         hit lines, `partial: true` when cut, and suggested_reads to open next with read_file."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["pattern"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, grep_code).await
    }
}

/// The validated search settings.
struct Search {
    regex: Regex,
    context: usize,
    max_results: usize,
    head_limit: usize,
    max_chars: usize,
}

pub(super) fn grep_code(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let pattern = args.required_str("pattern")?;
    if pattern.is_empty() {
        return Err(ToolOutcome::failed(
            "pattern is empty; pass the text to search for",
        ));
    }
    let is_regex = args.bool("regex").unwrap_or(false);
    let search = Search {
        regex: compile(
            pattern,
            is_regex,
            args.bool("case_sensitive").unwrap_or(true),
        )?,
        context: clamp_arg(args.int("context_lines"), 0, 0, 5),
        max_results: clamp_arg(args.int("max_results"), 50, 1, 200),
        head_limit: clamp_arg(args.int("head_limit"), 20, 1, 50),
        max_chars: clamp_arg(args.int("max_chars"), 24_000, 1_000, 60_000),
    };
    let base = search_base(args, ctx)?;
    let glob = match args.str("glob").filter(|g| !g.trim().is_empty()) {
        Some(g) => Some(
            PathGlob::new(g)
                .map_err(|err| ToolOutcome::failed(format!("invalid glob `{g}`: {err}")))?,
        ),
        None => None,
    };
    let candidates = candidate_files(&base, glob.as_ref(), ctx)?;
    let mut found: Vec<FileMatches> = Vec::new();
    let mut total = 0;
    let mut cut = Vec::new();
    for file in candidates {
        if ctx.cancel.is_cancelled() {
            return Ok(ToolOutcome::Cancelled {
                partial: render(&found, search.context, search.max_chars, cut),
            });
        }
        if total >= search.max_results {
            cut.push(format!("max_results={} reached", search.max_results));
            break;
        }
        let allowed = search.head_limit.min(search.max_results - total);
        let Some((lines, hits, more)) = scan_file(&file, &search.regex, allowed) else {
            continue;
        };
        if more && allowed == search.head_limit {
            push_once(
                &mut cut,
                format!("head_limit={} per file reached", search.head_limit),
            );
        } else if more {
            push_once(
                &mut cut,
                format!("max_results={} reached", search.max_results),
            );
        }
        total += hits.len();
        found.push(FileMatches {
            rel: display(ctx, &file),
            lines,
            hits,
        });
    }
    if found.is_empty() {
        return Ok(ToolOutcome::ok(no_match(
            pattern,
            is_regex,
            &display(ctx, &base),
        )));
    }
    Ok(ToolOutcome::ok(render(
        &found,
        search.context,
        search.max_chars,
        cut,
    )))
}

fn compile(pattern: &str, is_regex: bool, case_sensitive: bool) -> Result<Regex, ToolOutcome> {
    let source = if is_regex {
        pattern.to_string()
    } else {
        regex::escape(pattern)
    };
    RegexBuilder::new(&source)
        .case_insensitive(!case_sensitive)
        .build()
        .map_err(|err| {
            ToolOutcome::failed(format!(
                "invalid regex `{pattern}`: {err}\nfix the pattern, or set regex=false to search for it literally"
            ))
        })
}

/// The files to search: `base` itself when it is a file, else the walk filtered by `glob`.
fn candidate_files(
    base: &Path,
    glob: Option<&PathGlob>,
    ctx: &ToolContext,
) -> Result<Vec<PathBuf>, ToolOutcome> {
    if base.is_file() {
        return Ok(vec![base.to_path_buf()]);
    }
    if !base.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "path not found: {}; use list_dir or glob_files to find it",
            display(ctx, base)
        )));
    }
    let mut files = Vec::new();
    for file in walk_files(base) {
        if ctx.cancel.is_cancelled() {
            return Err(ToolOutcome::Cancelled {
                partial: String::new(),
            });
        }
        let rel = file.strip_prefix(base).unwrap_or(&file);
        if glob.is_none_or(|g| g.is_match(rel)) {
            files.push(file);
        }
    }
    Ok(files)
}

/// A text file's lines and up to `limit` hit indices; `more` says hits were left out. `None` skips the file.
fn scan_file(path: &Path, regex: &Regex, limit: usize) -> Option<(Vec<String>, Vec<usize>, bool)> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    if classify(path, &bytes[..bytes.len().min(SNIFF_BYTES)]).is_some() {
        return None;
    }
    let (text, _) = decode_lossy(&bytes);
    let mut hits = Vec::new();
    let mut more = false;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (index, line) in lines.iter().enumerate() {
        if regex.is_match(line) {
            if hits.len() == limit {
                more = true;
                break;
            }
            hits.push(index);
        }
    }
    (!hits.is_empty()).then_some((lines, hits, more))
}

fn push_once(reasons: &mut Vec<String>, reason: String) {
    if !reasons.contains(&reason) {
        reasons.push(reason);
    }
}

fn no_match(pattern: &str, is_regex: bool, base: &str) -> String {
    let mut out = format!("No matches for `{pattern}` under {base}.");
    let looks_like_regex = pattern.chars().any(|c| "\\.*+?|()[]{}^$".contains(c));
    if !is_regex && looks_like_regex {
        out.push_str(" The pattern was searched literally; set regex=true to use it as a regular expression.");
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn literal_patterns_are_escaped() {
        let regex = compile("a.b(", false, true).unwrap();
        assert!(regex.is_match("x a.b( y"));
        assert!(!regex.is_match("axb("));
    }

    #[test]
    fn case_insensitive_when_asked() {
        assert!(compile("hello", false, false).unwrap().is_match("HeLLo"));
        assert!(!compile("hello", false, true).unwrap().is_match("HeLLo"));
    }

    #[test]
    fn bad_regex_fails_with_a_hint() {
        let err = compile("fn (", true, true).unwrap_err();
        assert!(err.model_text().starts_with("[error] invalid regex `fn (`"));
        assert!(err.model_text().contains("regex=false"));
    }

    #[test]
    fn no_match_suggests_regex_for_regex_like_patterns() {
        assert!(no_match("foo.*bar", false, ".").contains("regex=true"));
        assert!(!no_match("foo", false, ".").contains("regex=true"));
    }
}
