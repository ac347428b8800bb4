//! Matching file contents with ripgrep's own searcher: the compiled pattern, a per-thread scanner, file reads.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use grep_matcher::LineTerminator;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::sinks::Bytes;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

use crate::guard::path_guard::PathGuard;
use crate::tools::ToolOutcome;
use crate::tools::fs::text::{SNIFF_BYTES, binary_kind, classify, decode_lossy};

/// Files bigger than this are skipped (generated bundles, logs, data dumps).
const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// A search pattern compiled for line-by-line matching (`$` also matches before `\r\n`).
#[derive(Debug)]
pub struct Pattern {
    matcher: RegexMatcher,
}

#[cfg(test)]
impl Pattern {
    /// True when the pattern matches somewhere in `line`.
    pub fn is_match(&self, line: &str) -> bool {
        use grep_matcher::Matcher as _;
        self.matcher.is_match(line.as_bytes()).unwrap_or(false)
    }
}

/// Compiles the model's pattern: escaped unless `is_regex`, case-insensitive unless `case_sensitive`.
pub fn compile(
    pattern: &str,
    is_regex: bool,
    case_sensitive: bool,
) -> Result<Pattern, ToolOutcome> {
    RegexMatcherBuilder::new()
        .case_insensitive(!case_sensitive)
        .fixed_strings(!is_regex)
        // `^` and `$` anchor at lines: the searcher hands the matcher whole buffers, not single lines.
        .multi_line(true)
        .crlf(true)
        .build(pattern)
        .map(|matcher| Pattern { matcher })
        .map_err(|err| {
            ToolOutcome::failed(format!(
                "invalid regex `{pattern}`: {err}\nfix the pattern, or set regex=false to search for it literally"
            ))
        })
}

/// Opens a file the search reads: through the root's directory handle without following a symlink, so a folder
/// swapped for a link after the walk saw it cannot bring an outside file into the results.
fn open_file(guard: &PathGuard, path: &Path) -> io::Result<File> {
    guard.open_read(path)
}

/// One search thread's reusable state: the searcher and the buffer files are read into.
pub struct Scanner {
    searcher: Searcher,
    buf: Vec<u8>,
}

impl Default for Scanner {
    fn default() -> Self {
        let searcher = SearcherBuilder::new()
            .line_number(true)
            .line_terminator(LineTerminator::crlf())
            // Binary files are told apart by `classify`, as read_file does.
            .binary_detection(BinaryDetection::none())
            .bom_sniffing(false)
            .build();
        Scanner {
            searcher,
            buf: Vec::new(),
        }
    }
}

impl Scanner {
    /// 0-based hit lines of a text file, at most `limit`; `None` when skipped (unreadable, too big, binary) or
    /// without a hit.
    pub fn hits(
        &mut self,
        guard: &PathGuard,
        path: &Path,
        pattern: &Pattern,
        limit: usize,
    ) -> Option<Vec<usize>> {
        // A binary extension settles it without opening the file.
        if binary_kind(path, &[]).is_some() {
            return None;
        }
        read_text(guard, path, &mut self.buf)?;
        let mut hits = Vec::new();
        let sink = Bytes(|line_number, _| {
            hits.push(usize::try_from(line_number.saturating_sub(1)).unwrap_or(usize::MAX));
            Ok(hits.len() < limit)
        });
        self.searcher
            .search_slice(&pattern.matcher, &self.buf, sink)
            .ok()?;
        (!hits.is_empty()).then_some(hits)
    }
}

/// A text file's lines (newlines stripped, invalid UTF-8 replaced); `None` when skipped as [`Scanner::hits`] does.
pub fn read_lines(guard: &PathGuard, path: &Path) -> Option<Vec<String>> {
    let mut buf = Vec::new();
    read_text(guard, path, &mut buf)?;
    let (text, _) = decode_lossy(&buf);
    Some(text.lines().map(str::to_string).collect())
}

/// Reads a file of at most [`MAX_FILE_BYTES`] into `buf`; `None` when unreadable, too big or binary.
fn read_text(guard: &PathGuard, path: &Path, buf: &mut Vec<u8>) -> Option<()> {
    let mut file = open_file(guard, path).ok()?;
    let len = file.metadata().ok()?.len();
    if len > MAX_FILE_BYTES {
        return None;
    }
    buf.clear();
    buf.reserve(usize::try_from(len).unwrap_or(0));
    // `take` keeps a file that grows while it is read within the cap.
    (&mut file).take(MAX_FILE_BYTES).read_to_end(buf).ok()?;
    classify(path, &buf[..buf.len().min(SNIFF_BYTES)])
        .is_none()
        .then_some(())
}
