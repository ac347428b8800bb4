//! File access through the root's directory handle: the small API every file tool uses after `resolve`.
//!
//! Each operation takes a path returned by [`PathGuard::resolve`] and reaches it from the handle opened on the
//! root when the guard was made, refusing any symlink on the way (see `beneath`). So the file that was checked
//! is the file that is opened: if a directory on the path is swapped for a symlink in between, the call fails
//! instead of following it.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::Arc;

use rustix::fs::{Mode, OFlags};

use super::PathGuard;
use super::beneath::{create_dirs_beneath, dir_flags, is_symlink_refusal, open_beneath};
use super::dir::{DirHandle, EntryMeta};

impl PathGuard {
    /// Opens a resolved path for reading (a FIFO opens without blocking; check the metadata before reading).
    /// A path from `resolve_read` inside one of the read roots is opened beneath that folder's handle.
    pub fn open_read(&self, path: &Path) -> io::Result<File> {
        let (base, rel) = self.readable(path)?;
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY;
        open_beneath(base.as_fd(), rel, flags, Mode::empty())
            .map(File::from)
            .map_err(|err| self.changed(path, err))
    }

    /// Opens a resolved directory (inside the root or one of the read roots).
    pub fn open_dir(&self, path: &Path) -> io::Result<DirHandle> {
        let (base, rel) = self.readable(path)?;
        open_beneath(base.as_fd(), rel, dir_flags(), Mode::empty())
            .map(|fd| DirHandle::new(fd, path.to_path_buf()))
            .map_err(|err| self.changed(path, err))
    }

    /// The handle to read `path` beneath and the part of `path` below it: the root first, then a read root.
    /// Only the two read-only opens above use it; creating and writing go through `beneath` (the root and the
    /// added folders).
    fn readable<'a>(&self, path: &'a Path) -> io::Result<(Arc<OwnedFd>, &'a Path)> {
        match self.beneath(path) {
            Ok(found) => Ok(found),
            Err(err) => self.read_roots.containing(path).ok_or(err),
        }
    }

    /// Creates a resolved directory and its missing parents (`mkdir -p`), never through a symlink.
    pub fn create_dir_all(&self, path: &Path) -> io::Result<DirHandle> {
        let (base, rel) = self.beneath(path)?;
        create_dirs_beneath(base.as_fd(), rel)
            .map(|fd| DirHandle::new(fd, path.to_path_buf()))
            .map_err(|err| self.changed(path, err))
    }

    /// The directory holding a resolved path (created first when `create`) and the path's file name in it.
    pub fn open_parent(&self, path: &Path, create: bool) -> io::Result<(DirHandle, OsString)> {
        let below_root = !self.beneath(path)?.1.as_os_str().is_empty();
        let (true, Some(parent), Some(name)) = (below_root, path.parent(), path.file_name()) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the project root itself is not a file",
            ));
        };
        let dir = if create {
            self.create_dir_all(parent)?
        } else {
            self.open_dir(parent)?
        };
        Ok((dir, name.to_os_string()))
    }

    /// Kind and permissions of a resolved path, not following a symlink at its end.
    pub fn metadata(&self, path: &Path) -> io::Result<EntryMeta> {
        if self.beneath(path)?.1.as_os_str().is_empty() {
            let root = self.open_dir(path)?;
            return root.stat(".".as_ref());
        }
        let (dir, name) = self.open_parent(path, false)?;
        dir.stat(&name)
    }

    /// The handle of the root (or of the added folder) holding a resolved path, and the part of the path
    /// below it.
    fn beneath<'a>(&self, path: &'a Path) -> io::Result<(Arc<OwnedFd>, &'a Path)> {
        if let Ok(rel) = path.strip_prefix(&self.root) {
            return Ok((Arc::clone(&self.root_dir), rel));
        }
        self.added_roots.containing(path).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not inside the project root", path.display()),
            )
        })
    }

    /// Rewords a refused symlink: the path changed between the check and the open.
    fn changed(&self, path: &Path, err: io::Error) -> io::Error {
        if !is_symlink_refusal(&err) {
            return err;
        }
        io::Error::other(format!(
            "{} changed while it was being opened (a symlink appeared on the path), so nothing was \
             opened and nothing outside the project was touched; try again",
            self.display(path)
        ))
    }
}
