//! Where a command may write: the project root, scratch space under `/tmp` and harmless devices (`/dev/null`,
//! ...); never `$PAICLI_HOME`. Targets are judged after resolving symlinks, so `/tmp/x -> /etc` is outside, and
//! writes to control paths (see [`crate::guard::control_files`]) are told apart (they need a person).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::guard::control_files::{ControlFiles, ControlKind};
use crate::guard::path_guard::{PathGuard, normalize_lexically, resolve_existing};

use super::parse::{Cwd, Word};

/// Devices a command may always write to.
const HARMLESS_DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/zero",
];

/// What writing a target would touch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Allowed,
    /// A control path (the resolved path) and what it does.
    Control(String, ControlKind),
    /// Outside the fence (the resolved path).
    Outside(String),
    /// Only known when the line runs (why).
    Unknown(String),
}

/// Decides whether a write target seen in a command line is allowed.
#[derive(Clone)]
pub struct WriteFence {
    guard: Arc<PathGuard>,
    root: PathBuf,
    home: Option<PathBuf>,
    tmp: PathBuf,
    control: ControlFiles,
}

impl WriteFence {
    /// A fence around `guard`'s root, with `$PAICLI_HOME` (`home`) for its caches and control files. Without a
    /// home, the project's own `.paicli/` stands in for it.
    pub fn new(guard: Arc<PathGuard>, home: Option<PathBuf>) -> Self {
        let root = canonical(guard.root());
        let control = ControlFiles::new(
            home.as_deref()
                .map(canonical)
                .as_deref()
                .unwrap_or(&root.join(".paicli")),
            &root,
        );
        Self::with_control_files(guard, home, control)
    }

    /// [`WriteFence::new`] with a control-file table built already (the session's, which also holds the folders
    /// added with `--add-dir`).
    pub fn with_control_files(
        guard: Arc<PathGuard>,
        home: Option<PathBuf>,
        control: ControlFiles,
    ) -> Self {
        let root = canonical(guard.root());
        let home = home.map(|h| canonical(&h));
        WriteFence {
            guard,
            root,
            home,
            tmp: canonical(Path::new("/tmp")),
            control,
        }
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The absolute, symlink-resolved path `target` names when run from `cwd`; `None` when it cannot be known.
    pub fn locate(&self, target: &Word, cwd: &Cwd) -> Option<PathBuf> {
        if target.dynamic {
            return None;
        }
        let path = Path::new(&target.text);
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.guard.root().join(cwd.as_ref()?).join(path)
        };
        Some(resolve_existing(&absolute))
    }

    /// What writing `target` from `cwd` would touch.
    pub fn judge(&self, target: &Word, cwd: &Cwd) -> Place {
        let text = target.text.trim();
        if text.is_empty() && !target.dynamic {
            return Place::Allowed;
        }
        if HARMLESS_DEVICES.contains(&text) || text.starts_with("/dev/fd/") {
            return Place::Allowed;
        }
        let Some(real) = self.locate(target, cwd) else {
            return Place::Unknown(if target.dynamic {
                format!("the write target `{text}` is computed when the line runs")
            } else {
                format!(
                    "`{text}` is relative to a directory (`cd …`) that is only known when the line runs"
                )
            });
        };
        let in_home = self.home.as_ref().is_some_and(|h| real.starts_with(h));
        if let Some(hit) = self.control.find(&real)
            && (!in_home || hit.kind == ControlKind::Settings)
        {
            return Place::Control(hit.path.display().to_string(), hit.kind);
        }
        // paicli's own state (its caches, snapshot store, skills and commands included) is never a command's to
        // write: the sandbox keeps it read-only too. Only its settings files may be written, with the person.
        if in_home {
            return Place::Outside(real.display().to_string());
        }
        // Only a literal `/tmp/…` counts as scratch space: a relative or `~` path that happens to land in /tmp (a
        // project under /tmp) is judged like any other path, and a symlink in /tmp that leads out is outside.
        let in_tmp = !target.from_home
            && text.starts_with("/tmp/")
            && real.starts_with(&self.tmp)
            && real != self.tmp;
        if real.starts_with(&self.root) || in_tmp {
            Place::Allowed
        } else {
            Place::Outside(real.display().to_string())
        }
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalize_lexically(path))
}
