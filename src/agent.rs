//! The ReAct loop: one user turn = model calls and tool batches until the model answers without tools.

pub mod budget;
pub mod compaction;
mod cut_off;
mod diagnostics;
mod dsml_calls;
mod finalize;
mod fork;
pub mod images;
pub mod memory_guard;
pub mod prompt;
mod recall;
pub mod resource_index;
mod rounds;
pub mod runaway;
mod session_ops;
pub mod turn_actions;
mod turn_outcome;
mod turn_scopes;
mod turn_sinks;
mod usage;

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::llm::tokens::ContextEstimate;
use crate::llm::{ChatResponse, LlmClient, LlmError, Message, ToolSpec, Usage};
use crate::lsp::DiagnosticsSource;
use crate::memory::MemoryStore;
use crate::session::Conversation;
use crate::session::tool_calls::make_ids_unique;
use crate::tools::{Executor, Progress, ToolContext, ToolRegistry, executor};

pub use crate::protocol::events::CompactionStage;
pub use crate::protocol::{AgentEvent, DiagnosticsFile, EventLog, EventSink, ToolStatus};
pub use crate::protocol::{Notice, ToolFilter, TurnHook, TurnScope};
pub use budget::{AgentBudget, DEFAULT_STAGNATION_WINDOW, ExitReason};
use compaction::Trigger;
pub use compaction::{CompactionError, Thresholds};
pub use cut_off::empty_answer_notice;
pub use memory_guard::{MEMORY_EXTERNAL_CONTEXT, MemoryGuardHook};
use runaway::GuardCall;
pub use runaway::RunawayGuard;
pub use turn_actions::{Denial, TurnActions};
pub use turn_outcome::{TurnOutcome, TurnReport};
use turn_sinks::{EventDeltaSink, EventToolObserver};

