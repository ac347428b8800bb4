//! Waiting for a file's diagnostics after a change.
//!
//! Pull (LSP 3.17 `textDocument/diagnostic`) when the server offers it: one request, one answer. Otherwise push:
//! a server publishes whenever it likes, possibly several times per change (pyright first publishes what it has,
//! then again once its checker has run; clangd publishes once), and it never says "that was the last one". So
//! the wait is: (1) only publishes made after our change and, when the server sends versions, for our version
//! or later count; (2) after each counted publish wait a short settle window for another; (3) the newest publish
//! when the window passes quietly, or at the deadline, is the answer. The deadline is the batch's `lsp.wait_ms`,
//! so a server that never publishes costs that wait and no more.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use super::{LspServer, ServerError, lock};
use crate::lsp::uri::file_uri;

/// Which publishes answer a `sync`.
#[derive(Clone, Copy, Debug)]
pub struct SyncTicket {
    pub(super) version: i32,
    /// The publish counter before the change was sent.
    pub(super) after_seq: u64,
    /// The text was what the server already had: its last publish stands.
    pub(super) unchanged: bool,
}

impl LspServer {
    /// The server's diagnostics for `path` (absolute) as of `ticket`; `None` when it gave none before `deadline`.
    pub async fn diagnostics(
        &self,
        path: &Path,
        ticket: SyncTicket,
        deadline: Instant,
        settle: Duration,
    ) -> Option<Vec<lsp_types::Diagnostic>> {
        if self.pull {
            match self.pull_diagnostics(path, deadline).await {
                Ok(Some(found)) => return Some(found),
                Ok(None) => {}
                Err(e) => tracing::debug!(server = self.name(), "pull diagnostics: {e}"),
            }
        }
        self.pushed_diagnostics(path, ticket, deadline, settle)
            .await
    }

    /// `textDocument/diagnostic`; `Ok(None)` for an "unchanged" report (the pushed ones stand).
    async fn pull_diagnostics(
        &self,
        path: &Path,
        deadline: Instant,
    ) -> Result<Option<Vec<lsp_types::Diagnostic>>, ServerError> {
        let report = self
            .request(
                "textDocument/diagnostic",
                json!({ "textDocument": { "uri": file_uri(path) } }),
                Some(deadline),
            )
            .await?;
        if report.get("kind").and_then(Value::as_str) != Some("full") {
            return Ok(None);
        }
        let items = report.get("items").cloned().unwrap_or(Value::Null);
        serde_json::from_value(items)
            .map(Some)
            .map_err(|e| ServerError::Rpc {
                method: "textDocument/diagnostic".into(),
                message: format!("unreadable report: {e}"),
            })
    }

    /// The newest publish answering `ticket`, after the settle window (see the module docs).
    async fn pushed_diagnostics(
        &self,
        path: &Path,
        ticket: SyncTicket,
        deadline: Instant,
        settle: Duration,
    ) -> Option<Vec<lsp_types::Diagnostic>> {
        // Subscribe before looking, so a publish between the look and the wait still wakes us.
        let mut publishes = self.shared.publishes.subscribe();
        let mut newest: Option<(u64, Vec<lsp_types::Diagnostic>)> = None;
        let mut settle_until = deadline;
        loop {
            let answer = lock(&self.shared.published).get(path).and_then(|p| {
                let fresh = ticket.unchanged || p.seq > ticket.after_seq;
                let right_version = p.version.is_none_or(|v| v >= ticket.version);
                (fresh && right_version).then(|| (p.seq, p.diagnostics.clone()))
            });
            if let Some((seq, found)) = answer
                && newest.as_ref().is_none_or(|(s, _)| *s != seq)
            {
                if ticket.unchanged {
                    return Some(found);
                }
                newest = Some((seq, found));
                settle_until = (Instant::now() + settle).min(deadline);
            }
            if !self.is_alive() {
                break;
            }
            match tokio::time::timeout_at(settle_until, publishes.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => break,
            }
        }
        newest.map(|(_, found)| found)
    }
}
