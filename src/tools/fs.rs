//! File-system tools (`read_file`, `write_file`, `list_dir`) and the helpers the edit and search tools share.

mod atomic;
mod change;
mod editor;
mod list;
mod read;
pub mod text;
mod write;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{Args, ToolContext, ToolOutcome};
use crate::guard::path_guard::PathGuardError;

pub use list::ListDir;
pub use read::ReadFile;
pub use write::WriteFile;

pub(crate) use atomic::write_atomic;
pub use atomic::{STALE_AFTER, SweepReport, remove_stale_temps};
pub(crate) use change::change_output;
pub(crate) use editor::{editor_text, write_text};

/// Outcome code for a write or edit that would exceed `ToolLimits::max_write_bytes`.
pub const FILE_TOO_LARGE: &str = "FILE_TOO_LARGE";

/// One parameter of a tool schema: name, JSON type, description (empty for a parameter its name explains, such
/// as `path`: the system prompt says once that paths are relative to the project root).
pub(crate) type Param = (&'static str, &'static str, &'static str);

/// Builds `{type: object, properties: {p: {type, description}}, required: [...]}`; an empty description and an
/// empty `required` are left out, so every request carries only what the model needs.
pub(crate) fn object_schema(params: &[Param], required: &[&str]) -> Value {
    let properties: Map<String, Value> = params
        .iter()
        .map(|(name, ty, description)| {
            let property = if description.is_empty() {
                json!({ "type": ty })
            } else {
                json!({ "type": ty, "description": description })
            };
            ((*name).to_string(), property)
        })
        .collect();
    if required.is_empty() {
        json!({ "type": "object", "properties": properties })
    } else {
        json!({ "type": "object", "properties": properties, "required": required })
    }
}

/// Resolves the string argument `key` through the path guard, as a denial or failure the model can act on.
pub(crate) fn resolve_arg(
    args: Args<'_>,
    key: &str,
    ctx: &ToolContext,
) -> Result<PathBuf, ToolOutcome> {
    let input = args.required_str(key)?;
    ctx.guard.resolve(input).map_err(guard_outcome)
}

/// Like [`resolve_arg`] for tools that only read: the enabled skills' folders are readable too
/// (`PathGuard::resolve_read`).
pub(crate) fn resolve_read_arg(
    args: Args<'_>,
    key: &str,
    ctx: &ToolContext,
) -> Result<PathBuf, ToolOutcome> {
    let input = args.required_str(key)?;
    ctx.guard.resolve_read(input).map_err(guard_outcome)
}

/// Turns a path-guard error into the outcome the model sees.
pub(crate) fn guard_outcome(err: PathGuardError) -> ToolOutcome {
    match err {
        PathGuardError::OutOfBounds { .. } => ToolOutcome::denied(err.code(), err.to_string()),
        PathGuardError::Blank | PathGuardError::Unresolvable { .. } => {
            ToolOutcome::failed(err.to_string())
        }
    }
}

/// The path relative to the project root, for messages and diffs.
pub(crate) fn display(ctx: &ToolContext, path: &Path) -> String {
    ctx.guard.display(path)
}

/// Runs blocking file work off the async runtime; a cancelled turn never starts it.
pub(crate) async fn run_blocking(
    args: &Map<String, Value>,
    ctx: &ToolContext,
    work: fn(Args<'_>, &ToolContext) -> Result<ToolOutcome, ToolOutcome>,
) -> ToolOutcome {
    if ctx.cancel.is_cancelled() {
        return ToolOutcome::Cancelled {
            partial: String::new(),
        };
    }
    let args = args.clone();
    let ctx = ctx.clone();
    // Both arms are the tool's answer: `Err` carries an early failure or denial.
    tokio::task::spawn_blocking(move || work(Args(&args), &ctx).unwrap_or_else(|outcome| outcome))
        .await
        .unwrap_or_else(|err| ToolOutcome::failed(format!("tool task failed: {err}")))
}
