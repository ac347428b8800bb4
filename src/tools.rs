//! Tools the model can call: the `Tool` trait, typed outcomes, the registry and executor, and the tool families.

pub mod args;
pub mod boundary;
pub mod browser;
pub mod builtin;
pub mod call_view;
pub mod claude_names;
pub mod delegate;
pub mod edit;
pub mod executor;
pub mod fs;
pub mod mcp;
pub mod memory;
pub mod progress;
pub mod project;
pub mod registry;
pub mod schema;
pub mod search;
pub mod shell;
pub mod skill;
pub mod snapshot;
pub mod spill;
pub mod task_list;
pub mod web;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::guard::path_guard::PathGuard;
use crate::protocol::Confinement;
use crate::sandbox::Sandbox;

pub use crate::protocol::{
    CallGate, FileDiff, GateCall, GateVerdict, ToolOutcome, ToolOutput, ToolTraits,
};
pub use args::Args;
pub use builtin::{Builtins, builtin_tools, core_tools};
pub use call_view::{CallView, ProposedEdit};
pub use executor::{Executor, ExecutorOptions, ToolCallResult, ToolObserver};
pub use progress::Progress;
pub use registry::ToolRegistry;
pub use spill::{SpillRule, SpillStore};

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
    /// `$PAICLI_HOME`: commands may write to its caches, and writes to its control files need the person.
    pub paicli_home: Option<PathBuf>,
    /// The OS sandbox commands run in (`[sandbox]`).
    pub sandbox: Sandbox,
    /// How this call's command is confined; the executor sets it from the gates' verdicts.
    pub confinement: Confinement,
}

impl Default for ToolLimits {
    /// The declared `[tools]` defaults.
    fn default() -> Self {
        let declared = crate::config::ToolSettings::default();
        ToolLimits {
            command_timeout: declared.command_timeout,
            command_inline_chars: declared.command_inline_chars,
            max_write_bytes: declared.max_write_bytes,
            keep_env: Vec::new(),
            paicli_home: None,
            sandbox: Sandbox::default(),
            confinement: Confinement::default(),
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
    /// Where a running call reports its output lines (off unless a terminal shows them).
    pub progress: Progress,
    /// Where read_file, write_file and edit_file read and write text when an editor serves its buffers (ACP);
    /// `None` is the local disk. Paths are guarded either way.
    pub files: Option<Arc<dyn crate::protocol::FileAccess>>,
    /// Runs the `agent` tool's sub-agents; set by the agent loop per turn, `None` where nobody may delegate.
    pub delegation: Option<Arc<dyn delegate::Delegation>>,
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
            progress: Progress::default(),
            files: None,
            delegation: None,
        }
    }
}

/// A tool the model can call.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &str;
    /// English description shown to the model. Built once, when the tool is made, from the settings it states
    /// (limits, the sandbox), so it is true for the session and the same bytes on every request.
    fn description(&self) -> &str;
    /// JSON Schema of the arguments (`{type: object, properties, required}`).
    fn parameters(&self) -> Value;
    /// What the tool is: risk, audit, external content, network, edits, batching. Every gate reads these, never
    /// the name; a tool that declares nothing is treated as high-risk and audited.
    fn traits(&self) -> ToolTraits {
        ToolTraits::default()
    }
    /// The absolute paths a call with `args` would write, resolved through the context's path guard, so gates
    /// can tell a write to a control file. Empty when the tool writes nothing (or the path is refused anyway).
    fn write_targets(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> Vec<PathBuf> {
        Vec::new()
    }
    /// The words that sum up a call with `args` for a person (its path, command, pattern or URL). Default: the
    /// first usual argument it has (see [`call_view::common_summary`]); `None` shows its arguments as JSON.
    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        call_view::common_summary(args)
    }
    /// The files or folders a call with `args` is about, as the model named them (editors open them; they are
    /// made absolute against the project root). Default: none.
    fn locations(&self, _args: &Map<String, Value>) -> Vec<String> {
        Vec::new()
    }
    /// The change a call with `args` asks for in one file's text, for editors that show it as a diff. Default:
    /// none (the tool edits no single file's text).
    fn proposed_edit(&self, _args: &Map<String, Value>) -> Option<ProposedEdit> {
        None
    }
    /// How a large result of a call with `args` is treated (default: spilled past the threshold).
    fn spill_rule(&self, _args: &Map<String, Value>, _spill: &SpillStore) -> SpillRule {
        SpillRule::Spill
    }
    /// Runs the call. `args` has already been validated against `parameters()`.
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome;
}

/// The write target of a tool whose `path` argument names the one file it writes: that path resolved through the
/// path guard, or nothing when the guard refuses it (the tool then refuses too).
pub fn path_arg_target(args: &Map<String, Value>, ctx: &ToolContext) -> Vec<PathBuf> {
    args.get("path")
        .and_then(Value::as_str)
        .and_then(|path| ctx.guard.resolve(path).ok())
        .into_iter()
        .collect()
}
