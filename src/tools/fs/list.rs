//! `list_dir`: one level of a directory, sorted, `[D]`/`[F]` prefixed.

use std::cmp::Ordering;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::{Param, display, object_schema, resolve_read_arg, run_blocking};
use crate::guard::path_guard::{DirEntry, DirHandle, EntryKind};
use crate::tools::{Args, Tool, ToolContext, ToolOutcome, ToolTraits};

/// The most entries one listing shows.
const MAX_ENTRIES: usize = 1000;

const PARAMS: &[Param] = &[("path", "string", "\".\" for the root.")];

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
        "List one level of a directory: directories, then files, by name, prefixed [D] or [F]."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["path"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        crate::tools::call_view::str_arg(args, "path")
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        crate::tools::call_view::path_location(args)
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
    let path = resolve_read_arg(args, "path", ctx)?;
    let rel = display(ctx, &path);
    let dir = ctx.guard.open_dir(&path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => ToolOutcome::failed(format!(
            "directory not found: {rel}; list its parent or use glob_files"
        )),
        std::io::ErrorKind::NotADirectory => ToolOutcome::failed(format!(
            "{rel} is a file, not a directory; use read_file to read it"
        )),
        _ => ToolOutcome::failed(format!("cannot list {rel}: {err}")),
    })?;
    let listed = dir
        .entries()
        .map_err(|err| ToolOutcome::failed(format!("cannot list {rel}: {err}")))?;
    let mut entries: Vec<Entry> = listed.into_iter().map(|e| to_entry(&dir, e)).collect();
    entries.sort_by(compare);
    Ok(ToolOutcome::ok(render(&rel, &entries)))
}

fn to_entry(dir: &DirHandle, entry: DirEntry) -> Entry {
    let is_symlink = entry.kind == EntryKind::Symlink;
    // A link to a directory reads as one.
    let is_dir = entry.kind == EntryKind::Dir || (is_symlink && dir.leads_to_dir(&entry.name));
    Entry {
        name: entry.name.to_string_lossy().into_owned(),
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
