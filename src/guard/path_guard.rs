//! Keeps every path a tool touches inside the project root, symlinks included.
//!
//! A path is resolved in three steps: join it to the root (or take it as is when absolute), normalize `.` and `..`
//! lexically, then canonicalize the longest part that exists (resolving symlinks) and re-attach the rest. The
//! result must lie under the canonical root. Because the existing prefix is canonicalized, a file that does not
//! exist yet under a symlinked directory pointing outside is caught too.
//!
//! Checking a name and opening it later would leave a gap a local process could use to swap a directory for a
//! symlink, so tools open what `resolve` returned through the root's directory handle (`access`), which
//! refuses every symlink on the way.

mod access;
mod dir;
mod read_roots;

pub use dir::{DirEntry, DirHandle, EntryKind, EntryMeta};
// The open-beneath primitives live in `config` so its safe reader shares them; the guard's modules use them here.
use crate::config::beneath;
pub use read_roots::ReadRoots;

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The stable outcome code for a path the guard refused.
pub const PATH_OUT_OF_BOUNDS: &str = "PATH_OUT_OF_BOUNDS";

/// How many dangling symlinks may chain before resolution gives up (the kernel's own limit is 40).
const MAX_LINK_HOPS: usize = 40;

/// Keeps every tool path inside the project root (symlink-safe).
#[derive(Debug, Clone)]
pub struct PathGuard {
    root: PathBuf,
    /// The root opened once, so later renames of the root's own path cannot redirect the tools.
    root_dir: Arc<OwnedFd>,
    /// Folders outside the root that the read-only tools may read (see [`ReadRoots`]).
    read_roots: ReadRoots,
    /// Folders outside the root the person added for this run (`--add-dir`): read and written like the root,
    /// each reached beneath its own handle. The same list type as the read roots, set once at start-up.
    added_roots: ReadRoots,
}

/// Why a path was refused.
#[derive(Debug, thiserror::Error)]
pub enum PathGuardError {
    /// The path was empty or only whitespace.
    #[error("path is empty; pass a file or directory path relative to the project root")]
    Blank,
    /// The path resolves outside the project root.
    #[error(
        "path `{input}` resolves to {resolved}, which is outside the project root; \
         use a path inside the project (relative paths are resolved against the root)"
    )]
    OutOfBounds { input: String, resolved: String },
    /// The path could not be resolved at all (e.g. a symlink loop).
    #[error("cannot resolve path `{input}`: {source}")]
    Unresolvable {
        input: String,
        #[source]
        source: io::Error,
    },
}

impl PathGuardError {
    /// The outcome code a tool reports when it denies the call because of this error.
    pub fn code(&self) -> &'static str {
        match self {
            PathGuardError::OutOfBounds { .. } => PATH_OUT_OF_BOUNDS,
            PathGuardError::Blank | PathGuardError::Unresolvable { .. } => "PATH_INVALID",
        }
    }
}

impl PathGuard {
    /// A guard for `root`, which must exist; it is canonicalized so every later comparison is on real paths.
    pub fn new(root: &Path) -> io::Result<Self> {
        let root = root.canonicalize()?;
        let root_dir = rustix::fs::open(&root, beneath::dir_flags(), rustix::fs::Mode::empty())?;
        Ok(PathGuard {
            root,
            root_dir: Arc::new(root_dir),
            read_roots: ReadRoots::default(),
            added_roots: ReadRoots::default(),
        })
    }

    /// A guard for `root` that also lets the tools read and write beneath each of `added` (the person's
    /// `--add-dir`); a folder that cannot be opened is left out.
    pub fn with_added(root: &Path, added: &[PathBuf]) -> io::Result<Self> {
        let guard = PathGuard::new(root)?;
        guard.added_roots.set(added);
        Ok(guard)
    }

    /// The folders added with [`PathGuard::with_added`], canonical.
    pub fn added_roots(&self) -> Vec<PathBuf> {
        self.added_roots.paths()
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The extra folders the read-only tools may read; shared by every clone of this guard.
    pub fn read_roots(&self) -> &ReadRoots {
        &self.read_roots
    }

    /// Resolves a model-supplied path to a real path inside the root, or says why it may not be used.
    pub fn resolve(&self, input: &str) -> Result<PathBuf, PathGuardError> {
        let real = self.real(input)?;
        if real.starts_with(&self.root) || self.added_roots.containing(&real).is_some() {
            Ok(real)
        } else {
            Err(out_of_bounds(input, &real))
        }
    }

    /// Like [`resolve`](Self::resolve), but a path inside one of the [`ReadRoots`] is accepted too: for tools
    /// that only read. Its symlinks are resolved first, so a link out of a readable folder is refused.
    pub fn resolve_read(&self, input: &str) -> Result<PathBuf, PathGuardError> {
        let real = self.real(input)?;
        if real.starts_with(&self.root)
            || self.added_roots.containing(&real).is_some()
            || self.read_roots.containing(&real).is_some()
        {
            Ok(real)
        } else {
            Err(out_of_bounds(input, &real))
        }
    }

    /// `input` joined to the root, normalized and resolved through the symlinks that exist.
    fn real(&self, input: &str) -> Result<PathBuf, PathGuardError> {
        if input.trim().is_empty() {
            return Err(PathGuardError::Blank);
        }
        let joined = self.root.join(input);
        let normal = normalize_lexically(&joined);
        real_path(&normal, 0).map_err(|source| PathGuardError::Unresolvable {
            input: input.to_string(),
            source,
        })
    }

    /// The path relative to the root for messages (`.` for the root itself); outside paths are shown whole.
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

fn out_of_bounds(input: &str, real: &Path) -> PathGuardError {
    PathGuardError::OutOfBounds {
        input: input.to_string(),
        resolved: real.display().to_string(),
    }
}

/// `path` with `.`/`..` folded and its longest existing prefix resolved through symlinks.
pub fn resolve_existing(path: &Path) -> PathBuf {
    let path = normalize_lexically(path);
    let mut existing = path.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(canon) = std::fs::canonicalize(existing) {
            let mut out = canon;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return normalize_lexically(&out);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path,
        }
    }
}

/// Drops `.` and folds `..` without touching the file system; `..` never climbs above `/`.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Canonicalizes the longest existing ancestor of an absolute, normalized path and re-attaches the rest.
///
/// A dangling symlink on the way is followed by hand: the OS would follow it on write, so its target counts.
fn real_path(path: &Path, hops: usize) -> io::Result<PathBuf> {
    if hops > MAX_LINK_HOPS {
        return Err(io::Error::other("too many levels of symbolic links"));
    }
    for ancestor in path.ancestors() {
        let rest = path.strip_prefix(ancestor).unwrap_or(Path::new(""));
        match ancestor.canonicalize() {
            Ok(real) => return Ok(join_rest(real, rest)),
            Err(_) if is_symlink(ancestor) => {
                let target = std::fs::read_link(ancestor)?;
                let base = ancestor.parent().unwrap_or(Path::new("/"));
                let next = normalize_lexically(&base.join(target)).join(rest);
                return real_path(&next, hops + 1);
            }
            Err(_) => continue,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::NotFound,
        "no existing ancestor",
    ))
}

fn join_rest(real: PathBuf, rest: &Path) -> PathBuf {
    if rest.as_os_str().is_empty() {
        real
    } else {
        real.join(rest)
    }
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests;
