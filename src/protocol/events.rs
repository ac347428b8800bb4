//! What the agent reports while it works. Front-ends render these; the agent never prints.

use serde::Serialize;

use super::message::Usage;
use super::notice::Notice;
use super::outcome::ToolOutcome;
use super::plan::{Plan, PlanTaskOutcome, TaskState};
use super::traits::ToolKind;

/// How a tool call ended, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Denied,
    Failed,
    Cancelled,
}

impl ToolStatus {
    /// The status of an outcome.
    pub fn of(outcome: &ToolOutcome) -> Self {
        match outcome {
            ToolOutcome::Ok(_) => ToolStatus::Ok,
            ToolOutcome::Denied { .. } => ToolStatus::Denied,
            ToolOutcome::Failed { .. } => ToolStatus::Failed,
            ToolOutcome::Cancelled { .. } => ToolStatus::Cancelled,
        }
    }
}

/// How a hook ended (see [`AgentEvent::HookFinished`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HookOutcome {
    Success,
    Blocked,
    Error,
}

/// One event of a running turn. Serialized one per line by `--output-format stream-json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A model request is about to be sent (`iteration` counts from 1 within the turn).
    RequestStarted { iteration: u32 },
    /// Live reasoning text.
    ReasoningDelta { text: String },
    /// Live answer text.
    TextDelta { text: String },
    /// A tool call is about to run.
    ToolCallStarted {
        id: String,
        name: String,
        arguments: String,
        /// What kind of action it is, as its tool declares.
        kind: ToolKind,
        /// The argument that sums it up (its path, command, pattern or URL), as its tool picks it.
        summary: String,
    },
    /// A tool call ended.
    ToolCallFinished {
        id: String,
        name: String,
        status: ToolStatus,
        /// The outcome's short text: the reason for denials and failures, empty for success.
        #[serde(skip_serializing_if = "String::is_empty")]
        detail: String,
        duration_ms: u64,
        /// Characters of output the tool produced (before spill and wrapping).
        output_chars: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        diff: Option<String>,
    },
    /// Token usage of one model response, and the running total for the session; `model` is the model that
    /// answered (a sub-agent's may differ from the lead's), empty when not known; `provider` the provider id
    /// that served it when that is not the session's (a sub-agent on a provider of its own), else empty.
    Usage {
        response: Usage,
        session: Usage,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        model: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        provider: String,
    },
    /// The history was compacted to fit the context window.
    Compacted {
        stage: CompactionStage,
        /// Tokens of the next request before and after (estimated or provider-counted).
        tokens_before: u64,
        tokens_after: u64,
        /// Tool results cleared, or messages replaced by the summary.
        messages: usize,
    },
    /// Something the user should know that is not part of the answer.
    Notice {
        #[serde(flatten)]
        notice: Notice,
    },
    /// The turn ended with the model's final answer.
    TurnFinished { text: String },
    /// A budget stopped the turn; `text` is the partial-result report.
    TurnPartial { reason: String, text: String },
    /// The user cancelled the turn.
    TurnCancelled,
    /// The turn failed (model or transport error).
    TurnFailed { error: String },
    /// One of the person's hooks started (`--include-hook-events` in `stream-json`; the working line shows it).
    HookStarted {
        /// The hook event (`PreToolUse`, `Stop`, …).
        hook_event: String,
        command: String,
    },
    /// A hook ended: `outcome` is `success`, `blocked` (exit 2 or a JSON block/deny) or `error` (a non-blocking
    /// failure); `reason` says why it blocked or failed.
    #[serde(rename = "hook_response")]
    HookFinished {
        hook_event: String,
        command: String,
        outcome: HookOutcome,
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
        duration_ms: u64,
    },
    // output: live progress and what a terminal can expand (sent only to sinks that ask for them).
    /// A line a running tool printed (a command's output), as it arrived.
    ToolOutput { id: String, line: String },
    /// A finished call's full text (bounded), before its `ToolCallFinished`: what Ctrl+O expands.
    ToolCallOutput { id: String, text: String },
    /// A piece of a tool call's arguments as the model streams them (OpenAI's JSON text, cut anywhere), before
    /// the reply is complete; `index` tells the reply's calls apart. Only to sinks that ask
    /// ([`EventSink::wants_call_deltas`]).
    ToolCallDelta {
        index: u64,
        id: String,
        name: String,
        arguments: String,
    },
    /// New problems in files the turn changed were shown to the model before its next request.
    DiagnosticsInjected {
        files: Vec<DiagnosticsFile>,
        /// The message the model received.
        text: String,
    },
    // plan: plan-and-execute and team mode (sub-agents' events arrive wrapped with their task id).
    /// A plan was made (`revision` 0) or re-made, before review and execution.
    PlanProposed { plan: Plan, revision: u32 },
    /// A plan task's sub-agent started.
    PlanTaskStarted { task_id: String, title: String },
    /// One event of a plan task's sub-agent.
    PlanTaskEvent {
        task_id: String,
        event: Box<AgentEvent>,
    },
    /// A plan task ended (done, failed or skipped); `summary` is its answer or the reason.
    PlanTaskFinished {
        task_id: String,
        state: TaskState,
        summary: String,
    },
    /// The plan ended: every task's final state, in plan order.
    PlanFinished { outcomes: Vec<PlanTaskOutcome> },
    /// The model's task list changed (`update_plan`): the whole list.
    TaskList { list: super::task_list::TaskList },
    // delegation: sub-agents the model started with the `agent` tool.
    /// One event of the sub-agent `agent` that the `agent` call `parent_call_id` started (Claude Code's
    /// `parent_tool_use_id`).
    SubAgent {
        parent_call_id: String,
        agent: String,
        event: Box<AgentEvent>,
    },
}

/// One file's count of new problems, for the user's short diagnostics line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiagnosticsFile {
    /// Relative to the project root.
    pub path: String,
    pub problems: usize,
}

/// Receives events. Must not block for long: the agent waits for it.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: AgentEvent);

    /// Whether this sink shows live tool output and expandable results (`ToolOutput`, `ToolCallOutput`); the
    /// agent does the work of sending them only then.
    fn wants_tool_output(&self) -> bool {
        false
    }

    /// Whether this sink shows tool calls while the model is still writing their arguments (`ToolCallDelta`).
    fn wants_call_deltas(&self) -> bool {
        false
    }
}

/// Collects events in memory (tests, JSON output).
#[derive(Default)]
pub struct EventLog {
    events: std::sync::Mutex<Vec<AgentEvent>>,
}

impl EventLog {
    /// A copy of every event so far.
    pub fn events(&self) -> Vec<AgentEvent> {
        match self.events.lock() {
            Ok(e) => e.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

impl EventSink for EventLog {
    fn emit(&self, event: AgentEvent) {
        match self.events.lock() {
            Ok(mut e) => e.push(event),
            Err(poisoned) => poisoned.into_inner().push(event),
        }
    }
}

/// What a compaction step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionStage {
    /// Old tool results were replaced by placeholders.
    ClearedToolResults,
    /// Old turns were replaced by a structured summary.
    Summarized,
}

impl std::fmt::Display for CompactionStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CompactionStage::ClearedToolResults => "cleared old tool results",
            CompactionStage::Summarized => "summarized earlier conversation",
        })
    }
}
