//! `save_memory`: keeps a fact the user wants remembered across sessions (see [`crate::memory`]).

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{Args, Tool, ToolContext, ToolOutcome, ToolTraits};
use crate::memory::{MemoryEntry, MemorySource, MemoryStore, SaveOptions, SaveOutcome, Scope};
use crate::protocol::{MemoryTaint, Risk};

/// Outcome code when a new fact may contradict saved ones and the user has to choose.
pub const MEMORY_CONFLICT: &str = "MEMORY_CONFLICT";

/// Outcome code when `replace_id` names a global fact but the call's scope is not `global` (the approval gate
/// judges a call by its scope, so a global fact is only rewritten by a call that says so).
pub const MEMORY_SCOPE_MISMATCH: &str = "MEMORY_SCOPE_MISMATCH";

/// Saves long-term facts.
pub struct SaveMemory {
    store: Arc<MemoryStore>,
    taint: Option<Arc<MemoryTaint>>,
}

impl SaveMemory {
    /// The tool writing to `store`, with no record of where facts come from.
    pub fn new(store: Arc<MemoryStore>) -> Self {
        SaveMemory { store, taint: None }
    }

    /// The tool writing to `store`, storing with each fact what the session had read (`taint`) before it.
    pub fn with_provenance(store: Arc<MemoryStore>, taint: Arc<MemoryTaint>) -> Self {
        SaveMemory {
            store,
            taint: Some(taint),
        }
    }

    fn source(&self) -> Option<MemorySource> {
        let reads = self.taint.as_ref()?.reads();
        Some(if reads.is_empty() {
            MemorySource::Conversation
        } else {
            MemorySource::After {
                read: reads.named,
                more: reads.more,
            }
        })
    }
}

#[async_trait]
impl Tool for SaveMemory {
    fn name(&self) -> &str {
        "save_memory"
    }

    fn description(&self) -> &str {
        "Save one short, durable fact (a preference, convention or decision) for later sessions; never task \
state or secrets. On a conflict with a saved fact you get both back: ask the user which holds, then call again \
with replace_id or keep_both=true."
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "fact": {"type": "string"},
                "scope": {
                    "type": "string",
                    "enum": ["project", "global"],
                    "description": "Default project; global: every project."
                },
                "replace_id": {"type": "string"},
                "keep_both": {"type": "boolean"}
            },
            "required": ["fact"]
        })
    }

    fn traits(&self) -> ToolTraits {
        // No approval (the memory guard decides), not audited, but one at a time: it writes the memory files.
        ToolTraits {
            audited: false,
            writes_memory: true,
            ..ToolTraits::side_effect(Risk::None)
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        super::call_view::str_arg(args, "fact")
    }

    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let args = Args(args);
        let fact = match args.required_str("fact") {
            Ok(f) => f.to_string(),
            Err(outcome) => return outcome,
        };
        let scope = match args.str("scope").map(str::parse::<Scope>).transpose() {
            Ok(s) => s.unwrap_or(Scope::Project),
            Err(e) => return ToolOutcome::failed(format!("invalid scope: {e}")),
        };
        let options = SaveOptions {
            replace_id: args
                .str("replace_id")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            keep_both: args.bool("keep_both").unwrap_or(false),
            source: self.source(),
        };
        let store = Arc::clone(&self.store);
        // File locks block: keep them off the async workers.
        let result = tokio::task::spawn_blocking(move || {
            if let Some(id) = &options.replace_id
                && scope != Scope::Global
                && store.list(Some(Scope::Global))?.iter().any(|e| &e.id == id)
            {
                return Ok(Err(id.clone()));
            }
            store.save(&fact, scope, &options).map(Ok)
        })
        .await;
        match result {
            Ok(Ok(Ok(outcome))) => outcome_for(outcome),
            Ok(Ok(Err(id))) => ToolOutcome::denied(
                MEMORY_SCOPE_MISMATCH,
                format!(
                    "[{id}] is a global fact: to replace it, call save_memory again with scope \"global\""
                ),
            ),
            Ok(Err(e)) => ToolOutcome::failed(e.to_string()),
            Err(e) => ToolOutcome::failed(format!("memory task failed: {e}")),
        }
    }
}

fn outcome_for(outcome: SaveOutcome) -> ToolOutcome {
    match outcome {
        SaveOutcome::Saved(e) => ToolOutcome::ok(format!(
            "saved to {} memory as [{}]: {}",
            e.scope, e.id, e.fact
        )),
        SaveOutcome::Duplicate(e) => ToolOutcome::ok(format!(
            "already saved as [{}] ({} memory); marked as verified: {}",
            e.id, e.scope, e.fact
        )),
        SaveOutcome::Replaced { old, new } => ToolOutcome::ok(format!(
            "replaced [{}] \"{}\" with \"{}\"",
            new.id, old.fact, new.fact
        )),
        SaveOutcome::Conflict { fact, existing } => ToolOutcome::denied(
            MEMORY_CONFLICT,
            format!(
                "not saved: \"{fact}\" may conflict with saved facts:\n{}\nAsk the user which is right, then call \
save_memory again with replace_id set to the fact it replaces, or with keep_both=true if both hold.",
                list(&existing)
            ),
        ),
    }
}

fn list(entries: &[MemoryEntry]) -> String {
    entries
        .iter()
        .map(|e| format!("- [{}] ({}) {}", e.id, e.scope, e.fact))
        .collect::<Vec<_>>()
        .join("\n")
}
