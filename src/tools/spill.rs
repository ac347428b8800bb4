//! Large tool outputs go to `<project>/.paicli/tool-outputs/session-…/NNN-<tool>.txt`; the model keeps a preview.
//!
//! Writes are small synchronous file writes (at most a few MB, once per large result); they run on the caller's
//! thread rather than paying a blocking-pool hop for every result.

mod preview;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use crate::guard::path_guard::normalize_lexically;

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
    enabled: bool,
    threshold_chars: usize,
    /// This store's session folder, created on first use.
    session: Mutex<Option<PathBuf>>,
    counter: AtomicUsize,
}

impl SpillStore {
    /// A store for the project at `root`; `threshold_chars` is raised to at least 2000.
    pub fn new(root: &Path, enabled: bool, threshold_chars: usize) -> Self {
        SpillStore {
            root: root.to_path_buf(),
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
            Ok(path) => {
                let rel = path.strip_prefix(&self.root).unwrap_or(&path);
                preview::render_offloaded(tool, text, &rel.to_string_lossy(), head_chars)
            }
            Err(e) => preview::render_truncated(
                tool,
                text,
                head_chars,
                &format!("the full output could not be saved to a file ({e})"),
            ),
        }
    }

    /// Writes `text` to the next numbered file of this session and returns its path.
    fn write(&self, tool: &str, text: &str) -> io::Result<PathBuf> {
        let dir = self.session_dir()?;
        let n = self.counter.fetch_add(1, Ordering::Relaxed) + 1;
        let path = dir.join(format!("{n:03}-{}.txt", file_safe_name(tool)));
        fs::write(&path, text)?;
        Ok(path)
    }

    /// The session folder, created (with the `.gitignore` beside it) on first use.
    fn session_dir(&self) -> io::Result<PathBuf> {
        let mut session = self
            .session
            .lock()
            .map_err(|_| io::Error::other("spill store lock poisoned"))?;
        if let Some(dir) = session.as_ref() {
            return Ok(dir.clone());
        }
        let base = self.spill_dir();
        fs::create_dir_all(&base)?;
        let gitignore = base.join(".gitignore");
        if !gitignore.exists() {
            fs::write(&gitignore, "*\n")?;
        }
        let name = format!(
            "session-{}-{:06x}",
            chrono::Local::now().format("%Y%m%d-%H%M%S"),
            fastrand::u32(..0x100_0000)
        );
        let dir = base.join(name);
        fs::create_dir_all(&dir)?;
        *session = Some(dir.clone());
        Ok(dir)
    }
}

/// Deletes spill session folders under `<root>/.paicli/tool-outputs` last modified more than `max_age` ago.
/// Returns how many were removed; folders that cannot be removed are skipped.
pub fn remove_stale(root: &Path, max_age: Duration) -> io::Result<usize> {
    let dir = root.join(SPILL_DIR);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let is_session = entry.file_name().to_string_lossy().starts_with("session-");
        // file_type does not follow symlinks: a symlink named session-* is never followed or removed.
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_session || !is_dir {
            continue;
        }
        let age = entry
            .metadata()
            .and_then(|m| m.modified())
            .map(|modified| now.duration_since(modified).unwrap_or_default());
        if age.is_ok_and(|age| age > max_age) && fs::remove_dir_all(entry.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
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
