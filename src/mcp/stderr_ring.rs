//! The last lines a server wrote to stderr, kept for `/mcp logs` and failure messages, never shown live.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

/// Lines kept per server.
pub const STDERR_LINES: usize = 200;

/// A bounded ring of stderr lines.
#[derive(Debug, Default)]
pub struct StderrRing {
    lines: Mutex<VecDeque<String>>,
}

impl StderrRing {
    /// An empty ring.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a line, dropping the oldest beyond [`STDERR_LINES`].
    pub fn push(&self, line: impl Into<String>) {
        let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(line.into());
    }

    /// Every kept line, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.iter().cloned().collect()
    }

    /// The last `n` lines joined by newlines, for error messages.
    pub fn tail(&self, n: usize) -> String {
        let lines = self.lines();
        let start = lines.len().saturating_sub(n);
        lines[start..].join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_last_lines() {
        let ring = StderrRing::new();
        for i in 0..(STDERR_LINES + 5) {
            ring.push(format!("line {i}"));
        }
        let lines = ring.lines();
        assert_eq!(lines.len(), STDERR_LINES);
        assert_eq!(lines[0], "line 5");
        assert_eq!(
            ring.tail(2),
            format!("line {}\nline {}", STDERR_LINES + 3, STDERR_LINES + 4)
        );
    }
}
