//! Freshness: a stat walk of the project (`guard::walk`, as the search tools walk) compared with what
//! the index holds by size and mtime; files whose stat changed are read and, when their content hash changed
//! too, chunked again. Deleted files are forgotten.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use super::IndexError;
use super::chunker::{Parsed, parse_file};
use super::language::FileKind;
use super::store::{FileRecord, FileState, Store};
use crate::guard::walk::walk_parallel;

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

/// The indexable files under `root/prefix` (prefix empty for the whole project), sorted by path, on the walk
/// the search tools use.
pub fn walk(root: &Path, prefix: &str) -> Vec<WalkedFile> {
    let base = if prefix.is_empty() {
        root.to_path_buf()
    } else {
        root.join(prefix)
    };
    let walked = walk_parallel(
        &base,
        None,
        &CancellationToken::new(),
        |path, _: &mut ()| walked_file(root, path),
    );
    walked.found.into_iter().map(|(_, file)| file).collect()
}

/// The walk's record of one file: its kind and stat; `None` when it is not indexable or too large.
fn walked_file(root: &Path, path: &Path) -> Option<WalkedFile> {
    let kind = FileKind::of(path)?;
    // The walk does not follow links, so this stats the file itself.
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let rel = path.strip_prefix(root).ok()?;
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    Some(WalkedFile {
        rel: rel.to_string_lossy().replace('\\', "/"),
        abs: path.to_path_buf(),
        kind,
        size: meta.len(),
        mtime_ns,
    })
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
/// `progress` hears `(files done, files to do)` after each batch; a cancelled sync stops between batches,
/// keeping what it wrote. Files are read and chunked on worker threads while the previous batch is written.
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
    if total == 0 {
        return Ok(report);
    }
    progress(0, total);
    let workers = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let mut done = 0;
    let mut write = |batch: Vec<Prepared>| -> Result<(), IndexError> {
        done += batch.len();
        let mut touched = Vec::new();
        let mut records = Vec::new();
        for prepared in batch {
            match prepared {
                Prepared::Unreadable => {}
                Prepared::Unchanged(rel, size, mtime_ns) => touched.push((rel, size, mtime_ns)),
                Prepared::Changed(record) => records.push(record),
            }
        }
        if !touched.is_empty() {
            store.touch(&touched)?;
        }
        report.reindexed += store.write_files(&records)?;
        progress(done, total);
        Ok(())
    };
    // A small change (the common case before a search) is not worth a thread.
    if total <= workers || workers == 1 {
        for batch in plan.changed.chunks(BATCH_FILES) {
            if cancel.is_cancelled() {
                break;
            }
            write(batch.iter().map(|f| prepare(f, stored)).collect())?;
        }
        return Ok(report);
    }
    std::thread::scope(|scope| {
        // One batch waits while the next is prepared: memory stays bounded by two batches.
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        let changed = &plan.changed;
        scope.spawn(move || {
            for batch in changed.chunks(BATCH_FILES) {
                if cancel.is_cancelled()
                    || sender.send(prepare_all(batch, stored, workers)).is_err()
                {
                    break;
                }
            }
        });
        for batch in receiver {
            // Leaving the loop drops the receiver, which stops the preparing thread at its next send.
            if cancel.is_cancelled() {
                break;
            }
            write(batch)?;
        }
        Ok::<(), IndexError>(())
    })?;
    Ok(report)
}

/// A changed file read and hashed, and chunked unless its content is what the index holds.
enum Prepared {
    /// Gone or unreadable since the walk: left for the next sync.
    Unreadable,
    /// Same content, new stat: path, size, mtime.
    Unchanged(String, u64, i64),
    Changed(FileRecord),
}

fn prepare(file: &WalkedFile, stored: &HashMap<String, FileState>) -> Prepared {
    let Ok(bytes) = std::fs::read(&file.abs) else {
        return Prepared::Unreadable;
    };
    let hash = hex_sha256(&bytes);
    if stored.get(&file.rel).is_some_and(|s| s.hash == hash) {
        return Prepared::Unchanged(file.rel.clone(), file.size, file.mtime_ns);
    }
    Prepared::Changed(record(file, &bytes, hash))
}

/// Prepares `batch` on `workers` threads, each taking every `workers`-th file; the result is in batch order.
fn prepare_all(
    batch: &[WalkedFile],
    stored: &HashMap<String, FileState>,
    workers: usize,
) -> Vec<Prepared> {
    let mut slots: Vec<Option<Prepared>> =
        std::iter::repeat_with(|| None).take(batch.len()).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                scope.spawn(move || {
                    batch
                        .iter()
                        .enumerate()
                        .skip(worker)
                        .step_by(workers)
                        .map(|(i, file)| (i, prepare(file, stored)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            // A worker that panicked leaves its files unprepared; the next sync sees them again.
            for (i, prepared) in handle.join().unwrap_or_default() {
                slots[i] = Some(prepared);
            }
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.unwrap_or(Prepared::Unreadable))
        .collect()
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
