//! The agent: one conversation with the model and its tools. [`turn`] is the ReAct loop (one user turn = model
//! calls and tool batches until the model answers without tools) and what each of its steps does; [`context`] is
//! what the model sees besides the turn's own replies: the system prompt, compaction, recalled memory,
//! diagnostics, images and the MCP resource index. Sub-agents (`fork.rs`) and session operations
//! (`session_ops.rs`: clear, switch model, rewind, resume) act on the agent between turns.

pub mod context;
pub mod delegation;
mod fork;
pub mod model_usage;
mod session_ops;
pub mod turn;

use std::path::PathBuf;
use std::sync::Arc;

use crate::llm::tokens::ContextEstimate;
use crate::llm::{LlmClient, Message, ToolSpec, Usage};
use crate::lsp::DiagnosticsSource;
use crate::memory::MemoryStore;
use crate::session::Conversation;
use crate::tools::{Executor, ToolContext, ToolRegistry};

pub use crate::protocol::events::CompactionStage;
pub use crate::protocol::{AgentEvent, DiagnosticsFile, EventLog, EventSink, ToolStatus};
pub use crate::protocol::{Notice, ToolFilter, TurnHook, TurnScope};
use context::compaction;
pub use context::compaction::{CompactionError, Thresholds};
pub use context::memory_guard::{MEMORY_EXTERNAL_CONTEXT, MemoryGuardHook};
use context::resource_index;
pub use turn::budget::{AgentBudget, DEFAULT_STAGNATION_WINDOW, ExitReason};
pub use turn::runaway::RunawayGuard;
pub use turn::{Denial, TurnActions, TurnOutcome, TurnReport, empty_answer_notice};

/// Context window assumed when none is configured.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

/// Limits of one turn.
#[derive(Clone, Debug)]
pub struct AgentOptions {
    /// Model calls per turn before the partial-result report; `None` = unlimited.
    pub max_iterations: Option<u32>,
    /// Cumulative input+output tokens per turn; `None` = unlimited.
    pub token_budget: Option<u64>,
    /// Identical tool-call replies in a row that stop the turn (≥ 4; invalid values mean the default 5).
    pub stagnation_window: usize,
    /// The model's context window in tokens; compaction thresholds derive from it.
    pub context_window: u64,
}

impl Default for AgentOptions {
    fn default() -> Self {
        AgentOptions {
            max_iterations: None,
            token_budget: None,
            stagnation_window: DEFAULT_STAGNATION_WINDOW,
            context_window: DEFAULT_CONTEXT_WINDOW,
        }
    }
}

/// A conversation with the model and its tools.
pub struct Agent {
    client: Arc<dyn LlmClient>,
    executor: Executor,
    /// Sorted and byte-stable so the request prefix stays cache-friendly; changes only with the registry.
    tool_specs: Arc<[ToolSpec]>,
    /// Refreshed into `tool_specs` when its generation moves (MCP tools arrive and change at runtime).
    registry: Arc<ToolRegistry>,
    specs_generation: u64,
    tool_ctx: ToolContext,
    /// The history with its turns and token meter; keeps every tool call paired with one result.
    conversation: Conversation,
    options: AgentOptions,
    pending_diagnostics: Vec<String>,
    /// Checks files this turn wrote or edited before the next request (language servers, syntax check).
    diagnostics: Option<Arc<dyn DiagnosticsSource>>,
    /// Files changed since the last check, relative to the project root.
    unchecked_files: Vec<PathBuf>,
    turn_hooks: Vec<Arc<dyn TurnHook>>,
    /// While a plan runs as one turn of this agent: the gates of the hooks that stay with it, for every fork.
    fork_gates: Vec<Arc<dyn crate::protocol::CallGate>>,
    /// What the forks of a running forked turn spent; a fork adds every response's usage to its lead's tally.
    fork_usage: Option<Arc<std::sync::Mutex<Usage>>>,
    /// What each model spent in this process, shared by the lead and every fork (`/cost`'s lines per model).
    usage_by_model: model_usage::UsageByModel,
    /// The provider of this agent's model when it is not the session's (a sub-agent's or a plan role's own).
    own_provider: Option<String>,
    thresholds: Thresholds,
    /// The server's context window, still being asked for at start ([`Agent::learn_window`]).
    pending_window: Option<tokio::sync::oneshot::Receiver<u64>>,
    /// When automatic summaries may be asked for again after failures.
    summary_backoff: compaction::SummaryBackoff,
    memory: Option<Arc<MemoryStore>>,
    /// Whether the model takes images (see `context/images.rs`).
    vision: bool,
    /// The largest image the provider takes; images are fitted to it as they join the history.
    image_limits: crate::llm::image_part::ImageLimits,
    /// The user's images for the next turn.
    pending_images: Vec<crate::llm::ContentPart>,
    /// The MCP resource index in the system prompt, when MCP servers are attached.
    resource_index: Option<resource_index::ResourceIndex>,
    /// The person's hooks on compaction and sub-agents (shared with forks).
    lifecycle: Option<Arc<dyn crate::protocol::Lifecycle>>,
    /// The agents the model may run with the `agent` tool (shared with forks).
    delegation: Option<delegation::DelegationSetup>,
    /// How many forks below the lead this agent is (the lead is 0).
    depth: u8,
    /// The model's latest task list (`update_plan`); it outlives compaction.
    task_list: Option<crate::protocol::TaskList>,
}

