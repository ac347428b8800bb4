//! `glob_files`: project files whose path matches a glob, sorted.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::clamp_arg;
use super::path_glob::PathGlob;
use crate::guard::walk::walk_parallel;
use crate::protocol::ToolKind;
use crate::tools::fs::{Param, display, guard_outcome, object_schema, run_blocking};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits, call_view};

const DEFAULT_RESULTS: usize = 50;
const MAX_RESULTS: usize = 200;

const PARAMS: &[Param] = &[
    (
        "pattern",
        "string",
        "E.g. `src/**/*.rs`; without `/` it matches file names at any depth.",
    ),
    ("path", "string", "Directory (default \".\")."),
    ("max_results", "integer", "Default 50, max 200."),
];

/// Finds files by glob.
pub struct GlobFiles;

#[async_trait]
impl Tool for GlobFiles {
    fn name(&self) -> &str {
        "glob_files"
    }

    fn description(&self) -> &str {
        "Find files by glob; returns sorted paths. Honours .gitignore, skips build and dependency directories."
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
        run_blocking(args, ctx, glob_files).await
    }
}

pub(super) fn glob_files(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let pattern = args.required_str("pattern")?.trim();
    if pattern.is_empty() {
        return Err(ToolOutcome::failed(
            "pattern is empty; pass a glob such as `*.rs`",
        ));
    }
    if pattern.starts_with('/') {
        return Err(ToolOutcome::failed(
            "pattern must be relative to `path` (e.g. `src/**/*.rs`), not absolute",
        ));
    }
    let base = search_base(args, ctx)?;
    if !base.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "{} is not a directory; pass a directory as path",
            display(ctx, &base)
        )));
    }
    let max = clamp_arg(args.int("max_results"), DEFAULT_RESULTS, 1, MAX_RESULTS);
    let glob = PathGlob::new(pattern)
        .map_err(|err| ToolOutcome::failed(format!("invalid glob pattern `{pattern}`: {err}")))?;
    let accept = |rel: &Path| glob.is_match(rel);
    let walked = walk_parallel(
        base.as_path(),
        Some(&accept),
        &ctx.cancel,
        |_, _: &mut ()| Some(()),
    );
    let mut found: Vec<String> = walked
        .found
        .iter()
        .map(|(file, ())| display(ctx, file))
        .collect();
    if walked.cancelled {
        found.sort();
        return Ok(ToolOutcome::Cancelled {
            partial: found.join("\n"),
        });
    }
    found.sort();
    Ok(ToolOutcome::ok(render(
        pattern,
        &display(ctx, &base),
        &found,
        max,
    )))
}

/// The directory a search starts from: `path` through the guard, `.` when absent or blank.
pub(super) fn search_base(args: Args<'_>, ctx: &ToolContext) -> Result<PathBuf, ToolOutcome> {
    let input = args
        .str("path")
        .filter(|p| !p.trim().is_empty())
        .unwrap_or(".");
    ctx.guard.resolve(input).map_err(guard_outcome)
}

fn render(pattern: &str, base: &str, found: &[String], max: usize) -> String {
    if found.is_empty() {
        return format!("No files match `{pattern}` under {base}.");
    }
    let mut out = format!("{} files match `{pattern}` under {base}:\n", found.len());
    for path in found.iter().take(max) {
        out.push_str(path);
        out.push('\n');
    }
    if found.len() > max {
        out.push_str(&format!(
            "(showing the first {max} of {}; narrow the pattern or path, or raise max_results up to {MAX_RESULTS})\n",
            found.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_caps_with_a_note() {
        let found: Vec<String> = ["a.rs", "b.rs", "c.rs"].map(String::from).to_vec();
        assert_eq!(
            render("*.rs", ".", &found, 2),
            "3 files match `*.rs` under .:\na.rs\nb.rs\n\
             (showing the first 2 of 3; narrow the pattern or path, or raise max_results up to 200)\n"
        );
        assert_eq!(
            render("*.x", "src", &[], 2),
            "No files match `*.x` under src."
        );
    }

    #[test]
    fn clamp_keeps_limits() {
        assert_eq!(clamp_arg(None, 50, 1, 200), 50);
        assert_eq!(clamp_arg(Some(999), 50, 1, 200), 200);
        assert_eq!(clamp_arg(Some(-3), 50, 1, 200), 1);
    }
}
