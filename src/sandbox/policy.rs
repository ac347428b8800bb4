//! Where a confined command may write, and why each place: the project, the temp dirs, the download caches of
//! build tools, `[sandbox] writable_roots` from the user's own settings, and the git directory of a linked worktree
//! once it proves it belongs to the project ([`super::git_link`]). Each is resolved through symlinks and kept only
//! when it exists. Nothing the project or a command can write adds a root by itself, and `$PAICLI_HOME` (config,
//! sessions, snapshots, trust) is never writable: when it lies beneath another root it is carved out read-only.

use std::path::{Path, PathBuf};

use super::git_link::{self, GitLink, GitLinkRefusal, Protected};
use super::sockets::daemon_sockets;
use crate::config::SandboxSettings;
use crate::guard::control_files::ControlFiles;
use crate::guard::path_guard::resolve_existing;

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

/// The download and build caches under the user's home that builds write, and the tool each is for. Only these
/// subfolders: the tools' executables (`~/.cargo/bin`), shell-sourced files (`~/.cargo/env`) and configs
/// (`~/.npmrc`, `~/.m2/settings.xml`, `~/.gradle/init.d`) stay read-only, so a command cannot plant something
/// that runs later outside the sandbox. `~/.rustup` (toolchains are executables) and `~/.local` (Python's
/// `site-packages` run `.pth` files at every start) are left out on purpose.
const TOOL_CACHES: [(&str, &str); 14] = [
    (".cargo/registry", "cargo"),
    (".cargo/git", "cargo"),
    (".npm/_cacache", "npm"),
    (".npm/_logs", "npm"),
    (".cache/pip", "pip"),
    (".cache/uv", "uv"),
    (".cache/go-build", "go"),
    (".cache/yarn", "yarn"),
    (".cache/node-gyp", "node-gyp"),
    (".m2/repository", "maven"),
    (".gradle/caches", "gradle"),
    (".gradle/daemon", "gradle"),
    (".gradle/native", "gradle"),
    ("go/pkg/mod", "go"),
];

/// Environment variables that move a tool's cache, the subfolder of it builds write (`""`: the folder itself),
/// and the tool.
const TOOL_CACHE_VARS: [(&str, &str, &str); 8] = [
    ("CARGO_HOME", "registry", "cargo"),
    ("CARGO_HOME", "git", "cargo"),
    ("GOPATH", "pkg/mod", "go"),
    ("GOMODCACHE", "", "go"),
    ("GOCACHE", "", "go"),
    ("npm_config_cache", "_cacache", "npm"),
    ("PIP_CACHE_DIR", "", "pip"),
    ("UV_CACHE_DIR", "", "uv"),
];

/// One build tool's cache folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCache {
    pub path: PathBuf,
    /// The tool that needs it (`cargo`, `npm`, ...).
    pub tool: &'static str,
}

/// The tool caches that exist: those under `home` and those the variables `env` knows point to. A cache folder a
/// tool would make on first use (`~/.cargo/registry` when `~/.cargo` is there) is made now, so the first build
/// in the sandbox can fill it; folders shared by many tools (`~/.cache`) are left to each tool.
pub fn tool_caches(home: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Vec<ToolCache> {
    let mut caches: Vec<ToolCache> = home
        .into_iter()
        .flat_map(|home| {
            TOOL_CACHES.iter().map(move |(sub, tool)| {
                let path = home.join(sub);
                let tool_root = sub.split('/').next().unwrap_or(sub);
                if tool_root != ".cache" && home.join(tool_root).is_dir() && !path.exists() {
                    let _ = std::fs::create_dir_all(&path);
                }
                ToolCache { path, tool }
            })
        })
        .collect();
    caches.extend(TOOL_CACHE_VARS.iter().filter_map(|(var, sub, tool)| {
        let value = env(var).filter(|v| !v.trim().is_empty())?;
        let base = PathBuf::from(value);
        Some(ToolCache {
            path: if sub.is_empty() { base } else { base.join(sub) },
            tool,
        })
    }));
    let mut out: Vec<ToolCache> = Vec::new();
    for cache in caches {
        if let Ok(path) = cache.path.canonicalize()
            && !out.iter().any(|c| c.path == path)
        {
            out.push(ToolCache { path, ..cache });
        }
    }
    out
}

/// Where a writable root comes from (shown by `/policy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The project folder.
    Project,
    /// A temp dir.
    Temp,
    /// A build tool's download cache.
    ToolCache(&'static str),
    /// `[sandbox] writable_roots` in the user's settings.
    UserSetting,
    /// The git directory of the project's linked worktree or submodule.
    LinkedGitDir,
}

/// A folder a command may change, everything beneath it included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Canonical and existing.
    pub path: PathBuf,
    pub origin: Origin,
}

