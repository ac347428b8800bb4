//! SKELETON — replaced by the fs-tools helper.

use std::path::{Path, PathBuf};

/// Keeps every tool path inside the project root (symlink-safe).
#[derive(Debug, Clone)]
pub struct PathGuard {
    root: PathBuf,
}

/// Why a path was refused.
#[derive(Debug, thiserror::Error)]
pub enum PathGuardError {
    #[error("path out of bounds: {0}")]
    OutOfBounds(String),
}

impl PathGuard {
    pub fn new(root: &Path) -> std::io::Result<Self> {
        Ok(PathGuard {
            root: root.canonicalize()?,
        })
    }
    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn resolve(&self, _input: &str) -> Result<PathBuf, PathGuardError> {
        todo!()
    }
}
