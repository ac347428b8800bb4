//! `revert_turn`: puts the project's files back as they were before a recent turn, from the snapshot store.

use std::path::PathBuf;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{Args, Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits};
use crate::protocol::{Risk, ToolKind};
use crate::snapshot::{SnapshotHook, Target};

/// Restores the files of an earlier turn.
pub struct RevertTurn {
    hook: SnapshotHook,
}

impl RevertTurn {
    /// The tool restoring from `hook`'s store (the hook labels the snapshots it takes).
    pub fn new(hook: SnapshotHook) -> Self {
        RevertTurn { hook }
    }
}

#[async_trait]
impl Tool for RevertTurn {
    fn name(&self) -> &str {
        "revert_turn"
    }

    fn description(&self) -> &str {
        "Only when the user asks to undo: put the files back as they were before the offset-th latest user turn \
that changed files (earlier sessions count too). Ignored files stay. Calling it again with offset 1 undoes the \
revert."
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "offset": {"type": "integer", "description": ">= 1, default 1 (the latest)."}
            }
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Edit,
            edits_files: true,
            // It changes what every other call in the batch would see.
            serial_batch: true,
            ..ToolTraits::side_effect(Risk::High)
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        let offset = args.get("offset").and_then(Value::as_i64).unwrap_or(1);
        Some(format!("offset {offset}"))
    }

    /// The files the restore would write or remove, so the approval gate asks the person before a revert
    /// rewrites a control file (git hooks, instruction files, …). Read from the store without writing anything
    /// in the project; none when the store cannot tell (the restore then fails the same way).
    fn write_targets(&self, args: &Map<String, Value>, ctx: &ToolContext) -> Vec<PathBuf> {
        let offset = match Args(args).int("offset") {
            None => 1,
            Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
            Some(_) => return Vec::new(),
        };
        let Some(store) = self.hook.store() else {
            return Vec::new();
        };
        match store.preview(&Target::BeforeChange(offset)) {
            Ok(paths) => paths.iter().map(|p| ctx.root.join(p)).collect(),
            Err(e) => {
                tracing::warn!("revert_turn could not preview its files: {e}");
                Vec::new()
            }
        }
    }

    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let offset = match Args(args).int("offset") {
            None => 1,
            Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
            Some(n) => {
                return ToolOutcome::failed(format!(
                    "offset must be an integer >= 1 (1 = the latest turn that changed files), not {n}"
                ));
            }
        };
        let Some(store) = self.hook.store().cloned() else {
            return ToolOutcome::failed(
                "snapshots are off in this session (snapshots.enabled = false, or git is not installed), so \
                 there is nothing to revert from",
            );
        };
        let label = self.hook.turn_label();
        let restored = tokio::task::spawn_blocking(move || {
            store.restore(&Target::BeforeChange(offset), &label)
        })
        .await;
        let report = match restored {
            Ok(Ok(report)) => report,
            Ok(Err(e)) => return ToolOutcome::failed(e.to_string()),
            Err(e) => return ToolOutcome::failed(format!("the restore did not finish: {e}")),
        };
        if report.changes.is_empty() {
            return ToolOutcome::ok("the files already match that snapshot; nothing was changed");
        }
        let text = format!(
            "restored the files as they were before turn {offset} back ({} file(s) changed; calling \
             revert_turn with offset 1 undoes this):\n{}",
            report.changes.len(),
            report.summary()
        );
        ToolOutcome::Ok(ToolOutput {
            text,
            changed_files: report
                .changes
                .iter()
                .filter(|c| c.status != 'D')
                .map(|c| PathBuf::from(&c.path))
                .collect(),
            ..ToolOutput::default()
        })
    }
}
