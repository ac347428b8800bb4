//! The session events of hooks, fired by the host for every front-end: `SessionStart` (its context goes with
//! the first input after a start or resume), `UserPromptSubmit` (context added, or the prompt blocked),
//! `Stop` (a block keeps the agent working, at most `MAX_STOP_CONTINUATIONS` times a turn) and `SessionEnd`.

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::Session;
use crate::agent::{Agent, TurnOutcome, TurnReport};
use crate::hooks::{HookEvent, SessionFacts, permission_mode_name};
use crate::protocol::{AgentEvent, EventSink, Notice};

/// The most times `Stop` hooks may keep one turn going.
pub const MAX_STOP_CONTINUATIONS: u32 = 5;

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn notify(sink: &dyn EventSink, notice: Notice) {
    sink.emit(AgentEvent::Notice { notice });
}

/// Runs `work`, emitting the hook activity that arrives on `rx` meanwhile (so a running hook shows while it
/// runs); returns what `work` returned.
pub(super) async fn relaying<T>(
    work: impl std::future::Future<Output = T>,
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<AgentEvent>,
    sink: &dyn EventSink,
) -> T {
    tokio::pin!(work);
    loop {
        tokio::select! {
            biased;
            done = &mut work => return done,
            Some(event) = rx.recv() => sink.emit(event),
        }
    }
}

/// The hooks' context as the model reads it below the person's text.
pub(super) fn with_context(text: String, context: &[String]) -> String {
    if context.is_empty() {
        return text;
    }
    format!(
        "{text}\n\n<hook-context>\n{}\n</hook-context>",
        context.join("\n\n")
    )
}

impl Session {
    /// Tells the hooks which session they are in (after a start, resume or fork).
    pub(super) fn update_hook_facts(&self, agent: &Agent) {
        self.services.hooks.set_facts(SessionFacts {
            session_id: self.id.clone(),
            transcript_path: agent.ledger().map(|l| l.path()).unwrap_or_default(),
            permission_mode: permission_mode_name(self.approval_mode().name()).to_string(),
        });
    }

    /// Messages hooks left for the person (from inside the last turn's calls).
    pub(super) fn tell_hook_messages(&self, sink: &dyn EventSink, mut messages: Vec<String>) {
        messages.extend(self.services.hooks.take_messages());
        for text in messages {
            notify(sink, Notice::HookMessage { text });
        }
    }

    /// Names each project hook that waits for the person's trust, as project MCP servers are named. The command
    /// is the project's text: shown with its control characters made visible.
    fn tell_untrusted_hooks(&self, sink: &dyn EventSink) {
        for hook in self.services.hooks.untrusted() {
            notify(
                sink,
                Notice::HookNeedsTrust {
                    event: hook.event.name().to_string(),
                    source: crate::text::visible(&hook.source.path.display().to_string())
                        .into_owned(),
                    command: crate::text::visible(&hook.command).into_owned(),
                },
            );
        }
    }

    /// Fires `SessionStart` once after a start or resume; its context for the model.
    pub(super) async fn session_start_context(&self, sink: &dyn EventSink) -> Vec<String> {
        let source = self
            .pending_start
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        let Some(source) = source else {
            return Vec::new();
        };
        let hooks = &self.services.hooks;
        if source == "startup" {
            self.tell_untrusted_hooks(sink);
        }
        if !hooks.has(HookEvent::SessionStart) {
            return Vec::new();
        }
        let fired = hooks
            .fire(
                HookEvent::SessionStart,
                Some(source),
                fields(json!({"source": source, "model": self.model})),
                None,
            )
            .await;
        self.tell_hook_messages(sink, fired.decision.messages);
        fired.decision.context
    }

    /// Fires `UserPromptSubmit`: the context to add, or the reason the prompt is blocked.
    pub(super) async fn prompt_hooks(
        &self,
        prompt: &str,
        sink: &dyn EventSink,
    ) -> Result<Vec<String>, String> {
        let hooks = &self.services.hooks;
        if !hooks.has(HookEvent::UserPromptSubmit) {
            return Ok(Vec::new());
        }
        let fired = hooks
            .fire(
                HookEvent::UserPromptSubmit,
                None,
                fields(json!({"prompt": prompt})),
                None,
            )
            .await;
        self.tell_hook_messages(sink, fired.decision.messages);
        match fired.decision.block.or(fired.decision.stop) {
            Some(reason) => Err(reason),
            None => Ok(fired.decision.context),
        }
    }

    /// Runs a turn, then lets `Stop` hooks keep it going with their reason as the next message.
    pub(super) async fn run_turn_with_stop_hooks(
        &self,
        agent: &mut Agent,
        typed: &str,
        text: &str,
        sink: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        let mut report = agent
            .run_expanded_turn(typed, text, sink, cancel.clone())
            .await;
        let hooks = &self.services.hooks;
        let mut continued = 0;
        while hooks.has(HookEvent::Stop) && matches!(report.outcome, TurnOutcome::Finished { .. }) {
            let fired = hooks
                .fire(
                    HookEvent::Stop,
                    None,
                    fields(json!({"stop_hook_active": continued > 0})),
                    None,
                )
                .await;
            self.tell_hook_messages(sink, fired.decision.messages);
            let Some(reason) = fired
                .decision
                .block
                .filter(|_| fired.decision.stop.is_none())
            else {
                break;
            };
            if continued == MAX_STOP_CONTINUATIONS {
                notify(
                    sink,
                    Notice::HookStopLimit {
                        times: MAX_STOP_CONTINUATIONS,
                        reason,
                    },
                );
                break;
            }
            continued += 1;
            notify(
                sink,
                Notice::HookStopContinues {
                    reason: reason.clone(),
                },
            );
            report = agent
                .run_expanded_turn(&reason, &reason, sink, cancel.clone())
                .await;
        }
        self.tell_hook_messages(sink, Vec::new());
        report
    }

    /// Fires `SessionEnd` with `reason` (`prompt_input_exit`, `clear`, `logout`, `other`).
    pub(super) async fn end_hooks(&self, reason: &str) {
        let hooks = &self.services.hooks;
        if hooks.has(HookEvent::SessionEnd) {
            hooks
                .fire(
                    HookEvent::SessionEnd,
                    Some(reason),
                    fields(json!({"reason": reason})),
                    None,
                )
                .await;
        }
    }
}
