//! `[snapshots]`: the side-git snapshots behind revert_turn, /restore and /rewind. A project's own files may not
//! switch off or shrink the user's undo.

use super::settings::{Plain, Project, declare_settings, setting};

declare_settings! {
    /// The side-git snapshots of the project's files (`[snapshots]`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct SnapshotSettings in config.snapshots {
        /// Snapshot the project before and after turns that change files.
        pub enabled: bool = setting("snapshots.enabled", Plain(true))
            .env(&["PAICLI_SNAPSHOTS_ENABLED"])
            .project(Project::Never),
        /// Snapshots kept per project; older ones are dropped.
        pub keep: usize = setting("snapshots.keep", Plain(50)).project(Project::Never),
        /// Files larger than this (bytes) are left out of snapshots, so a restore leaves them alone.
        pub max_file_bytes: u64 = setting("snapshots.max_file_bytes", Plain(5 * 1024 * 1024))
            .project(Project::Never),
    }
}
