//! Extra folders the read-only tools may read outside the project (the enabled skills' folders): a narrow,
//! explicit list, never a loosening of the root. Nothing in them becomes writable: only `resolve_read`,
//! `open_read`, `open_dir` and `metadata` consult the list; `resolve` and every write path ignore it.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

use super::beneath::dir_flags;

/// One readable folder: its canonical path and a handle opened on it, so files below are reached beneath the
/// handle with every symlink refused, as under the project root.
#[derive(Debug)]
struct ReadRoot {
    path: PathBuf,
    dir: Arc<OwnedFd>,
}

/// The list of extra readable folders, shared by every clone of a guard (so `/skill reload` reaches the running
/// tools). Empty by default.
#[derive(Clone, Debug, Default)]
pub struct ReadRoots(Arc<RwLock<Vec<ReadRoot>>>);

impl ReadRoots {
    /// Replaces the list with `dirs` (canonicalized); a folder that cannot be opened is left out and logged.
    pub fn set(&self, dirs: &[PathBuf]) {
        let roots: Vec<ReadRoot> = dirs
            .iter()
            .filter_map(|dir| {
                let path = dir.canonicalize().ok()?;
                match rustix::fs::open(&path, dir_flags(), rustix::fs::Mode::empty()) {
                    Ok(fd) => Some(ReadRoot {
                        path,
                        dir: Arc::new(fd),
                    }),
                    Err(e) => {
                        tracing::warn!("readable folder {} left out: {e}", path.display());
                        None
                    }
                }
            })
            .collect();
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = roots;
    }

    /// The canonical folders in the list.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|r| r.path.clone())
            .collect()
    }

    /// The folder handle holding the real path `path` and the part of `path` below it.
    pub(super) fn containing<'a>(&self, path: &'a Path) -> Option<(Arc<OwnedFd>, &'a Path)> {
        let roots = self.0.read().unwrap_or_else(PoisonError::into_inner);
        roots.iter().find_map(|root| {
            path.strip_prefix(&root.path)
                .ok()
                .map(|rel| (Arc::clone(&root.dir), rel))
        })
    }
}
