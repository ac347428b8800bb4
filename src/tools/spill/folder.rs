//! The spill folder on disk, reached only through the path guard's directory handles beneath the project root:
//! a `.paicli` or `tool-outputs` that is a symbolic link is refused (never followed to write or delete outside
//! the project), and clean-up removes entries relative to their folder's handle without following any link.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use rustix::fs::Mode;

use super::SPILL_DIR;
use crate::guard::path_guard::{DirHandle, EntryKind, PathGuard};

/// Deepest folder nesting clean-up descends into (session folders are flat; this bounds a planted tree).
const MAX_DEPTH: usize = 16;

/// Why the spill folder was not used.
#[derive(Debug, thiserror::Error)]
pub enum SpillFolderError {
    /// `.paicli` or `.paicli/tool-outputs` is a symbolic link.
    #[error("{0} is a symbolic link, which paicli does not follow")]
    Linked(String),
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Opens `.paicli/tool-outputs` beneath the root (created, with its `.gitignore`, when `create`); `Ok(None)` when
/// it does not exist and `create` is false.
pub(super) fn open(guard: &PathGuard, create: bool) -> Result<Option<DirHandle>, SpillFolderError> {
    let root = guard.root();
    let mut rel = PathBuf::new();
    for part in SPILL_DIR.split('/') {
        rel.push(part);
        match guard.metadata(&root.join(&rel)) {
            Ok(meta) if meta.kind == EntryKind::Symlink => {
                return Err(SpillFolderError::Linked(rel.display().to_string()));
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        }
    }
    // Created and opened beneath the root's handle with no symlink followed: a link that appeared since the check
    // above fails here instead.
    let dir = guard.create_dir_all(&root.join(SPILL_DIR))?;
    let gitignore = OsStr::new(".gitignore");
    if dir.stat(gitignore).is_err() {
        match dir.create_new(gitignore, Mode::from_raw_mode(0o644)) {
            Ok(mut file) => file.write_all(b"*\n")?,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Some(dir))
}

/// Deletes spill session folders under `<root>/.paicli/tool-outputs` last modified more than `max_age` ago.
/// Returns how many were removed; folders that cannot be removed are skipped. Never follows a symlink: a linked
/// spill folder is refused, a link named `session-*` is left alone, links inside a folder are removed as links.
pub fn remove_stale(guard: &PathGuard, max_age: Duration) -> Result<usize, SpillFolderError> {
    let Some(dir) = open(guard, false)? else {
        return Ok(0);
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in dir.entries()? {
        let is_session = entry.name.to_string_lossy().starts_with("session-");
        if !is_session || entry.kind != EntryKind::Dir {
            continue;
        }
        let Ok(session) = dir.open_dir(&entry.name) else {
            continue;
        };
        let age = session
            .modified()
            .map(|modified| now.duration_since(modified).unwrap_or_default());
        if age.is_ok_and(|age| age > max_age)
            && remove_tree(&session, 0).is_ok()
            && dir.remove_dir(&entry.name).is_ok()
        {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Empties `dir` through its handle: files and links are unlinked, folders emptied and removed.
fn remove_tree(dir: &DirHandle, depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Err(io::Error::other("spill folder nested too deep"));
    }
    for entry in dir.entries()? {
        if entry.kind == EntryKind::Dir {
            remove_tree(&dir.open_dir(&entry.name)?, depth + 1)?;
            dir.remove_dir(&entry.name)?;
        } else {
            dir.remove_file(&entry.name)?;
        }
    }
    Ok(())
}
