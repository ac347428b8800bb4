//! A directory opened beneath the project root; its operations name entries relative to the handle, never by
//! a path the OS would resolve again.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, openat, statat};

use super::beneath::{open_subdir, walk_beneath};

/// What kind of file an entry is (a symlink is reported as one, not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

impl EntryKind {
    fn of(file_type: FileType) -> Self {
        match file_type {
            FileType::RegularFile => EntryKind::File,
            FileType::Directory => EntryKind::Dir,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }
}

/// An entry's kind and permission bits, read without following a symlink.
#[derive(Debug, Clone, Copy)]
pub struct EntryMeta {
    /// The entry's kind.
    pub kind: EntryKind,
    /// Its permission bits (`rwx` for user, group, other, plus setuid/setgid/sticky).
    pub mode: Mode,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name within the directory.
    pub name: OsString,
    /// Its kind, not following a symlink.
    pub kind: EntryKind,
}

/// An open directory beneath the project root.
#[derive(Debug)]
pub struct DirHandle {
    fd: OwnedFd,
    path: PathBuf,
}

impl DirHandle {
    pub(super) fn new(fd: OwnedFd, path: PathBuf) -> Self {
        DirHandle { fd, path }
    }

    /// The directory's real path, for messages (operations never use it).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// When this directory's entries last changed (its own modification time).
    pub fn modified(&self) -> io::Result<std::time::SystemTime> {
        File::from(self.fd.try_clone()?).metadata()?.modified()
    }

    /// Opens the entry `name` for reading without following a symlink; FIFOs open without blocking.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY;
        let fd = walk_beneath(self.fd.as_fd(), &[name], flags, Mode::empty())?;
        Ok(File::from(fd))
    }

    /// Opens the subdirectory `name` without following a symlink.
    pub fn open_dir(&self, name: &OsStr) -> io::Result<DirHandle> {
        let fd = open_subdir(self.fd.as_fd(), name)?;
        Ok(DirHandle::new(fd, self.path.join(name)))
    }

    /// Kind and permissions of the entry `name`, not following a symlink.
    pub fn stat(&self, name: &OsStr) -> io::Result<EntryMeta> {
        let stat = statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(EntryMeta {
            kind: EntryKind::of(FileType::from_raw_mode(stat.st_mode)),
            mode: Mode::from_raw_mode(stat.st_mode),
        })
    }

    /// Whether `name` is, or links to, a directory; a link is followed for this one bit, as `ls -F` does.
    pub fn leads_to_dir(&self, name: &OsStr) -> bool {
        statat(&self.fd, name, AtFlags::empty())
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Directory)
    }

    /// Creates `name` exclusively (never through a symlink) for writing, with `mode` before the umask.
    pub fn create_new(&self, name: &OsStr, mode: Mode) -> io::Result<File> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Ok(File::from(openat(&self.fd, name, flags, mode)?))
    }

    /// Renames `from` to `to` within this directory, replacing `to` (a symlink there is replaced, not followed).
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
    }

    /// Removes the file (or symlink) `name` from this directory.
    pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
    }

    /// Removes the empty subdirectory `name` (a symlink of that name is not followed and fails).
    pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR)?)
    }

    /// Creates the symlink `name` pointing at `target` (the target is stored as text, never opened).
    pub fn symlink(&self, target: &OsStr, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::symlinkat(target, &self.fd, name)?)
    }

    /// The directory's entries (without `.` and `..`), in the order the file system returns them.
    pub fn entries(&self) -> io::Result<Vec<DirEntry>> {
        let mut out = Vec::new();
        for entry in rustix::fs::Dir::read_from(&self.fd)? {
            let entry = entry?;
            let bytes = entry.file_name().to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            let name = OsStr::from_bytes(bytes).to_os_string();
            let kind = match entry.file_type() {
                FileType::Unknown => self.stat(&name).map_or(EntryKind::Other, |m| m.kind),
                known => EntryKind::of(known),
            };
            out.push(DirEntry { name, kind });
        }
        Ok(out)
    }
}
