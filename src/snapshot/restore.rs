//! Puts the project's files back to a snapshot's tree: content, the executable bit and symlinks (as links),
//! files created since removed and files deleted since recreated. Every write goes through the path guard's
//! directory handles, which refuse a symlink anywhere on the path, so nothing is written through a link or
//! outside the project; each file is written to a temporary name and renamed into place.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::Mode;

use super::SnapshotError;
use super::entry::Snapshot;
use super::git::Git;
use crate::guard::path_guard::{EntryKind, PathGuard};

/// How one file changed in a restore.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    /// `A` recreated, `D` removed, `M` content or mode put back, `T` kind put back (file ↔ symlink).
    pub status: char,
    /// Lines added and removed by the restore (`None` for binary files and symlinks).
    pub lines: Option<(u64, u64)>,
}

/// What a restore did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RestoreReport {
    /// The snapshot restored.
    pub to: Option<Snapshot>,
    pub changes: Vec<FileChange>,
    /// The snapshot holding the files as they were before the restore: restoring it undoes this one.
    pub undo: Option<u64>,
}

impl RestoreReport {
    /// The diff summary: one line per file (`M src/a.rs +3 -1`).
    pub fn summary(&self) -> String {
        self.changes
            .iter()
            .map(|c| match c.lines {
                Some((added, removed)) => format!("{} {} +{added} -{removed}", c.status, c.path),
                None => format!("{} {}", c.status, c.path),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One line of `git diff-tree --raw`.
struct RawChange {
    new_mode: String,
    new_blob: String,
    status: char,
    path: String,
}

const GITLINK: &str = "160000";
const SYMLINK: &str = "120000";
const EXECUTABLE: &str = "100755";

/// Turns the project from tree `current` (a snapshot of it as it is now) into tree `target`.
pub fn apply(
    git: &Git,
    guard: &PathGuard,
    current: &str,
    target: &str,
) -> Result<RestoreReport, SnapshotError> {
    if current == target {
        return Ok(RestoreReport::default());
    }
    let raw = git.run(&["diff-tree", "-r", "-z", "--no-renames", current, target])?;
    let changes = parse_raw(&raw)?;
    let lines = numstat(git, current, target)?;
    // Removals first, deepest first, so a directory that becomes a file (or a link that becomes a directory)
    // is out of the way before anything is written.
    let mut removals: Vec<&RawChange> = changes
        .iter()
        .filter(|c| matches!(c.status, 'D' | 'T'))
        .collect();
    removals.sort_by(|a, b| b.path.cmp(&a.path));
    for change in &removals {
        remove(guard, &change.path)?;
    }
    let writes: Vec<&RawChange> = changes
        .iter()
        .filter(|c| c.status != 'D' && c.new_mode != GITLINK)
        .collect();
    let blobs = read_blobs(git, writes.iter().map(|c| c.new_blob.as_str()))?;
    for change in &writes {
        let content = blobs.get(&change.new_blob).map_or(&[][..], Vec::as_slice);
        write(guard, change, content)?;
    }
    let mut report = RestoreReport::default();
    for change in changes {
        report.changes.push(FileChange {
            lines: lines.get(&change.path).copied().flatten(),
            path: change.path,
            status: change.status,
        });
    }
    Ok(report)
}

fn parse_raw(raw: &[u8]) -> Result<Vec<RawChange>, SnapshotError> {
    let text = String::from_utf8_lossy(raw);
    let mut fields = text.split('\0');
    let mut out = Vec::new();
    while let Some(head) = fields.next() {
        if head.is_empty() {
            continue;
        }
        let parts: Vec<&str> = head.trim_start_matches(':').split(' ').collect();
        let (Some(path), [_, new_mode, _, new_blob, status]) = (fields.next(), parts.as_slice())
        else {
            return Err(SnapshotError::Corrupt(head.to_string()));
        };
        out.push(RawChange {
            new_mode: (*new_mode).to_string(),
            new_blob: (*new_blob).to_string(),
            status: status.chars().next().unwrap_or('M'),
            path: safe_path(path)?,
        });
    }
    Ok(out)
}

/// Lines added and removed per path (`None` for binary files).
fn numstat(
    git: &Git,
    current: &str,
    target: &str,
) -> Result<HashMap<String, Option<(u64, u64)>>, SnapshotError> {
    let out = git.run(&[
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--numstat",
        current,
        target,
    ])?;
    let text = String::from_utf8_lossy(&out);
    Ok(text
        .split('\0')
        .filter_map(|record| {
            let mut parts = record.trim_start_matches('\n').splitn(3, '\t');
            let (added, removed, path) = (parts.next()?, parts.next()?, parts.next()?);
            let lines = added.parse().ok().zip(removed.parse().ok());
            Some((path.to_string(), lines))
        })
        .collect())
}

/// A tree path made only of normal components (no `..`, no absolute path), as the guard expects.
fn safe_path(path: &str) -> Result<String, SnapshotError> {
    let normal = Path::new(path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    if normal && !path.is_empty() {
        Ok(path.to_string())
    } else {
        Err(SnapshotError::Corrupt(format!(
            "unsafe path in snapshot: {path}"
        )))
    }
}

/// The blobs' contents, read in one `git cat-file --batch`.
fn read_blobs<'a>(
    git: &Git,
    ids: impl Iterator<Item = &'a str>,
) -> Result<HashMap<String, Vec<u8>>, SnapshotError> {
    let mut wanted: Vec<&str> = ids.collect();
    wanted.sort_unstable();
    wanted.dedup();
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let input: String = wanted.iter().map(|id| format!("{id}\n")).collect();
    let out = git.run_with_input(&["cat-file", "--batch"], input.as_bytes())?;
    let mut blobs = HashMap::new();
    let mut rest = out.as_slice();
    while !rest.is_empty() {
        let Some(end) = rest.iter().position(|b| *b == b'\n') else {
            break;
        };
        let header = String::from_utf8_lossy(&rest[..end]).to_string();
        let parts: Vec<&str> = header.split(' ').collect();
        let [id, _, size] = parts.as_slice() else {
            return Err(SnapshotError::Corrupt(header));
        };
        let size: usize = size
            .parse()
            .map_err(|_| SnapshotError::Corrupt(header.clone()))?;
        let body = rest
            .get(end + 1..end + 1 + size)
            .ok_or_else(|| SnapshotError::Corrupt(header.clone()))?;
        blobs.insert((*id).to_string(), body.to_vec());
        rest = rest.get(end + 2 + size..).unwrap_or(&[]);
    }
    Ok(blobs)
}

fn restore_err(path: &str) -> impl Fn(std::io::Error) -> SnapshotError + '_ {
    move |source| SnapshotError::Restore {
        path: path.to_string(),
        source,
    }
}

/// Removes the file or symlink at `path` (never following it), then the directories it leaves empty.
fn remove(guard: &PathGuard, path: &str) -> Result<(), SnapshotError> {
    let full = guard.root().join(path);
    let (dir, name) = match guard.open_parent(&full, false) {
        Ok(found) => found,
        // Already gone with its directory.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(restore_err(path)(e)),
    };
    match dir.stat(&name) {
        Ok(meta) if meta.kind == EntryKind::Dir => return Ok(()),
        Ok(_) => dir.remove_file(&name).map_err(restore_err(path))?,
        Err(_) => return Ok(()),
    }
    drop(dir);
    let mut parent = full.parent().map(Path::to_path_buf);
    while let Some(current) = parent.filter(|p| p != guard.root()) {
        let Ok((dir, name)) = guard.open_parent(&current, false) else {
            break;
        };
        if dir.remove_dir(&name).is_err() {
            break;
        }
        parent = current.parent().map(Path::to_path_buf);
    }
    Ok(())
}

/// Writes one file or symlink of the target tree in place, atomically.
fn write(guard: &PathGuard, change: &RawChange, content: &[u8]) -> Result<(), SnapshotError> {
    let path = change.path.as_str();
    let full: PathBuf = guard.root().join(path);
    let (dir, name) = guard.open_parent(&full, true).map_err(restore_err(path))?;
    let existing = dir.stat(&name).ok();
    if change.status == 'A' && existing.is_some_and(|m| m.kind != EntryKind::Dir) {
        // Not in the current snapshot yet present: ignored, too large or skipped now, so not ours to replace.
        return Ok(());
    }
    if existing.is_some_and(|m| m.kind == EntryKind::Dir) {
        // A directory where the file goes: only an empty one (what the removals left) can make way.
        dir.remove_dir(&name).map_err(restore_err(path))?;
    }
    let temp = temp_name(&name);
    if change.new_mode == SYMLINK {
        dir.symlink(OsStr::from_bytes(content), &temp)
            .map_err(restore_err(path))?;
    } else {
        let executable = change.new_mode == EXECUTABLE;
        // Keep the file's other permission bits (e.g. 0600) when only its content changes.
        let mode = match existing {
            Some(m) if m.kind == EntryKind::File && (m.mode.bits() & 0o111 != 0) == executable => {
                m.mode.bits() & 0o7777
            }
            _ if executable => 0o755,
            _ => 0o644,
        };
        let mut file = dir
            .create_new(&temp, Mode::from_raw_mode(0o600))
            .map_err(restore_err(path))?;
        let written = file
            .write_all(content)
            .and_then(|()| file.set_permissions(std::fs::Permissions::from_mode(mode)));
        if let Err(e) = written {
            let _ = dir.remove_file(&temp);
            return Err(restore_err(path)(e));
        }
    }
    if let Err(e) = dir.rename(&temp, &name) {
        let _ = dir.remove_file(&temp);
        return Err(restore_err(path)(e));
    }
    Ok(())
}

/// `.name.paicli-<random>.tmp`: the pattern the stale-temp sweep removes after a kill.
fn temp_name(name: &OsStr) -> std::ffi::OsString {
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".paicli-{:016x}.tmp", fastrand::u64(..)));
    temp
}