impl Agent {
    /// A new conversation starting with `system_prompt`. `tool_ctx.cancel` is replaced per turn.
    pub fn new(
        client: Arc<dyn LlmClient>,
        registry: Arc<ToolRegistry>,
        executor: Executor,
        tool_ctx: ToolContext,
        system_prompt: String,
        options: AgentOptions,
    ) -> Self {
        Agent {
            client,
            specs_generation: registry.generation(),
            tool_specs: registry.specs().into(),
            registry,
            executor,
            tool_ctx,
            conversation: Conversation::new(system_prompt),
            thresholds: Thresholds::for_window(usable_window(options.context_window)),
            pending_window: None,
            options,
            pending_diagnostics: Vec::new(),
            diagnostics: None,
            unchecked_files: Vec::new(),
            turn_hooks: Vec::new(),
            fork_gates: Vec::new(),
            fork_usage: None,
            usage_by_model: model_usage::UsageByModel::default(),
            own_provider: None,
            summary_backoff: compaction::SummaryBackoff::default(),
            memory: None,
            vision: true,
            image_limits: crate::config::vision::DEFAULT_IMAGE_LIMITS,
            pending_images: Vec::new(),
            resource_index: None,
            lifecycle: None,
            delegation: None,
            depth: 0,
            task_list: None,
        }
    }

    /// Tells `lifecycle` before and after the history is summarized and when a fork's turn ends.
    pub fn set_lifecycle(&mut self, lifecycle: Arc<dyn crate::protocol::Lifecycle>) {
        self.lifecycle = Some(lifecycle);
    }

    /// Recalls relevant long-term facts from `store` at the start of every turn.
    pub fn set_memory(&mut self, store: Arc<MemoryStore>) {
        self.memory = Some(store);
    }

    /// The long-term memory store, if one is attached.
    pub fn memory(&self) -> Option<&Arc<MemoryStore>> {
        self.memory.as_ref()
    }

    /// The compaction thresholds for this model's context window.
    pub fn thresholds(&self) -> Thresholds {
        self.thresholds
    }

    /// What the next request would cost in tokens (provider count plus estimates), all tools offered.
    pub fn context_tokens(&self) -> u64 {
        self.conversation.measure(&self.tool_specs)
    }

    /// The estimate of the next request by part, all tools offered (the status line and `/context`).
    pub fn context_estimate(&self) -> ContextEstimate {
        self.conversation.estimate(&self.tool_specs)
    }

    /// The model's context window the thresholds derive from.
    pub fn context_window(&self) -> u64 {
        self.thresholds.window
    }

    /// Adds a per-turn policy; hooks are consulted in the order they were added.
    pub fn add_turn_hook(&mut self, hook: Arc<dyn TurnHook>) {
        self.turn_hooks.push(hook);
    }

    /// Reads and writes of the file tools go through `files` (an editor's buffers) instead of the disk.
    pub fn set_file_access(&mut self, files: Arc<dyn crate::protocol::FileAccess>) {
        self.tool_ctx.files = Some(files);
    }

    /// The conversation so far, system prompt first.
    pub fn history(&self) -> &[Message] {
        self.conversation.messages()
    }

    /// The conversation: history, turn starts and token meter.
    pub fn conversation(&self) -> &Conversation {
        &self.conversation
    }

    /// Tokens used by the whole session.
    pub fn session_usage(&self) -> Usage {
        self.conversation.session_usage()
    }

    /// The tool definitions sent with every request.
    pub fn tool_specs(&self) -> &[ToolSpec] {
        &self.tool_specs
    }

    /// The project root the tools work in.
    pub fn project_root(&self) -> &std::path::Path {
        &self.tool_ctx.root
    }

    /// The model's latest task list (`update_plan`), if it keeps one.
    pub fn task_list(&self) -> Option<&crate::protocol::TaskList> {
        self.task_list.as_ref()
    }

    /// The model requests are sent to.
    pub fn model(&self) -> &str {
        self.client.model()
    }

    /// Queues diagnostics text to show the model before its next request (e.g. from a language server).
    pub fn queue_diagnostics(&mut self, text: String) {
        self.pending_diagnostics.push(text);
    }

    /// Lists `manager`'s MCP resources in the system prompt (context windows of 32k and more), rebuilt only when
    /// a listing changes.
    pub fn set_resource_index(&mut self, manager: crate::mcp::McpManager) {
        self.resource_index = Some(resource_index::ResourceIndex::new(manager));
    }

    /// Checks the files each turn writes or edits before the model's next request; new problems are shown to
    /// the model as one user message.
    pub fn set_diagnostics(&mut self, source: Arc<dyn DiagnosticsSource>) {
        self.diagnostics = Some(source);
    }
}

/// The window thresholds derive from: 0 would make every request "over the threshold", so it means unknown.
fn usable_window(window: u64) -> u64 {
    match window {
        0 => DEFAULT_CONTEXT_WINDOW,
        w => w,
    }
}