/// What one command may do, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Folders the command may change, in the order they were found.
    pub writable: Vec<Root>,
    /// Paths beneath a writable folder that stay read-only by Landlock's splitting (the project's `.git` with
    /// `protect_git`).
    pub protected: Vec<PathBuf>,
    /// Folders beneath a writable folder that stay read-only: `$PAICLI_HOME` when a root holds it. Bind-mounted
    /// read-only where the machine has mount namespaces, split out like `protected` where it has not.
    pub read_only: Vec<PathBuf>,
    /// Device files and folders always writable.
    pub devices: Vec<PathBuf>,
    /// TCP connect and bind allowed.
    pub network: bool,
    /// Why the project's `.git` file did not make its target writable.
    pub git_link_refused: Option<GitLinkRefusal>,
    /// Sockets of daemons outside the sandbox the command must not reach (see `sockets`).
    pub masked_sockets: Vec<PathBuf>,
    /// Control paths beneath a writable folder that exist (canonical; see [`crate::guard::control_files`]):
    /// read-only to the command — bind-mounted where the machine has mount namespaces, denied by Seatbelt —
    /// unless the person approved its control-file write.
    pub control: Vec<PathBuf>,
    /// Control paths beneath a writable folder that cannot be mounted (they do not exist yet, or are symlinks):
    /// what the command leaves there is undone after it ends (see `control_watch`).
    pub control_watch: Vec<PathBuf>,
}

/// The places a policy is built from.
#[derive(Clone, Copy, Debug)]
pub struct Places<'a> {
    /// The project root.
    pub root: &'a Path,
    /// `$PAICLI_HOME`: never writable.
    pub paicli_home: Option<&'a Path>,
    /// Tool caches found at start (see [`tool_caches`]).
    pub tool_caches: &'a [ToolCache],
}

impl Policy {
    /// The policy for `places` under `settings`; `read_only` (plan mode) leaves only the devices writable, and
    /// `control_writable` (the person approved a control-file write) leaves the control paths writable.
    pub fn build(
        settings: &SandboxSettings,
        places: Places<'_>,
        read_only: bool,
        control_writable: bool,
    ) -> Policy {
        let devices = existing(DEVICES.iter().map(PathBuf::from));
        let root = canonical(places.root);
        let mut policy = Policy {
            devices,
            network: settings.network,
            // Read-only commands too: a daemon would write for them.
            masked_sockets: daemon_sockets(&root, &settings.allow_sockets),
            ..Policy::default()
        };
        if read_only {
            return policy;
        }
        let mut roots = vec![(root.clone(), Origin::Project)];
        roots.extend(temp_dirs().into_iter().map(|t| (t, Origin::Temp)));
        roots.extend(
            places
                .tool_caches
                .iter()
                .map(|c| (c.path.clone(), Origin::ToolCache(c.tool))),
        );
        roots.extend(
            settings
                .writable_roots
                .iter()
                .map(|r| (r.clone(), Origin::UserSetting)),
        );
        let git = root.join(".git");
        let mut git_dirs = Vec::new();
        if settings.protect_git {
            if git.exists() {
                policy.protected.push(git);
            }
        } else {
            let link = linked_git(&root, places.paicli_home);
            git_dirs.clone_from(&link.dirs);
            roots.extend(link.dirs.into_iter().map(|d| (d, Origin::LinkedGitDir)));
            policy.git_link_refused = link.refused;
        }
        policy.writable = resolve_roots(roots);
        if let Some(home) = places.paicli_home {
            policy.read_only = state_beneath_roots(home, &policy.writable);
        }
        if !control_writable {
            let home = places
                .paicli_home
                .map_or_else(|| root.join(".paicli"), Path::to_path_buf);
            // A writable root the person added (`sandbox.writable_roots`, `--add-dir`) has the project's control
            // paths too: its git hooks or `.envrc` run code later just the same.
            let table = ControlFiles::new(&home, &root)
                .with_added_roots(&settings.writable_roots)
                .with_git_dirs(&git_dirs);
            policy.split_control(&table, &root);
        }
        policy
    }

