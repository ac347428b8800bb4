//! Where a confined command may write: the project, the temp dirs, `$PAICLI_HOME`'s caches, the usual tool caches
//! and `[sandbox] writable_roots`, each resolved through symlinks and kept only when it exists. The project's
//! git directory (also a worktree's, outside the project) is writable unless `protect_git`.

use std::path::{Path, PathBuf};

use crate::config::SandboxSettings;
use crate::config::home_caches::HOME_CACHES;

/// Device files every command may write: programs write to `/dev/null` all the time.
const DEVICES: [&str; 7] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/random",
    "/dev/urandom",
    "/dev/fd",
];

/// Folders under the user's home that build tools write their caches to.
const TOOL_CACHES: [&str; 7] = [
    ".cargo", ".rustup", ".npm", ".cache", ".m2", ".gradle", "go",
];

/// Environment variables that move a tool cache elsewhere.
const TOOL_CACHE_VARS: [&str; 5] = [
    "CARGO_HOME",
    "RUSTUP_HOME",
    "GOPATH",
    "GOMODCACHE",
    "npm_config_cache",
];

/// The tool caches that exist: those under `home` and those the variables `env` knows point to.
pub fn tool_caches(home: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    let mut caches: Vec<PathBuf> = home
        .into_iter()
        .flat_map(|home| TOOL_CACHES.iter().map(move |c| home.join(c)))
        .collect();
    caches.extend(
        TOOL_CACHE_VARS
            .iter()
            .filter_map(|var| env(var))
            .filter(|v| !v.trim().is_empty())
            .map(PathBuf::from),
    );
    existing(caches)
}

/// What one command may do, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Folders the command may change, everything beneath them included (canonical, existing).
    pub writable: Vec<PathBuf>,
    /// Paths beneath a writable folder that stay read-only (the project's `.git` with `protect_git`).
    pub protected: Vec<PathBuf>,
    /// Device files and folders always writable.
    pub devices: Vec<PathBuf>,
    /// TCP connect and bind allowed.
    pub network: bool,
}

/// The places a policy is built from.
#[derive(Clone, Copy, Debug)]
pub struct Places<'a> {
    /// The project root.
    pub root: &'a Path,
    /// `$PAICLI_HOME`, whose caches are writable.
    pub paicli_home: Option<&'a Path>,
    /// Tool caches found at start (see [`tool_caches`]).
    pub tool_caches: &'a [PathBuf],
}

impl Policy {
    /// The policy for `places` under `settings`; `read_only` (plan mode) leaves only the devices writable.
    pub fn build(settings: &SandboxSettings, places: Places<'_>, read_only: bool) -> Policy {
        let devices = existing(DEVICES.iter().map(PathBuf::from));
        let mut policy = Policy {
            writable: Vec::new(),
            protected: Vec::new(),
            devices,
            network: settings.network,
        };
        if read_only {
            return policy;
        }
        let root = canonical(places.root);
        let mut writable = vec![root.clone()];
        writable.extend(temp_dirs());
        if let Some(home) = places.paicli_home {
            writable.extend(HOME_CACHES.iter().map(|c| home.join(c)));
        }
        writable.extend(places.tool_caches.iter().cloned());
        writable.extend(settings.writable_roots.iter().cloned());
        let git = root.join(".git");
        if settings.protect_git {
            if git.exists() {
                policy.protected.push(git);
            }
        } else {
            writable.extend(linked_git_dirs(&git));
        }
        policy.writable = dedup(existing(writable));
        policy
    }

    /// The writable folders, comma-separated, for people (`/policy`, `/config`); empty when read-only.
    pub fn describe_writable(&self) -> String {
        self.writable
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The system temp dir and `/tmp` (often the same), plus `/dev/shm` where it exists (Python's multiprocessing).
fn temp_dirs() -> Vec<PathBuf> {
    vec![
        std::env::temp_dir(),
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
        PathBuf::from("/dev/shm"),
    ]
}

/// The git directories a worktree's `.git` file points to (its own and the shared one), which live outside the
/// project; empty for a plain `.git` folder.
fn linked_git_dirs(git: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(git) else {
        return Vec::new();
    };
    let Some(dir) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) else {
        return Vec::new();
    };
    let base = git.parent().unwrap_or(git);
    let dir = base.join(dir.trim());
    let mut dirs = vec![dir.clone()];
    if let Ok(common) = std::fs::read_to_string(dir.join("commondir")) {
        dirs.push(dir.join(common.trim()));
    }
    dirs
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The paths that exist, resolved through symlinks.
fn existing(paths: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    paths
        .into_iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect()
}

/// Drops repeats, keeping the first of each.
fn dedup(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::with_capacity(paths.len());
    for p in paths {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}
