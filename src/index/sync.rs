//! Freshness: a stat walk of the project (`.gitignore` honoured, build directories skipped) compared with what
//! the index holds by size and mtime; files whose stat changed are read and, when their content hash changed
//! too, chunked again. Deleted files are forgotten.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use ignore::WalkBuilder;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use super::IndexError;
use super::chunker::{Parsed, parse_file};
use super::language::FileKind;
use super::store::{FileRecord, FileState, Store};
use crate::guard::skip_dirs::SKIP_DIRS;

/// Files larger than this are not indexed (data, bundles, vendored amalgamations).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Files read and chunked between two writes: the write lock is held for one batch at a time.
const BATCH_FILES: usize = 64;

/// A file the walk found.
#[derive(Clone, Debug)]
pub struct WalkedFile {
    /// Relative to the project root, with `/` separators.
    pub rel: String,
    pub abs: PathBuf,
    pub kind: FileKind,
    pub size: u64,
    pub mtime_ns: i64,
}

/// What a sync has to do.
#[derive(Debug, Default)]
pub struct Plan {
    /// Files that are new or whose stat changed.
    pub changed: Vec<WalkedFile>,
    /// Indexed paths that are gone (or no longer indexable).
    pub removed: Vec<String>,
    /// Files the walk found.
    pub seen: usize,
}

impl Plan {
    /// Nothing to do.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty()
    }
}

/// What a sync did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncReport {
    /// Files the walk found.
    pub seen: usize,
    /// Files whose content changed and were chunked again.
    pub reindexed: usize,
    /// Files forgotten.
    pub removed: usize,
}

/// The indexable files under `root/prefix` (prefix empty for the whole project).
pub fn walk(root: &Path, prefix: &str) -> Vec<WalkedFile> {
    let base = if prefix.is_empty() {
        root.to_path_buf()
    } else {
        root.join(prefix)
    };
    let mut builder = WalkBuilder::new(&base);
    builder
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let skipped = entry
                .file_name()
                .to_str()
                .is_some_and(|name| SKIP_DIRS.contains(&name));
            entry.depth() == 0 || !(is_dir && skipped)
        });
    let mut found = Vec::new();
    for entry in builder.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(kind) = FileKind::of(entry.path()) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        if meta.len() > MAX_FILE_BYTES {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        found.push(WalkedFile {
            rel: rel.to_string_lossy().replace('\\', "/"),
            abs: entry.path().to_path_buf(),
            kind,
            size: meta.len(),
            mtime_ns,
        });
    }
    found
}

/// Compares a walk under `prefix` with the stored states.
pub fn plan(walked: Vec<WalkedFile>, stored: &HashMap<String, FileState>, prefix: &str) -> Plan {
    let seen: HashSet<&str> = walked.iter().map(|f| f.rel.as_str()).collect();
    let under =
        |path: &str| prefix.is_empty() || path == prefix || path.starts_with(&format!("{prefix}/"));
    let mut removed: Vec<String> = stored
        .keys()
        .filter(|path| under(path) && !seen.contains(path.as_str()))
        .cloned()
        .collect();
    removed.sort();
    let count = walked.len();
    let changed = walked
        .into_iter()
        .filter(|f| {
            stored
                .get(&f.rel)
                .is_none_or(|s| s.size != f.size || s.mtime_ns != f.mtime_ns)
        })
        .collect();
    Plan {
        changed,
        removed,
        seen: count,
    }
}

/// Carries out `plan`: re-stats files whose content is unchanged, chunks the others, forgets removed ones.
/// `progress` hears `(files done, files to do)`; a cancelled sync stops between batches, keeping what it wrote.
pub fn apply(
    store: &mut Store,
    plan: Plan,
    stored: &HashMap<String, FileState>,
    progress: &dyn Fn(usize, usize),
    cancel: &CancellationToken,
) -> Result<SyncReport, IndexError> {
    let mut report = SyncReport {
        seen: plan.seen,
        removed: plan.removed.len(),
        ..SyncReport::default()
    };
    if !plan.removed.is_empty() {
        store.delete_paths(&plan.removed)?;
    }
    let total = plan.changed.len();
    let mut done = 0;
    if total > 0 {
        progress(0, total);
    }
    for batch in plan.changed.chunks(BATCH_FILES) {
        if cancel.is_cancelled() {
            break;
        }
        let mut touched = Vec::new();
        let mut records = Vec::new();
        for file in batch {
            let Ok(bytes) = std::fs::read(&file.abs) else {
                done += 1;
                continue;
            };
            let hash = hex_sha256(&bytes);
            if stored.get(&file.rel).is_some_and(|s| s.hash == hash) {
                touched.push((file.rel.clone(), file.size, file.mtime_ns));
            } else {
                records.push(record(file, &bytes, hash));
            }
            done += 1;
            progress(done, total);
        }
        if !touched.is_empty() {
            store.touch(&touched)?;
        }
        report.reindexed += store.write_files(&records)?;
    }
    Ok(report)
}

/// The record of one file: chunks and relations, or marked skipped when binary or generated.
fn record(file: &WalkedFile, bytes: &[u8], hash: String) -> FileRecord {
    let text = std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !is_binary_or_generated(t));
    let parsed = text.map_or_else(Parsed::default, |t| {
        parse_file(Path::new(&file.rel), file.kind, t)
    });
    FileRecord {
        path: file.rel.clone(),
        size: file.size,
        mtime_ns: file.mtime_ns,
        hash,
        language: file.kind.name(),
        skipped: text.is_none(),
        parsed,
    }
}

/// Markers generators write near the top of their output.
const GENERATED_MARKERS: &[&str] = &[
    "@generated",
    "DO NOT EDIT",
    "Code generated",
    "auto-generated",
    "autogenerated",
];

/// Text that is not worth indexing: NUL bytes, a generator's marker in the first lines, or minified lines.
pub fn is_binary_or_generated(text: &str) -> bool {
    if text.as_bytes().iter().take(8192).any(|&b| b == 0) {
        return true;
    }
    let head: String = text.lines().take(5).collect::<Vec<_>>().join("\n");
    if GENERATED_MARKERS.iter().any(|m| head.contains(m)) {
        return true;
    }
    text.lines().take(50).any(|l| l.len() > 5000)
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
