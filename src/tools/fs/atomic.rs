//! Atomic file writes through the guard's directory handles: a temp file in the target's own directory handle,
//! then a rename within that handle.

mod sweep;

pub use sweep::{STALE_AFTER, SweepReport, remove_stale_temps};

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::path::Path;

use rustix::fs::Mode;

use crate::guard::path_guard::{DirHandle, EntryKind, PathGuard};

/// Temp names look like `.<file>.paicli-<8 hex>.tmp`; [`remove_stale_temps`] removes the ones a killed session left.
const TEMP_MARK: &str = ".paicli-";
const TEMP_SUFFIX: &str = ".tmp";

/// Writes `bytes` to the resolved `path` atomically, creating parent directories and keeping an existing file's
/// permissions.
///
/// Readers see either the old or the new content, never a half-written file; on any error the temp file is
/// removed and the target is untouched. No symlink is followed on the way (see `PathGuard::open_parent`).
pub fn write_atomic(guard: &PathGuard, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (dir, name) = guard.open_parent(path, true)?;
    let mode = match dir.stat(&name) {
        Ok(meta) => match meta.kind {
            EntryKind::File => Some(meta.mode),
            EntryKind::Dir => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "the target is a directory",
                ));
            }
            // The guard resolved links away; a link here now means the path changed after the check.
            EntryKind::Symlink | EntryKind::Other => {
                return Err(io::Error::other(
                    "the target changed after it was checked (it is no longer a regular file); try again",
                ));
            }
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err),
    };
    let (temp, mut file) = create_temp(&dir, &name)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(mode) = mode {
            rustix::fs::fchmod(&file, mode)?;
        }
        file.sync_all()?;
        drop(file);
        dir.rename(&temp, &name)
    })();
    if result.is_err() {
        let _ = dir.remove_file(&temp);
    }
    result
}

/// Creates a fresh, uniquely named temp file beside `name` (hidden, so watchers and globs skip it).
fn create_temp(dir: &DirHandle, name: &OsStr) -> io::Result<(OsString, std::fs::File)> {
    let mut last_err = None;
    for _ in 0..8 {
        let temp = temp_name(name, fastrand::u32(..));
        match dir.create_new(&temp, Mode::from_raw_mode(0o666)) {
            Ok(file) => return Ok((temp, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last_err = Some(err),
            Err(err) => return Err(err),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("cannot create temp file")))
}

fn temp_name(name: &OsStr, nonce: u32) -> OsString {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!("{TEMP_MARK}{nonce:08x}{TEMP_SUFFIX}"));
    temp
}

/// True for a name `temp_name` makes: `.<something>.paicli-<8 hex digits>.tmp`.
pub(crate) fn is_temp_name(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    let Some(stem) = name.strip_suffix(TEMP_SUFFIX) else {
        return false;
    };
    let Some((target, nonce)) = stem.rsplit_once(TEMP_MARK) else {
        return false;
    };
    target.len() > 1
        && target.starts_with('.')
        && nonce.len() == 8
        && nonce.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests;
