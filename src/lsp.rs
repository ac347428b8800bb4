//! Diagnostics after edits: language servers started per language on demand (Content-Length framing,
//! `publishDiagnostics` and LSP 3.17 pull), plus a tree-sitter syntax check that always works.
//!
//! The agent loop collects the files that successful `write_file` / `edit_file` calls changed
//! ([`changed_files`]) and, before its next model request, asks a [`DiagnosticsSource`] for the message to inject.

mod diagnostic;
mod framing;
mod language;
mod manager;
mod report;
mod server;
mod status;
mod syntax;
mod uri;

use std::path::PathBuf;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::tools::{ToolCallResult, ToolOutcome};

pub use diagnostic::{Diagnostic, Severity};
pub use language::Language;
pub use manager::LspManager;
pub use report::HEADER;
pub use status::{LspStatus, ServerState, ServerStatus};
pub use syntax::check_syntax;

/// Where the loop gets the diagnostics message to inject after edits.
#[async_trait]
pub trait DiagnosticsSource: Send + Sync {
    /// Checks `files` (relative to the project root) and returns the message to inject, or None when there is
    /// nothing new. Must return within about `lsp.wait_ms` (+ a small margin) whatever the servers do.
    async fn check(&self, files: &[PathBuf], cancel: &CancellationToken) -> Option<String>;
}

/// The tools whose changed files are checked.
const EDIT_TOOLS: &[&str] = &["write_file", "edit_file"];

/// The files a call changed, when it was a successful `write_file` / `edit_file`; otherwise none.
pub fn changed_by<'a>(tool: &str, outcome: &'a ToolOutcome) -> &'a [PathBuf] {
    match outcome {
        ToolOutcome::Ok(output) if EDIT_TOOLS.contains(&tool) => &output.changed_files,
        _ => &[],
    }
}

/// The files that successful `write_file` / `edit_file` calls in `results` changed, each once, in call order.
pub fn changed_files(results: &[ToolCallResult]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for result in results {
        for path in changed_by(&result.tool, &result.outcome) {
            if !files.contains(path) {
                files.push(path.clone());
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::tools::ToolOutput;

    fn result(tool: &str, outcome: ToolOutcome) -> ToolCallResult {
        ToolCallResult {
            call_id: "c".into(),
            tool: tool.into(),
            outcome,
            duration: Duration::ZERO,
            content: String::new(),
        }
    }

    fn changed(paths: &[&str]) -> ToolOutcome {
        ToolOutcome::Ok(ToolOutput {
            changed_files: paths.iter().map(PathBuf::from).collect(),
            ..ToolOutput::default()
        })
    }

    #[test]
    fn only_successful_edits_count_each_file_once() {
        let results = [
            result("write_file", changed(&["a.py"])),
            result("edit_file", ToolOutcome::failed("no match")),
            result("edit_file", changed(&["b.c", "a.py"])),
            result("execute_command", changed(&["c.rs"])),
        ];
        assert_eq!(
            changed_files(&results),
            vec![PathBuf::from("a.py"), PathBuf::from("b.c")]
        );
    }
}
