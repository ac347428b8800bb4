//! `PreToolUse` and `PostToolUse`/`PostToolUseFailure` in the one gate chain: a hook's deny (or exit 2) is a
//! gate's denial the model reads, its `updatedInput` rewrites the call (validated again), its `ask` and a user
//! hook's `allow` are left for the approval gate that runs after this one; after the call, a hook's context or
//! block reason is added to the result the model sees.

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{HookEvent, Hooks, Permission, ToolSubject};
use crate::protocol::{
    CallGate, GateCall, GateVerdict, HOOK_DENIED, HookPermission, ToolOutcome, TurnHook, TurnScope,
};

/// The tool events of every turn; add it before the approval hook.
pub struct ToolHooks {
    hooks: Hooks,
}

impl ToolHooks {
    pub fn new(hooks: Hooks) -> ToolHooks {
        ToolHooks { hooks }
    }
}

impl TurnHook for ToolHooks {
    fn begin_turn(&self, _submitted: &str) -> TurnScope {
        let tool_events = [
            HookEvent::PreToolUse,
            HookEvent::PostToolUse,
            HookEvent::PostToolUseFailure,
        ];
        if !tool_events.into_iter().any(|e| self.hooks.has(e)) {
            return TurnScope::default();
        }
        TurnScope {
            gates: vec![std::sync::Arc::new(ToolHookGate {
                hooks: self.hooks.clone(),
            })],
            ..TurnScope::default()
        }
    }
}

struct ToolHookGate {
    hooks: Hooks,
}

fn subject<'a>(call: &GateCall<'a>) -> ToolSubject<'a> {
    ToolSubject {
        id: call.id,
        name: call.name,
        args: call.args,
    }
}

#[async_trait]
impl CallGate for ToolHookGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if !self.hooks.has(HookEvent::PreToolUse) {
            return GateVerdict::Allow;
        }
        let fired = self
            .hooks
            .fire(
                HookEvent::PreToolUse,
                Some(call.name),
                Map::new(),
                Some(subject(&call)),
            )
            .await;
        let decision = fired.decision;
        self.hooks.keep_messages(&decision.messages);
        let from = fired.sources.join(", ");
        if let Some(reason) = decision.block {
            return GateVerdict::deny(
                HOOK_DENIED,
                format!("a PreToolUse hook ({from}) blocked this call: {reason}"),
            );
        }
        match decision.permission {
            Some((Permission::Deny, reason)) => {
                return GateVerdict::deny(
                    HOOK_DENIED,
                    format!("a PreToolUse hook ({from}) denied this call: {reason}"),
                );
            }
            Some((Permission::Ask, reason)) => {
                self.hooks
                    .note_permission(call.id, HookPermission::Ask, reason);
            }
            Some((Permission::Allow, reason)) => {
                self.hooks
                    .note_permission(call.id, HookPermission::Allow, reason);
            }
            None => {}
        }
        match decision.updated_input {
            Some(updated) => {
                let mut args = call.args.clone();
                args.extend(updated);
                GateVerdict::AllowWith(args)
            }
            None => GateVerdict::Allow,
        }
    }

    async fn annotate(&self, call: GateCall<'_>, outcome: &ToolOutcome) -> Option<String> {
        let (event, fields) = match outcome {
            ToolOutcome::Ok(_) => (
                HookEvent::PostToolUse,
                json!({"tool_response": {"success": true, "output": outcome.model_text()}}),
            ),
            ToolOutcome::Failed { reason } => (
                HookEvent::PostToolUseFailure,
                json!({"error": reason, "is_interrupt": false}),
            ),
            // A call that never ran (denied, cancelled) has nothing to follow up.
            ToolOutcome::Denied { .. } | ToolOutcome::Cancelled { .. } => return None,
        };
        if !self.hooks.has(event) {
            return None;
        }
        let fields = match fields {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let fired = self
            .hooks
            .fire(event, Some(call.name), fields, Some(subject(&call)))
            .await;
        let decision = fired.decision;
        self.hooks.keep_messages(&decision.messages);
        let mut notes = Vec::new();
        if let Some(reason) = decision.block {
            notes.push(format!("[{} hook feedback] {reason}", event.name()));
        }
        notes.extend(
            decision
                .context
                .into_iter()
                .map(|c| format!("[{} hook context] {c}", event.name())),
        );
        (!notes.is_empty()).then(|| notes.join("\n"))
    }
}
