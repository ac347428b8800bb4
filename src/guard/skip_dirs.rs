//! Directories every project walk skips (the search tools and the snapshot store), whatever the ignore files say:
//! version control, paicli's own state, and the usual build and dependency output.

/// Directory names skipped at any depth.
pub const SKIP_DIRS: &[&str] = &[
    ".git",
    ".paicli",
    "target",
    "node_modules",
    "dist",
    "build",
    "coverage",
    ".idea",
    ".gradle",
];