    /// Sorts the table's paths that a command could write (beneath a writable folder, outside the read-only
    /// ones) into those to mount read-only and those to watch.
    fn split_control(&mut self, table: &ControlFiles, root: &Path) {
        // A repository the command makes itself (`git init` where there was none) is its own: its config and
        // hooks are git's defaults plus what the same command wrote, and undoing them would break `git init`.
        let fresh_git = root.join(".git");
        let fresh_git = (std::fs::symlink_metadata(&fresh_git).is_err()).then_some(fresh_git);
        for control in table.paths() {
            if fresh_git
                .as_ref()
                .is_some_and(|g| control.path.starts_with(g))
            {
                continue;
            }
            let path = resolve_existing(&control.path);
            let writable = self.writable.iter().any(|r| path.starts_with(&r.path))
                && !self.read_only.iter().any(|r| path.starts_with(r))
                && !self.protected.iter().any(|r| path.starts_with(r));
            if !writable {
                continue;
            }
            let list = match std::fs::symlink_metadata(&path) {
                Ok(meta) if !meta.file_type().is_symlink() => &mut self.control,
                _ => &mut self.control_watch,
            };
            if !list.contains(&path) {
                list.push(path);
            }
        }
    }

    /// The writable folders' paths.
    pub fn writable_paths(&self) -> Vec<PathBuf> {
        self.writable.iter().map(|r| r.path.clone()).collect()
    }
}

/// What the `.git` of the project at `root` (canonical) links to, judged against the places no linked git
/// directory may be or hold.
pub(super) fn linked_git(root: &Path, paicli_home: Option<&Path>) -> GitLink {
    git_link::resolve(&Protected {
        root,
        home: dirs::home_dir().as_deref(),
        paicli_home,
    })
}

/// `$PAICLI_HOME` when a writable root holds it (it is created first, so a command cannot create it with contents
/// of its own); paicli's state is never a command's to change.
fn state_beneath_roots(home: &Path, writable: &[Root]) -> Vec<PathBuf> {
    let absolute = home.canonicalize().ok().or_else(|| {
        let parent = home.parent()?.canonicalize().ok()?;
        Some(parent.join(home.file_name()?))
    });
    let Some(absolute) = absolute else {
        return Vec::new();
    };
    if !writable.iter().any(|r| absolute.starts_with(&r.path))
        || std::fs::create_dir_all(home).is_err()
    {
        return Vec::new();
    }
    home.canonicalize().into_iter().collect()
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

/// The roots that exist, canonical, first of each kept.
fn resolve_roots(roots: Vec<(PathBuf, Origin)>) -> Vec<Root> {
    let mut out: Vec<Root> = Vec::with_capacity(roots.len());
    for (path, origin) in roots {
        if let Ok(path) = path.canonicalize()
            && !out.iter().any(|r| r.path == path)
        {
            out.push(Root { path, origin });
        }
    }
    out
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
