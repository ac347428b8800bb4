//! A shell command the person typed at the prompt (the REPL's `!command`): run as an `execute_command` call of
//! theirs, through the same gates (command guard, approval, hooks), sandbox, timeout and cancellation as the
//! model's calls, and shown with the same events. Nothing is sent to the model and nothing enters the history:
//! the host decides what of it the next message carries.

use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::sinks::{self, EventToolObserver};
use super::{Agent, AgentEvent, EventSink, PROGRESS_LINES};
use crate::protocol::message::ToolCall;
use crate::tools::executor::ToolCallResult;
use crate::tools::{Progress, ToolContext};

/// The tool the person's command runs as.
pub const PERSON_COMMAND_TOOL: &str = "execute_command";

impl Agent {
    /// Runs `command` as the person's `execute_command` call with id `id`; its start, output lines and end go to
    /// `events` as a call's do. Returns exactly one result (cancelled through `cancel`, it is aborted).
    pub async fn run_person_command(
        &self,
        id: &str,
        command: &str,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> ToolCallResult {
        let call = ToolCall {
            id: id.to_string(),
            name: PERSON_COMMAND_TOOL.to_string(),
            arguments: json!({ "command": command }).to_string(),
        };
        // The same policies as a turn the person typed the command in: the guard, the approval (its classifier
        // sees the command as the request), hooks.
        let hooks: Vec<_> = self
            .turn_hooks
            .iter()
            .filter(|h| h.covers_person_commands())
            .collect();
        let scopes: Vec<_> = hooks.iter().map(|h| h.begin_turn(command)).collect();
        for notice in scopes.iter().flat_map(|s| s.notices.iter()) {
            events.emit(AgentEvent::Notice {
                notice: notice.clone(),
            });
        }
        let mut ctx = ToolContext {
            cancel,
            ..self.tool_ctx.clone()
        };
        ctx.gates
            .extend(scopes.iter().flat_map(|s| s.gates.iter().cloned()));
        // Not in the ledger: the call is the person's, and the history has no reply it belongs to.
        let observer = EventToolObserver {
            events,
            ledger: None,
            tools: &self.registry,
            root: &self.tool_ctx.root,
        };
        let calls = std::slice::from_ref(&call);
        let mut results = if events.wants_tool_output() {
            let (progress, lines) = Progress::channel(PROGRESS_LINES);
            let ctx = ToolContext { progress, ..ctx };
            let batch = self.executor.run_batch(calls, &ctx, &observer);
            sinks::forward_tool_output(batch, lines, events).await
        } else {
            self.executor.run_batch(calls, &ctx, &observer).await
        };
        for hook in hooks {
            hook.end_turn();
        }
        // `run_batch` returns one result per call, so there is exactly one.
        results.swap_remove(0)
    }
}
