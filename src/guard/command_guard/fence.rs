//! Where a command may write: the project root (through [`PathGuard`], so symlinks that lead out are caught),
//! extra roots such as `$PAICLI_HOME`, anything written literally as `/tmp/…`, and harmless devices (`/dev/null`, ...).

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::guard::path_guard::{PathGuard, PathGuardError};

/// Devices a command may always write to.
const HARMLESS_DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/zero",
];

/// Decides whether a write target seen in a command line is allowed.
#[derive(Clone)]
pub struct WriteFence {
    guard: Arc<PathGuard>,
    extra_roots: Vec<PathBuf>,
}

impl WriteFence {
    /// A fence around `guard`'s root and `extra_roots`.
    pub fn new(guard: Arc<PathGuard>, extra_roots: Vec<PathBuf>) -> Self {
        let extra_roots = extra_roots
            .into_iter()
            .map(|r| r.canonicalize().unwrap_or(r))
            .collect();
        WriteFence { guard, extra_roots }
    }

    /// `None` when writing `target` is allowed, else the resolved place it would write to.
    pub fn outside(&self, target: &str) -> Option<String> {
        let target = target.trim();
        if target.is_empty() || target.contains("$(…)") {
            return None;
        }
        let expanded = match expand_home(target) {
            Home::Expanded(p) => p,
            Home::Unknown => return Some(target.to_string()),
            Home::Plain if target.starts_with('$') => return None,
            Home::Plain => target.to_string(),
        };
        if HARMLESS_DEVICES.contains(&expanded.as_str()) || expanded.starts_with("/dev/fd/") {
            return None;
        }
        let lexical = normalize(&self.guard.root().join(&expanded));
        // Only a literal `/tmp/...` counts as scratch space: a relative or `~` path that happens to land in /tmp
        // (a project or home under /tmp) is judged like any other path.
        if target.starts_with("/tmp/")
            && lexical.starts_with("/tmp")
            && lexical != Path::new("/tmp")
        {
            return None;
        }
        if self.extra_roots.iter().any(|r| lexical.starts_with(r)) {
            return None;
        }
        match self.guard.resolve(&expanded) {
            Ok(_) => None,
            Err(PathGuardError::OutOfBounds { resolved, .. }) => {
                let real = PathBuf::from(&resolved);
                if self.extra_roots.iter().any(|r| real.starts_with(r)) {
                    None
                } else {
                    Some(resolved)
                }
            }
            Err(_) => Some(lexical.display().to_string()),
        }
    }
}

enum Home {
    Expanded(String),
    /// `~user` or a home that cannot be found: treated as outside.
    Unknown,
    Plain,
}

/// Expands `~`, `~/x`, `$HOME`, `${HOME}` to the user's home directory.
fn expand_home(target: &str) -> Home {
    let rest = ["${HOME}", "$HOME", "~"]
        .iter()
        .find_map(|p| target.strip_prefix(p));
    let Some(rest) = rest else {
        return Home::Plain;
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        // `~user/...` or `$HOMEDIR`.
        return if target.starts_with('~') {
            Home::Unknown
        } else {
            Home::Plain
        };
    }
    match dirs::home_dir() {
        Some(home) => Home::Expanded(format!("{}{rest}", home.display())),
        None => Home::Unknown,
    }
}

/// Folds `.` and `..` without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
