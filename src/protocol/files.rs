//! Where the file tools read and write text when not the local disk: an editor that serves its open buffers
//! (ACP's `fs/read_text_file` and `fs/write_text_file`), so unsaved changes are seen and writes land in the
//! editor. Paths are absolute and already checked by the path guard; approvals and snapshots happen as for disk.

use std::path::Path;

use async_trait::async_trait;

/// Why the editor could not read or write a file.
#[derive(Debug, thiserror::Error)]
#[error("the editor could not {action} {path}: {reason}")]
pub struct FileAccessError {
    /// `read` or `write`.
    pub action: &'static str,
    pub path: String,
    pub reason: String,
}

/// Reads and writes text files through someone other than the local disk.
#[async_trait]
pub trait FileAccess: Send + Sync {
    /// The text of the file at `path` as the editor has it (unsaved changes included).
    async fn read_text(&self, path: &Path) -> Result<String, FileAccessError>;
    /// Replaces the text of the file at `path` (the editor creates it if needed).
    async fn write_text(&self, path: &Path, text: &str) -> Result<(), FileAccessError>;
}
