//! `grep_code`: lines matching a literal or regex, with context and suggested reads (format in `report`).

use std::path::Path;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::clamp_arg;
use super::glob::search_base;
use super::path_glob::PathGlob;
use super::report::{FileMatches, render};
use super::scan::{Pattern, Scanner, compile, read_lines};
use crate::guard::walk::{Walked, walk_parallel};
use crate::protocol::ToolKind;
use crate::tools::fs::{Param, display, object_schema, run_blocking};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits, call_view};

const PARAMS: &[Param] = &[
    ("pattern", "string", "Literal unless regex is true."),
    ("path", "string", "File or directory (default \".\")."),
    ("glob", "string", "Only files matching it, e.g. `*.rs`."),
    ("regex", "boolean", ""),
    ("case_sensitive", "boolean", "Default true."),
    ("context_lines", "integer", "0-5, default 0."),
    ("max_results", "integer", "Default 50, max 200."),
    (
        "head_limit",
        "integer",
        "Most hits per file (default 20, max 50).",
    ),
    ("max_chars", "integer", "Default 24000, 1000-60000."),
];

/// Searches file contents; the output format is shown in the `report` module docs.
pub struct GrepCode;

#[async_trait]
impl Tool for GrepCode {
    fn name(&self) -> &str {
        "grep_code"
    }

    fn description(&self) -> &str {
        "Search file contents (honours .gitignore, skips binary files): `file:line` blocks with `>` on hit \
         lines, `partial: true` when cut, and suggested_reads."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["pattern"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Search,
            ..ToolTraits::READ_ONLY
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        call_view::pattern_in_path(args, "pattern")
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        call_view::path_location(args)
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, grep_code).await
    }
}

/// The validated search settings.
struct Search {
    pattern: Pattern,
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
        pattern: compile(
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
    let walked = find_hits(&base, glob.as_ref(), &search, ctx)?;
    let (found, cut) = collect(&walked, &search, ctx);
    if walked.cancelled || ctx.cancel.is_cancelled() {
        let partial = if found.is_empty() {
            String::new()
        } else {
            render(&found, search.context, search.max_chars, cut)
        };
        return Err(ToolOutcome::Cancelled { partial });
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

/// Hit lines per file, in walk order: `base` itself when it is a file, else a parallel walk filtered by `glob`.
///
/// Each file keeps one hit more than `head_limit`, so the caller can tell that hits were left out.
fn find_hits(
    base: &Path,
    glob: Option<&PathGlob>,
    search: &Search,
    ctx: &ToolContext,
) -> Result<Walked<Vec<usize>>, ToolOutcome> {
    let limit = search.head_limit + 1;
    if base.is_file() {
        let hits = Scanner::default().hits(&ctx.guard, base, &search.pattern, limit);
        return Ok(Walked {
            found: hits.map(|h| (base.to_path_buf(), h)).into_iter().collect(),
            last: Some(base.to_path_buf()),
            cancelled: false,
        });
    }
    if !base.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "path not found: {}; use list_dir or glob_files to find it",
            display(ctx, base)
        )));
    }
    let accept = |rel: &Path| glob.is_none_or(|glob| glob.is_match(rel));
    Ok(walk_parallel(
        base,
        Some(&accept),
        &ctx.cancel,
        |path, scanner: &mut Scanner| scanner.hits(&ctx.guard, path, &search.pattern, limit),
    ))
}

/// Applies the per-file and total limits in walk order and reads the lines of the files shown.
fn collect(
    walked: &Walked<Vec<usize>>,
    search: &Search,
    ctx: &ToolContext,
) -> (Vec<FileMatches>, Vec<String>) {
    let mut found: Vec<FileMatches> = Vec::new();
    let mut total = 0;
    let mut cut = Vec::new();
    for (file, hits) in &walked.found {
        if ctx.cancel.is_cancelled() {
            break;
        }
        if total >= search.max_results {
            push_once(
                &mut cut,
                format!("max_results={} reached", search.max_results),
            );
            break;
        }
        let allowed = search.head_limit.min(search.max_results - total);
        let Some(lines) = read_lines(&ctx.guard, file) else {
            continue;
        };
        let more = hits.len() > allowed;
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
        let hits: Vec<usize> = hits.iter().copied().take(allowed).collect();
        total += hits.len();
        found.push(FileMatches {
            rel: display(ctx, file),
            lines,
            hits,
        });
    }
    // The cap also cut the search short when files without hits follow the last file with hits.
    let last_with_hits = walked.found.last().map(|(path, _)| path);
    if total >= search.max_results && walked.last.as_ref() > last_with_hits {
        push_once(
            &mut cut,
            format!("max_results={} reached", search.max_results),
        );
    }
    (found, cut)
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
    use crate::guard::path_guard::PathGuard;

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

    #[test]
    fn anchors_match_lines_with_crlf_endings() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("win.txt");
        std::fs::write(&file, "first\r\nclass A {\r\nlast").unwrap();
        let pattern = compile("^class \\w+ \\{$", true, true).unwrap();
        let guard = PathGuard::new(tmp.path()).unwrap();
        assert_eq!(
            Scanner::default().hits(&guard, &file, &pattern, 5),
            Some(vec![1])
        );
        let lines = read_lines(&guard, &file).unwrap();
        assert_eq!(lines, vec!["first", "class A {", "last"]);
    }

    #[test]
    fn scanner_keeps_at_most_the_limit_and_skips_binary() {
        let tmp = tempfile::tempdir().unwrap();
        let text = tmp.path().join("many.txt");
        std::fs::write(&text, "hit\nmiss\nhit\nhit\n").unwrap();
        let binary = tmp.path().join("data.txt");
        std::fs::write(&binary, "hit\0hit\n").unwrap();
        let pattern = compile("hit", false, true).unwrap();
        let mut scanner = Scanner::default();
        let guard = PathGuard::new(tmp.path()).unwrap();
        assert_eq!(scanner.hits(&guard, &text, &pattern, 2), Some(vec![0, 2]));
        assert_eq!(scanner.hits(&guard, &binary, &pattern, 2), None);
        assert_eq!(
            scanner.hits(&guard, &text, &compile("absent", false, true).unwrap(), 2),
            None
        );
    }
}
