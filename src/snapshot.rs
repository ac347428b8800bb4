//! Snapshots of the project's files in a side git repository under `$PAICLI_HOME/snapshots/<project-id>/`, so a
//! turn's changes can be undone (`revert_turn`, `/restore`, `/rewind`). The project's own `.git` is never read or
//! written: the store has its own git directory and index, and runs `git` with every outside configuration off.
//!
//! The `git` program was chosen over the `gix` library by measurement (see `docs/snapshots.md`): it meets the
//! incremental target with its stat cache, and `gix` would add a minute and a half and over a hundred crates to a
//! fresh build. Without `git` on PATH the feature is off, with one notice.

mod entry;
mod git;
mod hook;
mod restore;
mod store;
mod store_files;
mod walk;

pub use entry::{Label, Snapshot, SnapshotKind};
pub use hook::SnapshotHook;
pub use restore::{FileChange, RestoreReport};
pub use store::{SnapshotStore, StoreSettings, Target};
pub use walk::snapshot_files;

/// Why a snapshot operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// `git` is not installed (or not on PATH): snapshots are off.
    #[error(
        "the `git` program was not found on PATH, so snapshots (revert_turn, /restore, /rewind) are off"
    )]
    GitMissing,
    #[error("cannot run git: {0}")]
    Spawn(#[source] std::io::Error),
    #[error("git {command} failed: {stderr}")]
    Git { command: String, stderr: String },
    #[error("snapshot store {path}: {source}")]
    Store {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot restore {path}: {source}")]
    Restore {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The store does not hold what was asked for.
    #[error("{0}")]
    NotFound(String),
    #[error("the snapshot store returned output paicli cannot read: {0}")]
    Corrupt(String),
    /// Someone but paicli changed the store's git files; they were removed and this snapshot was not taken.
    #[error(
        "the snapshot store {path} was changed by something other than paicli ({files}); paicli removed \
         those files and did not run git on it this time"
    )]
    Tampered {
        path: std::path::PathBuf,
        files: String,
    },
}

#[cfg(test)]
mod tests;
