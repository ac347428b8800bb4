//! Diagnostics after edits: language servers started per language on demand (Content-Length framing,
//! `publishDiagnostics` and LSP 3.17 pull), plus a tree-sitter syntax check that always works.
//!
//! The agent loop collects the files that successful calls of file-editing tools changed (the tools say which
//! they are) and, before its next model request, asks a [`DiagnosticsSource`] for the message to inject.

mod builtin_servers;
mod diagnostic;
mod framing;
mod manager;
mod report;
mod server;
mod status;
mod syntax;
mod uri;

use std::path::PathBuf;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

pub use diagnostic::{Diagnostic, Severity};
pub use manager::LspManager;
pub use report::HEADER;
use report::render_problems;
pub use status::{LspStatus, ServerState, ServerStatus};
pub use syntax::check_syntax;

/// Where the loop gets the diagnostics message to inject after edits.
#[async_trait]
pub trait DiagnosticsSource: Send + Sync {
    /// Checks `files` (relative to the project root) and returns the message to inject, or None when there is
    /// nothing new. Must return within about `lsp.wait_ms` (+ a small margin) whatever the servers do.
    async fn check(
        &self,
        files: &[PathBuf],
        cancel: &CancellationToken,
    ) -> Option<DiagnosticsReport>;
}

/// New problems found after an edit: the message for the model and, for the user's short line, how many
/// problems each file has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticsReport {
    pub text: String,
    /// Files in the order first seen, each with its count of new problems.
    pub files: Vec<(PathBuf, usize)>,
}

impl DiagnosticsReport {
    /// The report of `problems` (at most `max` listed in the text); `None` when there are none.
    pub fn of(problems: &[Diagnostic], max: usize) -> Option<DiagnosticsReport> {
        let text = render_problems(problems, max)?;
        let mut files: Vec<(PathBuf, usize)> = Vec::new();
        for d in problems {
            match files.iter_mut().find(|(p, _)| *p == d.path) {
                Some((_, n)) => *n += 1,
                None => files.push((d.path.clone(), 1)),
            }
        }
        Some(DiagnosticsReport { text, files })
    }
}
