//! One memory file on disk: JSON, replaced atomically, changed only under an exclusive lock with a reload first,
//! so two paicli processes writing at once lose nothing.
//!
//! The lock is the standard library's advisory file lock (`File::lock`, flock on Unix, LockFileEx on Windows),
//! taken on a sibling `.lock` file that is never replaced; locking the data file itself would not work because
//! the atomic rename swaps it for a new inode.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{MemoryEntry, MemoryError};

/// The file's content.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct MemoryFile {
    #[serde(default)]
    pub version: u32,
    /// For project files: the project root, so a person can tell the hashed files apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_root: Option<String>,
    #[serde(default)]
    pub entries: Vec<MemoryEntry>,
}

/// Reads `path`; a missing file is empty.
pub(super) fn load(path: &Path) -> Result<MemoryFile, MemoryError> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| MemoryError::Corrupt {
            path: path.to_path_buf(),
            message: e.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(MemoryFile {
            version: 1,
            ..MemoryFile::default()
        }),
        Err(source) => Err(MemoryError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Runs `change` on the freshly loaded file while holding the lock, then writes the result if it returned `Ok`.
pub(super) fn update<T>(
    path: &Path,
    change: impl FnOnce(&mut MemoryFile) -> Result<T, MemoryError>,
) -> Result<T, MemoryError> {
    let io = |source| MemoryError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let lock_path = sibling(path, "lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io)?;
    lock.lock().map_err(io)?;
    // Reload under the lock: another process may have written since we last looked.
    let mut file = load(path)?;
    let result = change(&mut file)?;
    file.version = 1;
    let text = serde_json::to_string_pretty(&file).map_err(|e| MemoryError::Corrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let tmp = sibling(path, &format!("tmp-{}", std::process::id()));
    let mut out = File::create(&tmp).map_err(io)?;
    out.write_all(text.as_bytes()).map_err(io)?;
    out.sync_all().map_err(io)?;
    drop(out);
    fs::rename(&tmp, path).map_err(io)?;
    drop(lock);
    Ok(result)
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{suffix}"));
    path.with_file_name(name)
}
