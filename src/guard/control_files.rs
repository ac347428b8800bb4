//! Files that steer paicli itself: settings, MCP servers, trust and approval stores. A tool or command that writes
//! one could change how the next session runs (its provider URL, approval mode, servers), so such writes need the
//! person in every approval mode but `full`.

use std::path::{Path, PathBuf};

use super::path_guard::{normalize_lexically, resolve_existing};

/// Under `$PAICLI_HOME`.
const HOME_FILES: &[&str] = &[
    "config.toml",
    "mcp.json",
    "mcp-trust.json",
    "project-trust.json",
    "approvals.json",
    ".env",
];

/// Under the project root.
const PROJECT_FILES: &[&str] = &[
    ".paicli/config.toml",
    ".paicli/mcp.json",
    ".mcp.json",
    ".env",
];

/// The control files of one session: `$PAICLI_HOME`'s and the project's.
#[derive(Clone, Debug)]
pub struct ControlFiles {
    files: Vec<PathBuf>,
}

impl ControlFiles {
    /// The control files under `home` (`$PAICLI_HOME`) and `root` (the project). Both are canonicalized when they
    /// exist, so a path given through a symlinked folder still matches.
    pub fn new(home: &Path, root: &Path) -> Self {
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| normalize_lexically(p));
        let (home, root) = (canon(home), canon(root));
        let files = HOME_FILES
            .iter()
            .map(|f| home.join(f))
            .chain(PROJECT_FILES.iter().map(|f| root.join(f)))
            .collect();
        ControlFiles { files }
    }

    /// True when `path` (absolute) names a control file. The path is resolved through existing symlinks first
    /// (its parent, when the file itself does not exist yet), so `link/config.toml` cannot slip past.
    pub fn is_control(&self, path: &Path) -> bool {
        let resolved = resolve_existing(path);
        self.files.contains(&resolved)
    }

    /// Every control file, for messages and `/policy`.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_home_and_project_files_and_nothing_else() {
        let home = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        let c = ControlFiles::new(home.path(), root.path());
        assert!(c.is_control(&home.path().join("config.toml")));
        assert!(c.is_control(&home.path().join("mcp-trust.json")));
        assert!(c.is_control(&root.path().join(".paicli/config.toml")));
        assert!(c.is_control(&root.path().join(".mcp.json")));
        assert!(c.is_control(&root.path().join("src/../.env")));
        assert!(!c.is_control(&root.path().join("src/config.toml")));
        assert!(!c.is_control(&home.path().join("logs/config.toml")));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_folder_does_not_hide_a_control_file() {
        let home = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join(".paicli")).unwrap();
        std::os::unix::fs::symlink(root.path().join(".paicli"), root.path().join("innocent"))
            .unwrap();
        let c = ControlFiles::new(home.path(), root.path());
        assert!(c.is_control(&root.path().join("innocent/config.toml")));
    }
}