/// Output lines of running tools waiting to be shown; more are dropped until the sink catches up.
const PROGRESS_LINES: usize = 256;

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
    thresholds: Thresholds,
    /// When automatic summaries may be asked for again after failures.
    summary_backoff: compaction::SummaryBackoff,
    memory: Option<Arc<MemoryStore>>,
    /// Whether the model takes images (see `images.rs`).
    vision: bool,
    /// The largest image the provider takes; images are fitted to it as they join the history.
    image_limits: crate::llm::image_part::ImageLimits,
    /// The user's images for the next turn.
    pending_images: Vec<crate::llm::ContentPart>,
    /// The MCP resource index in the system prompt, when MCP servers are attached.
    resource_index: Option<resource_index::ResourceIndex>,
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
            options,
            pending_diagnostics: Vec::new(),
            diagnostics: None,
            unchecked_files: Vec::new(),
            turn_hooks: Vec::new(),
            fork_gates: Vec::new(),
            fork_usage: None,
            summary_backoff: compaction::SummaryBackoff::default(),
            memory: None,
            vision: true,
            image_limits: crate::config::vision::DEFAULT_IMAGE_LIMITS,
            pending_images: Vec::new(),
            resource_index: None,
        }
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

    /// Runs one user turn to its end. Events go to `events`; `cancel` stops it at the next await point.
    pub async fn run_turn(
        &mut self,
        input: &str,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        self.run_expanded_turn(input, input, events, cancel).await
    }

    /// [`Agent::run_turn`] for input whose `@file` / `@server:uri` mentions were expanded: turn policies and
    /// memory recall judge `submitted` (what the user typed), the model receives `input`.
    pub async fn run_expanded_turn(
        &mut self,
        submitted: &str,
        input: &str,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        let scopes: Vec<TurnScope> = self
            .turn_hooks
            .iter()
            .map(|h| h.begin_turn(submitted))
            .collect();
        for notice in scopes.iter().flat_map(|s| s.notices.iter()) {
            events.emit(AgentEvent::Notice {
                notice: notice.clone(),
            });
        }
        // Only this turn's edits are checked.
        self.unchecked_files.clear();
        let recall = self.recall_memory(submitted, events);
        self.conversation.begin_turn(recall, input);
        if !self.pending_images.is_empty() {
            let images = std::mem::take(&mut self.pending_images);
            let images = self.fit_images(images);
            self.conversation.push_user_parts(images);
        }
        let mut budget = AgentBudget::with_stagnation_window(
            self.options.max_iterations,
            self.options.token_budget,
            self.options.stagnation_window,
        );
        let mut runaway = RunawayGuard::new();
        let mut turn_usage = Usage::default();
        let mut cut_offs = 0;
        let mut actions = TurnActions::default();
        let mut ctx = ToolContext {
            cancel: cancel.clone(),
            ..self.tool_ctx.clone()
        };
        ctx.gates
            .extend(scopes.iter().flat_map(|s| s.gates.iter().cloned()));
        let outcome = loop {
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
            self.inject_pending_diagnostics(events, &cancel).await;
            // MCP servers join late and may change their tools; the sorted list is rebuilt only then.
            if let Some(specs) = self.registry.specs_if_changed(&mut self.specs_generation) {
                self.conversation.note_tools(&specs);
                self.tool_specs = specs;
            }
            if let Some(index) = &mut self.resource_index {
                index.refresh(&mut self.conversation, self.options.context_window);
            }
            let tools = turn_scopes::filter_tools(&scopes, &self.tool_specs);
            // Spill already happened in the executor; now clear, then summarize, if the next request needs it.
            self.compact_if_needed(Trigger::Threshold, &tools, events, &cancel)
                .await;
            self.absorb_compaction_usage(&mut budget, &mut turn_usage);
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
            if let Some(reason) = budget.check() {
                break self
                    .finalize(reason, events, &cancel, &mut budget, &mut turn_usage)
                    .await;
            }
            let iteration = budget.begin_iteration();
            events.emit(AgentEvent::RequestStarted { iteration });
            let response = match self.chat_or_compact(&tools, events, &cancel).await {
                Ok(r) => r,
                Err(outcome) => break outcome,
            };
            self.record_usage(&response, events, &mut budget, &mut turn_usage);
            if cancel.is_cancelled() {
                self.append_interrupted_answer(&response.content);
                break TurnOutcome::Cancelled;
            }
            if response.tool_calls.is_empty() {
                break self.end_with_answer(response, events);
            }
            let cut_off = cut_off::is_cut_off(&response);
            let mut tool_calls = response.tool_calls;
            // Each call must get exactly one result, so ids repeated in one reply are told apart first.
            make_ids_unique(&mut tool_calls);
            let reasoning = Some(response.reasoning).filter(|r| !r.is_empty());
            // The last call of a reply stopped at the output limit may be shortened: nothing of it runs.
            if cut_off {
                cut_offs += 1;
                match self.answer_cut_off_calls(
                    response.content,
                    reasoning,
                    tool_calls,
                    cut_offs,
                    events,
                ) {
                    Some(outcome) => break outcome,
                    None => continue,
                }
            }
            budget.record_tool_calls(&tool_calls);
            // The calls reach the ledger before the tools run and each result when it is known, so a crash
            // mid-batch loses nothing that finished.
            self.conversation
                .announce_round(&response.content, reasoning.clone(), &tool_calls);
            let observer = EventToolObserver {
                events,
                ledger: self.conversation.ledger().cloned(),
                tools: &self.registry,
                root: &ctx.root,
            };
            let results = if events.wants_tool_output() {
                let (progress, lines) = Progress::channel(PROGRESS_LINES);
                let ctx = ToolContext {
                    progress,
                    ..ctx.clone()
                };
                let batch = self.executor.run_batch(&tool_calls, &ctx, &observer);
                turn_sinks::forward_tool_output(batch, lines, events).await
            } else {
                self.executor.run_batch(&tool_calls, &ctx, &observer).await
            };
            actions.record(&results);
            for path in executor::changed_files(&results) {
                if !self.unchecked_files.contains(&path) {
                    self.unchecked_files.push(path);
                }
            }
            let guard_calls: Vec<GuardCall<'_>> = tool_calls
                .iter()
                .zip(&results)
                .map(|(call, result)| GuardCall {
                    name: &call.name,
                    arguments: &call.arguments,
                    outcome: &result.outcome,
                })
                .collect();
            let reminder = runaway.record_step(&guard_calls);
            self.append_tool_round(response.content, reasoning, tool_calls, results);
            if let Some(reminder) = reminder {
                events.emit(AgentEvent::Notice {
                    notice: Notice::RunawayReminder,
                });
                self.conversation.push_user(reminder);
            }
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
        };
        if let Some(error) = self.conversation.ledger().and_then(|l| l.take_error()) {
            events.emit(AgentEvent::Notice {
                notice: Notice::LedgerNotWritten { error },
            });
        }
        for hook in &self.turn_hooks {
            hook.end_turn();
        }
        events.emit(outcome.end_event());
        TurnReport {
            outcome,
            requests: budget.iterations(),
            usage: turn_usage,
            actions,
        }
    }

    /// A model call that fits the window; when the provider still says the request is too long, compacts (or
    /// trims) and retries it once.
    async fn chat_or_compact(
        &mut self,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, TurnOutcome> {
        self.fit_to_window(tools, events);
        match self.chat(tools, events, cancel).await {
            Err(TurnOutcome::Failed(LlmError::ContextLengthExceeded { message })) => {
                events.emit(AgentEvent::Notice {
                    notice: Notice::ContextOverflow,
                });
                self.conversation
                    .record_overflow(tools, self.thresholds.window);
                let compacted = self
                    .compact_if_needed(Trigger::Overflow, tools, events, cancel)
                    .await;
                if self.fit_to_window(tools, events) || compacted {
                    self.chat(tools, events, cancel).await
                } else {
                    Err(TurnOutcome::Failed(LlmError::ContextLengthExceeded {
                        message,
                    }))
                }
            }
            other => other,
        }
    }

    /// One streamed model call; an error becomes the turn's outcome.
    async fn chat(
        &mut self,
        tools: &[ToolSpec],
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, TurnOutcome> {
        let sink = EventDeltaSink::new(events);
        let history = images::for_request(
            self.conversation.messages(),
            self.conversation.turn_starts(),
            self.vision,
        );
        match self.client.chat(&history, tools, &sink, cancel).await {
            Ok(response) => {
                self.conversation.record_response(response.usage, tools);
                Ok(dsml_calls::resolve_dsml(
                    response,
                    tools,
                    &sink.take_held(),
                    events,
                ))
            }
            Err(LlmError::Cancelled) => {
                self.append_interrupted_answer(&sink.streamed_text());
                Err(TurnOutcome::Cancelled)
            }
            Err(e) => Err(TurnOutcome::Failed(e)),
        }
    }
}

/// The window thresholds derive from: 0 would make every request "over the threshold", so it means unknown.
fn usable_window(window: u64) -> u64 {
    match window {
        0 => DEFAULT_CONTEXT_WINDOW,
        w => w,
    }
}
