//! Tools the model can call: the `Tool` trait, typed outcomes, the registry and executor, and the tool families.

pub mod args;
pub mod boundary;
pub mod edit;
pub mod executor;
pub mod fs;
pub mod gate;
pub mod mcp;
pub mod memory;
pub mod registry;
pub mod schema;
pub mod search;
pub mod shell;
pub mod spill;
pub mod web;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::llm::ContentPart;
use crate::policy::path_guard::PathGuard;

pub use args::Args;
pub use executor::{Executor, ExecutorOptions, ToolCallResult, ToolObserver};
pub use gate::{CallGate, GateCall, GateVerdict};
pub use registry::ToolRegistry;
pub use spill::SpillStore;

/// A unified diff of one file change, for the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiff {
    /// Path relative to the project root.
    pub path: String,
    /// Unified diff text (`---`/`+++`/`@@` hunks).
    pub unified: String,
}

/// What a successful tool call produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolOutput {
    /// Text for the model (before spill and boundary wrapping).
    pub text: String,
    /// Images to show the model in a follow-up user message.
    pub images: Vec<ContentPart>,
    /// URLs this result makes trustworthy to fetch (typed provenance, never parsed from text).
    pub discovered_urls: Vec<String>,
    /// The change a write or edit made.
    pub diff: Option<FileDiff>,
    /// Files written or edited (relative paths), for diagnostics and snapshots.
    pub changed_files: Vec<PathBuf>,
}

impl ToolOutput {
    /// A plain text result.
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput {
            text: text.into(),
            ..Default::default()
        }
    }
}

/// The typed result of a tool call. Success is never inferred from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolOutcome {
    Ok(ToolOutput),
    /// A policy refused the call; `code` is a stable reason code such as `PATH_OUT_OF_BOUNDS`.
    Denied {
        code: String,
        reason: String,
    },
    /// The tool ran (or tried to) and failed; `reason` tells the model what went wrong.
    Failed {
        reason: String,
    },
    /// The user cancelled; `partial` holds whatever output there was.
    Cancelled {
        partial: String,
    },
}

impl ToolOutcome {
    /// A failure with a reason.
    pub fn failed(reason: impl Into<String>) -> Self {
        ToolOutcome::Failed {
            reason: reason.into(),
        }
    }

    /// A denial with a code and a reason.
    pub fn denied(code: impl Into<String>, reason: impl Into<String>) -> Self {
        ToolOutcome::Denied {
            code: code.into(),
            reason: reason.into(),
        }
    }

    /// A success with plain text.
    pub fn ok(text: impl Into<String>) -> Self {
        ToolOutcome::Ok(ToolOutput::text(text))
    }

    /// True for `Ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self, ToolOutcome::Ok(_))
    }

    /// The text the model sees for this outcome, before spill and wrapping.
    pub fn model_text(&self) -> String {
        match self {
            ToolOutcome::Ok(out) => out.text.clone(),
            ToolOutcome::Denied { code, reason } => format!("[denied: {code}] {reason}"),
            ToolOutcome::Failed { reason } => format!("[error] {reason}"),
            ToolOutcome::Cancelled { partial } if partial.is_empty() => {
                "[aborted by user]".to_string()
            }
            ToolOutcome::Cancelled { partial } => {
                format!("[aborted by user] partial output:\n{partial}")
            }
        }
    }
}

/// Limits the tools work within.
#[derive(Clone, Debug)]
pub struct ToolLimits {
    /// `execute_command` wall-clock limit; the process group is killed after it.
    pub command_timeout: Duration,
    /// `execute_command` output kept inline before the rest spills to a file.
    pub command_inline_chars: usize,
    /// Largest file `write_file` / `edit_file` will produce.
    pub max_write_bytes: usize,
    /// Secret-looking variables (see `shell::scrub_env`) that child processes still receive (`[shell] keep_env`).
    pub keep_env: Vec<String>,
    /// Places besides the project root that commands may write to (`$PAICLI_HOME`).
    pub extra_write_roots: Vec<PathBuf>,
}

impl Default for ToolLimits {
    fn default() -> Self {
        ToolLimits {
            command_timeout: Duration::from_secs(60),
            command_inline_chars: 8000,
            max_write_bytes: 5 * 1024 * 1024,
            keep_env: Vec::new(),
            extra_write_roots: Vec::new(),
        }
    }
}

/// Everything a tool call may use. Cheap to clone; one per turn (the token is the turn's).
#[derive(Clone)]
pub struct ToolContext {
    /// The project root (canonical).
    pub root: PathBuf,
    /// Every path a tool touches goes through this.
    pub guard: Arc<PathGuard>,
    /// Where large outputs go.
    pub spill: Arc<SpillStore>,
    /// Fires when the user cancels the turn.
    pub cancel: CancellationToken,
    pub limits: ToolLimits,
    /// Checks each call passes before it runs, in order (see [`gate`]).
    pub gates: Vec<Arc<dyn CallGate>>,
}

impl ToolContext {
    /// A context for the guard's root with no gates and a fresh cancellation token.
    pub fn new(guard: PathGuard, spill: SpillStore, limits: ToolLimits) -> Self {
        ToolContext {
            root: guard.root().to_path_buf(),
            guard: Arc::new(guard),
            spill: Arc::new(spill),
            cancel: CancellationToken::new(),
            limits,
            gates: Vec::new(),
        }
    }
}

/// A tool the model can call.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &str;
    /// English description shown to the model.
    fn description(&self) -> &str;
    /// JSON Schema of the arguments (`{type: object, properties, required}`).
    fn parameters(&self) -> Value;
    /// True when the tool has no side effects and may run beside others.
    fn parallel_safe(&self) -> bool {
        false
    }
    /// Runs the call. `args` has already been validated against `parameters()`.
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome;
}

/// The built-in core tools (file system, edit, search, shell).
pub fn core_tools() -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(fs::ReadFile),
        Arc::new(fs::WriteFile),
        Arc::new(edit::EditFile),
        Arc::new(fs::ListDir),
        Arc::new(search::GlobFiles),
        Arc::new(search::GrepCode),
        Arc::new(shell::ExecuteCommand),
    ]
}
