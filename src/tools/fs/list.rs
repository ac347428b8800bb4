//! `list_dir`: one level of a directory, sorted, `[D]`/`[F]` prefixed.

use std::cmp::Ordering;
use std::fs::DirEntry;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::{Param, display, object_schema, resolve_arg, run_blocking};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits};

/// The most entries one listing shows.
const MAX_ENTRIES: usize = 1000;

const PARAMS: &[Param] = &[(
    "path",
    "string",
    "Directory path, relative to the project root (\".\" for the root).",
)];

/// Lists one directory level.
///
/// Order: directories first, then files; within each group by name, case-insensitively (ties by exact name), so
/// the listing is stable across calls and platforms.
pub struct ListDir;

#[async_trait]
impl Tool for ListDir {
    fn name(&self) -> &str {
        "list_dir"
    }

    fn description(&self) -> &str {
        "List one level of a directory: directories first, then files, each sorted by name, \
         prefixed [D] or [F]."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["path"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, list_dir).await
    }
}

/// One listed entry.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    is_dir: bool,
    is_symlink: bool,
}

fn list_dir(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let path = resolve_arg(args, "path", ctx)?;
    let rel = display(ctx, &path);
    let meta = std::fs::metadata(&path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::NotFound {
            ToolOutcome::failed(format!(
                "directory not found: {rel}; list its parent or use glob_files"
            ))
        } else {
            ToolOutcome::failed(format!("cannot list {rel}: {err}"))
        }
    })?;
    if !meta.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "{rel} is a file, not a directory; use read_file to read it"
        )));
    }
    let reader = std::fs::read_dir(&path)
        .map_err(|err| ToolOutcome::failed(format!("cannot list {rel}: {err}")))?;
    let mut entries: Vec<Entry> = reader.filter_map(Result::ok).map(to_entry).collect();
    entries.sort_by(compare);
    Ok(ToolOutcome::ok(render(&rel, &entries)))
}

fn to_entry(entry: DirEntry) -> Entry {
    let is_symlink = entry.file_type().is_ok_and(|t| t.is_symlink());
    // Follow symlinks for the kind, so a link to a directory reads as one.
    let is_dir = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
    Entry {
        name: entry.file_name().to_string_lossy().into_owned(),
        is_dir,
        is_symlink,
    }
}

fn compare(a: &Entry, b: &Entry) -> Ordering {
    b.is_dir
        .cmp(&a.is_dir)
        .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        .then_with(|| a.name.cmp(&b.name))
}

fn render(rel: &str, entries: &[Entry]) -> String {
    if entries.is_empty() {
        return format!("Directory: {rel} (empty)");
    }
    let mut out = format!("Directory: {rel} ({} entries)\n", entries.len());
    for entry in entries.iter().take(MAX_ENTRIES) {
        let (tag, slash) = if entry.is_dir {
            ("[D]", "/")
        } else {
            ("[F]", "")
        };
        let link = if entry.is_symlink { " (symlink)" } else { "" };
        out.push_str(&format!("{tag} {}{slash}{link}\n", entry.name));
    }
    if entries.len() > MAX_ENTRIES {
        out.push_str(&format!(
            "... {} more entries not shown (first {MAX_ENTRIES} listed); use glob_files to narrow down\n",
            entries.len() - MAX_ENTRIES
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, is_dir: bool) -> Entry {
        Entry {
            name: name.to_string(),
            is_dir,
            is_symlink: false,
        }
    }

    #[test]
    fn directories_first_then_names_case_insensitive() {
        let mut entries = [
            entry("b.txt", false),
            entry("src", true),
            entry("A.txt", false),
            entry("Docs", true),
            entry("a.txt", false),
        ];
        entries.sort_by(compare);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, vec!["Docs", "src", "A.txt", "a.txt", "b.txt"]);
    }

    #[test]
    fn long_listing_is_capped_with_note() {
        let entries: Vec<Entry> = (0..1005)
            .map(|i| entry(&format!("f{i:04}"), false))
            .collect();
        let out = render(".", &entries);
        assert_eq!(out.lines().filter(|l| l.starts_with("[F]")).count(), 1000);
        assert!(out.contains("5 more entries not shown"));
    }
}
