//! Opening a path beneath a directory handle without following any symlink, so a name checked by the path guard
//! (or by the safe reader of instruction and settings files) cannot be swapped for a link to the outside before it is opened.
//!
//! Linux ≥ 5.6 does it in one call (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`); elsewhere, and where
//! a seccomp filter hides `openat2`, the path is walked one component at a time with `openat(O_NOFOLLOW)`.
//! Both refuse every symlink, so callers pass a *resolved* path, in which the symlinks that existed
//! at check time (inside ones included) are already replaced by their targets.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};

use rustix::fs::{Mode, OFlags, openat};

/// Flags for a directory handle used to reach entries below it.
pub fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC
}

/// Opens `rel` (plain names only, no `.`/`..`) beneath `dir`, refusing symlinks on every component.
///
/// An empty `rel` opens `dir` itself again with `flags`.
pub fn open_beneath(
    dir: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let names = plain_names(rel)?;
    if names.is_empty() {
        return Ok(openat(dir, ".", flags | OFlags::CLOEXEC, mode)?);
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::fs::{ResolveFlags, openat2};
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match openat2(dir, rel, flags | OFlags::CLOEXEC, mode, resolve) {
            // No openat2 (kernel < 5.6) or a seccomp filter that refuses it: walk instead.
            Err(err) if err == rustix::io::Errno::NOSYS || err == rustix::io::Errno::PERM => {}
            other => return other.map_err(io::Error::from),
        }
    }
    walk_beneath(dir, &names, flags, mode)
}

/// The portable walk: every component opened with `O_NOFOLLOW` relative to the one before.
pub fn walk_beneath(
    dir: BorrowedFd<'_>,
    names: &[&OsStr],
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    let Some((last, parents)) = names.split_last() else {
        return Ok(openat(dir, ".", flags | OFlags::CLOEXEC, mode)?);
    };
    let mut current: Option<OwnedFd> = None;
    for name in parents {
        let base = current.as_ref().map_or(dir, AsFd::as_fd);
        current = Some(open_subdir(base, name)?);
    }
    let base = current.as_ref().map_or(dir, AsFd::as_fd);
    open_nofollow(base, last, flags | OFlags::CLOEXEC, mode)
}

/// The components of a path relative to a handle; anything but plain names is refused.
pub fn plain_names(rel: &Path) -> io::Result<Vec<&OsStr>> {
    rel.components()
        .map(|component| match component {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "`{}` is not a plain path beneath the project root",
                    rel.display()
                ),
            )),
        })
        .collect()
}

/// Opens the directory `rel` beneath `dir`, creating each missing component (never through a symlink).
pub fn create_dirs_beneath(dir: BorrowedFd<'_>, rel: &Path) -> io::Result<OwnedFd> {
    let mut current = openat(dir, ".", dir_flags(), Mode::empty())?;
    for name in plain_names(rel)? {
        let next = match open_subdir(current.as_fd(), name) {
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                match rustix::fs::mkdirat(&current, name, Mode::from_raw_mode(0o777)) {
                    Err(err) if err != rustix::io::Errno::EXIST => return Err(err.into()),
                    _ => {}
                }
                open_subdir(current.as_fd(), name)?
            }
            other => other?,
        };
        current = next;
    }
    Ok(current)
}

/// Opens the directory `name` in `dir` without following it; a symlink there fails with `ELOOP`.
pub fn open_subdir(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<OwnedFd> {
    open_nofollow(dir, name, dir_flags(), Mode::empty())
}

/// `openat` with `O_NOFOLLOW`; a symlink named `name` always fails with `ELOOP`.
fn open_nofollow(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    match openat(dir, name, flags | OFlags::NOFOLLOW, mode) {
        // Linux answers ENOTDIR for a symlink opened with O_DIRECTORY | O_NOFOLLOW; tell it from a plain file.
        Err(err) if err == rustix::io::Errno::NOTDIR && is_symlink_at(dir, name) => {
            Err(rustix::io::Errno::LOOP.into())
        }
        other => Ok(other?),
    }
}

fn is_symlink_at(dir: BorrowedFd<'_>, name: &OsStr) -> bool {
    rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).is_ok_and(|stat| {
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Symlink
    })
}

/// True for the errors a refused symlink produces (`ELOOP`; `EXDEV` when `openat2` saw an escape).
pub fn is_symlink_refusal(err: &io::Error) -> bool {
    err.raw_os_error().is_some_and(|code| {
        code == rustix::io::Errno::LOOP.raw_os_error()
            || code == rustix::io::Errno::XDEV.raw_os_error()
    })
}
