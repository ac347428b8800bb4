//! SKELETON — replaced by the executor helper.

use std::path::{Path, PathBuf};

/// Writes large tool outputs to `<project>/.paicli/tool-outputs/session-…/` and keeps a preview in context.
#[derive(Debug)]
pub struct SpillStore {
    _root: PathBuf,
}

impl SpillStore {
    pub fn new(root: &Path, _enabled: bool, _threshold_chars: usize) -> Self {
        SpillStore {
            _root: root.to_path_buf(),
        }
    }
}

/// Removes spill session folders older than `max_age`.
pub fn remove_stale(_root: &Path, _max_age: std::time::Duration) -> std::io::Result<usize> {
    todo!()
}
