//! The file tools' seam to an editor that serves its buffers (`ToolContext::files`, set by `paicli acp` when the
//! client offers `fs/read_text_file` and `fs/write_text_file`): text comes from and goes to the editor instead
//! of the disk. The tools have already resolved the path through the guard; the checks on the file itself
//! (exists, regular, size) still look at the disk.

use std::future::Future;
use std::path::Path;

use crate::protocol::FileAccessError;
use crate::tools::{ToolContext, ToolOutcome};

/// The text of `path` as the editor has it; `None` when the disk is the source. Runs inside the tool's blocking
/// work (see `run_blocking`).
pub(crate) fn editor_text(ctx: &ToolContext, path: &Path) -> Option<Result<String, ToolOutcome>> {
    let files = ctx.files.as_ref()?;
    Some(wait(ctx, files.read_text(path)))
}

/// Writes `text` to `path`: through the editor when it serves the buffers, else atomically to disk.
pub(crate) fn write_text(ctx: &ToolContext, path: &Path, text: &str) -> Result<(), String> {
    match &ctx.files {
        Some(files) => wait(ctx, files.write_text(path, text)).map_err(|outcome| match outcome {
            ToolOutcome::Failed { reason } => reason,
            other => other.model_text(),
        }),
        None => super::write_atomic(&ctx.guard, path, text.as_bytes()).map_err(|e| e.to_string()),
    }
}

/// Waits for the editor's answer on the runtime, or for the turn's cancel.
fn wait<T>(
    ctx: &ToolContext,
    answer: impl Future<Output = Result<T, FileAccessError>>,
) -> Result<T, ToolOutcome> {
    let runtime = tokio::runtime::Handle::try_current()
        .map_err(|e| ToolOutcome::failed(format!("cannot reach the editor: {e}")))?;
    runtime.block_on(async {
        tokio::select! {
            answer = answer => answer.map_err(|e| ToolOutcome::failed(e.to_string())),
            () = ctx.cancel.cancelled() => Err(ToolOutcome::Cancelled { partial: String::new() }),
        }
    })
}
