//! Large tool outputs go to `<project>/.paicli/tool-outputs/session-…/NNN-<tool>.txt`; the model keeps a preview.
//!
//! Writes are small synchronous file writes (at most a few MB, once per large result); they run on the caller's
//! thread rather than paying a blocking-pool hop for every result. Every create, write and delete goes through
//! the path guard's directory handles (`folder`): a symlinked spill folder is refused, and the output is cut
//! inline instead, with the model told so.

mod folder;
mod preview;

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustix::fs::Mode;

use crate::guard::path_guard::{DirHandle, PathGuard, normalize_lexically};

pub use folder::{SpillFolderError, remove_stale};

/// Default spill threshold in chars.
pub const DEFAULT_THRESHOLD_CHARS: usize = 32_000;
/// The smallest threshold accepted; lower settings are raised to it.
pub const MIN_THRESHOLD_CHARS: usize = 2000;
/// Head preview length in chars.
pub const HEAD_CHARS: usize = 2000;
/// Session folders older than this are removed at start-up.
pub const STALE_AFTER: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// The spill folder, relative to the project root.
pub const SPILL_DIR: &str = ".paicli/tool-outputs";

/// Longest tool name used in a spill file name.
const MAX_NAME_CHARS: usize = 60;

/// How the executor treats a call's large result, as the tool says (see [`crate::tools::Tool::spill_rule`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpillRule {
    /// Offload past the threshold (the default).
    Spill,
    /// Already sized by the tool (a command's own inline limit) or explicitly ranged (a read with offset/limit).
    Keep,
    /// A whole read of this spill file: never copied again, previewed pointing at the same file.
    PointAt(String),
}

/// Writes large tool outputs to `<project>/.paicli/tool-outputs/session-…/` and keeps a preview in context.
#[derive(Debug)]
pub struct SpillStore {
    root: PathBuf,
    /// The root opened once; `None` when it cannot be (every large output is then cut inline).
    guard: Option<PathGuard>,
    enabled: bool,
    threshold_chars: usize,
    /// This store's session folder (its handle and its path below the root), created on first use.
    session: Mutex<Option<(Arc<DirHandle>, PathBuf)>>,
    counter: AtomicUsize,
}

impl SpillStore {
    /// A store for the project at `root`; `threshold_chars` is raised to at least 2000.
    pub fn new(root: &Path, enabled: bool, threshold_chars: usize) -> Self {
        SpillStore {
            root: root.to_path_buf(),
            guard: PathGuard::new(root).ok(),
            enabled,
            threshold_chars: threshold_chars.max(MIN_THRESHOLD_CHARS),
            session: Mutex::new(None),
            counter: AtomicUsize::new(0),
        }
    }

    /// True when large outputs are written to files (otherwise they are truncated or kept whole).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Outputs longer than this many chars are offloaded.
    pub fn threshold_chars(&self) -> usize {
        self.threshold_chars
    }

    /// `<root>/.paicli/tool-outputs`.
    pub fn spill_dir(&self) -> PathBuf {
        self.root.join(SPILL_DIR)
    }

    /// True when `path` (absolute, or relative to the root) lies inside the spill folder.
    pub fn is_inside_spill_dir(&self, path: &Path) -> bool {
        let absolute = normalize_lexically(&self.root.join(path));
        let dir = normalize_lexically(&self.spill_dir());
        if absolute.starts_with(&dir) {
            return true;
        }
        // The root may be reached through a symlink; compare real paths when both exist.
        match (absolute.canonicalize(), dir.canonicalize()) {
            (Ok(a), Ok(d)) => a.starts_with(d),
            _ => false,
        }
    }

    /// Returns `text` unchanged up to the threshold (or when disabled), else saves it and returns a preview.
    pub fn offload(&self, tool: &str, text: &str) -> String {
        if !self.enabled || !longer_than(text, self.threshold_chars) {
            return text.to_string();
        }
        self.spill(tool, text, HEAD_CHARS)
    }

    /// Keeps up to `head_chars` inline; beyond that saves the text and returns a preview with that long a head.
    /// When spilling is disabled the text is truncated instead (with a note).
    pub fn offload_with_head(&self, tool: &str, text: &str, head_chars: usize) -> String {
        if !longer_than(text, head_chars) {
            return text.to_string();
        }
        if !self.enabled {
            return preview::render_truncated(
                tool,
                text,
                head_chars,
                "saving large outputs to files is disabled",
            );
        }
        self.spill(tool, text, head_chars)
    }

    /// For a large read of a file that is already a spill file (`path` as the model gave it): a preview pointing
    /// at that same file instead of a second copy. Small texts, or a disabled store, pass unchanged.
    pub fn preview_existing(&self, tool: &str, text: &str, path: &str) -> String {
        if !self.enabled || !longer_than(text, self.threshold_chars) {
            return text.to_string();
        }
        preview::render_offloaded(tool, text, path, HEAD_CHARS)
    }

    fn spill(&self, tool: &str, text: &str, head_chars: usize) -> String {
        match self.write(tool, text) {
            Ok(rel) => preview::render_offloaded(tool, text, &rel.to_string_lossy(), head_chars),
            Err(e) => preview::render_truncated(
                tool,
                text,
                head_chars,
                &format!(
                    "the full output could not be saved to a file ({e}); only the part below is in context, \
                     so narrow the call (a range, a filter) to see the rest"
                ),
            ),
        }
    }

    /// Writes `text` to the next numbered file of this session and returns its path below the root.
    fn write(&self, tool: &str, text: &str) -> Result<PathBuf, SpillFolderError> {
        let (dir, rel) = self.session_dir()?;
        let n = self.counter.fetch_add(1, Ordering::Relaxed) + 1;
        let name = format!("{n:03}-{}.txt", file_safe_name(tool));
        let mut file = dir.create_new(OsStr::new(&name), Mode::from_raw_mode(0o644))?;
        file.write_all(text.as_bytes())?;
        Ok(rel.join(name))
    }

    /// The session folder, created (with the `.gitignore` beside it) on first use, beneath the root only.
    fn session_dir(&self) -> Result<(Arc<DirHandle>, PathBuf), SpillFolderError> {
        let mut session = self
            .session
            .lock()
            .map_err(|_| io::Error::other("spill store lock poisoned"))?;
        if let Some((dir, rel)) = session.as_ref() {
            return Ok((Arc::clone(dir), rel.clone()));
        }
        let guard = self
            .guard
            .as_ref()
            .ok_or_else(|| io::Error::other("the project root cannot be opened"))?;
        folder::open(guard, true)?;
        let name = format!(
            "session-{}-{:06x}",
            chrono::Local::now().format("%Y%m%d-%H%M%S"),
            fastrand::u32(..0x100_0000)
        );
        let rel = Path::new(SPILL_DIR).join(name);
        let dir = Arc::new(guard.create_dir_all(&guard.root().join(&rel))?);
        *session = Some((Arc::clone(&dir), rel.clone()));
        Ok((dir, rel))
    }
}

/// True when `text` has more than `limit` chars (without counting all of a huge text).
fn longer_than(text: &str, limit: usize) -> bool {
    text.len() > limit && text.chars().nth(limit).is_some()
}

/// The tool name as a file-name part: `[A-Za-z0-9_.-]` only, at most 60 chars.
fn file_safe_name(tool: &str) -> String {
    tool.chars()
        .take(MAX_NAME_CHARS)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
