//! What a session has read that it did not write itself: the project's files (someone else's words in a cloned
//! repository) and outside content (web pages, command output, MCP results). One value per session, shared by the
//! memory guard, which records each call's reads after it ran; the approval gate, which makes a `global` memory
//! save after such content the person's decision; and `save_memory`, which stores what was read with the fact.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// At most this many reads are kept by name; later ones are only counted.
pub const NAMED_READS_MAX: usize = 5;

/// Longest description of one read kept, in characters.
const READ_CHARS_MAX: usize = 120;

/// What was read before a save: the first reads by name (`read_file README.md`, `fetch_url https://…`) and how
/// many more there were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    pub named: Vec<String>,
    pub more: usize,
}

impl Reads {
    /// True when the session read nothing it did not write.
    pub fn is_empty(&self) -> bool {
        self.named.is_empty() && self.more == 0
    }

    /// `read_file README.md, grep foo (+3 more)`, for notes and logs.
    pub fn describe(&self) -> String {
        let mut text = self.named.join(", ");
        if self.more > 0 {
            text.push_str(&format!(" (+{} more)", self.more));
        }
        text
    }
}

#[derive(Default)]
struct State {
    reads: Reads,
    seen: HashSet<String>,
    written: HashSet<PathBuf>,
}

/// The session's reads of content it did not write (see the module doc).
pub struct MemoryTaint {
    root: PathBuf,
    state: Mutex<State>,
}

impl MemoryTaint {
    /// Nothing read yet, in the project at `root` (relative paths of calls are resolved against it).
    pub fn new(root: &Path) -> Self {
        MemoryTaint {
            root: root.to_path_buf(),
            state: Mutex::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records that the session wrote `path` (absolute, as the tool resolved it): reading it later is reading
    /// the session's own words.
    pub fn wrote(&self, path: &Path) {
        self.state().written.insert(normalized(path));
    }

    /// True when `path` (relative to the project or absolute) is a file this session wrote.
    pub fn written_by_session(&self, path: &str) -> bool {
        let path = normalized(&self.root.join(path));
        self.state().written.contains(&path)
    }

    /// Records one read, described as `tool target`; repeats are kept once.
    pub fn read(&self, description: &str) {
        let description = visible(description);
        let mut state = self.state();
        if !state.seen.insert(description.clone()) {
            return;
        }
        if state.reads.named.len() < NAMED_READS_MAX {
            state.reads.named.push(description);
        } else {
            state.reads.more += 1;
        }
    }

    /// What the session has read that it did not write, so far.
    pub fn reads(&self) -> Reads {
        self.state().reads.clone()
    }
}

/// `path` with `.` and `..` folded away (no file system access: a file that does not exist yet still compares).
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `text` on one line, control characters shown as `?`, cut to [`READ_CHARS_MAX`] characters.
fn visible(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(READ_CHARS_MAX)
        .collect();
    if text.chars().count() > READ_CHARS_MAX {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reads_are_named_repeats_once_the_rest_counted() {
        let taint = MemoryTaint::new(Path::new("/p"));
        assert!(taint.reads().is_empty());
        for i in 0..7 {
            taint.read(&format!("read_file f{i}"));
        }
        taint.read("read_file f0");
        let reads = taint.reads();
        assert_eq!(reads.named.len(), NAMED_READS_MAX);
        assert_eq!(reads.more, 2);
        assert!(
            reads.describe().starts_with("read_file f0, read_file f1"),
            "{}",
            reads.describe()
        );
        assert!(reads.describe().ends_with("(+2 more)"));
    }

    #[test]
    fn a_path_the_session_wrote_is_known_however_it_is_spelled() {
        let taint = MemoryTaint::new(Path::new("/p"));
        taint.wrote(Path::new("/p/src/a.rs"));
        assert!(taint.written_by_session("src/a.rs"));
        assert!(taint.written_by_session("./src/../src/a.rs"));
        assert!(taint.written_by_session("/p/src/a.rs"));
        assert!(!taint.written_by_session("src/b.rs"));
    }

    #[test]
    fn control_characters_are_shown_and_long_reads_cut() {
        let taint = MemoryTaint::new(Path::new("/p"));
        taint.read(&format!("fetch_url \u{1b}[2J{}", "x".repeat(300)));
        let named = &taint.reads().named[0];
        assert!(named.starts_with("fetch_url ?[2J"), "{named}");
        assert_eq!(named.chars().count(), READ_CHARS_MAX + 1);
    }
}
