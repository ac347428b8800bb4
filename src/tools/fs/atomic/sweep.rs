//! Removing the temp files a killed session left behind (`.<file>.paicli-<8 hex>.tmp`).
//!
//! Where it looks: one walk of the project that honours `.gitignore` and `.ignore`, skips `.git`, follows no
//! symlink, goes at most [`MAX_DEPTH`] deep and stops after [`MAX_ENTRIES`] entries; the app runs it once per
//! session on a background thread. Why there: temp files sit beside the files the model writes, which are
//! nearly always tracked sources, while the ignored trees (`target/`, `node_modules/`) are what makes a big
//! project slow to walk. A leftover inside an ignored tree stays; it is hidden and harmless. Keeping a record
//! of the directories paicli wrote would catch those too, but it is state that a kill can also leave stale.
//!
//! What it removes: regular files (never symlinks) with exactly that name shape, unmodified for the given age
//! (a minute at start-up: a write in progress in another session is never that old), through the guard's
//! no-follow directory handles, so a swapped symlink cannot point the removal outside the project.

use std::io;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::guard::path_guard::{EntryKind, PathGuard};

use super::is_temp_name;

/// Temp files untouched for this long belong to no running write.
pub const STALE_AFTER: Duration = Duration::from_secs(60);
/// How deep the walk goes below the root.
const MAX_DEPTH: usize = 32;
/// How many entries the walk visits before it stops, so a huge tree costs a bounded time.
const MAX_ENTRIES: usize = 100_000;

/// What a sweep did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Stale temp files removed.
    pub removed: usize,
    /// Entries visited by the walk.
    pub visited: usize,
    /// True when the walk stopped at [`MAX_ENTRIES`] before seeing the whole tree.
    pub truncated: bool,
}

/// Removes stale `*.paicli-*.tmp` files beneath the guard's root that are older than `older_than`.
pub fn remove_stale_temps(guard: &PathGuard, older_than: Duration) -> SweepReport {
    let mut report = SweepReport::default();
    let walk = ignore::WalkBuilder::new(guard.root())
        .hidden(false)
        .follow_links(false)
        .max_depth(Some(MAX_DEPTH))
        .filter_entry(|entry| entry.file_name() != ".git")
        .build();
    for entry in walk.filter_map(Result::ok) {
        report.visited += 1;
        if report.visited > MAX_ENTRIES {
            report.truncated = true;
            break;
        }
        if is_temp_name(entry.file_name()) {
            match remove_if_stale(guard, entry.path(), older_than) {
                Ok(true) => report.removed += 1,
                Ok(false) => {}
                Err(err) => tracing::debug!("leaving {}: {err}", entry.path().display()),
            }
        }
    }
    report
}

/// Removes one candidate when it is a regular file unmodified for `older_than`.
fn remove_if_stale(guard: &PathGuard, path: &Path, older_than: Duration) -> io::Result<bool> {
    let (dir, name) = guard.open_parent(path, false)?;
    if dir.stat(&name)?.kind != EntryKind::File {
        return Ok(false);
    }
    let modified = dir.open_file(&name)?.metadata()?.modified()?;
    let age = SystemTime::now()
        .duration_since(modified)
        .unwrap_or(Duration::ZERO);
    if age < older_than {
        return Ok(false);
    }
    dir.remove_file(&name)?;
    Ok(true)
}
