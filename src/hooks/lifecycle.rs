//! The agent's moments as hook events: `PreCompact` (trigger `manual` or `auto`), `SessionStart` with source
//! `compact` after a summary, and `SubagentStop` when a sub-agent ends its turn (a block keeps it working).
//! Nothing is built or run when no hook is for the event.

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{HookEvent, Hooks};
use crate::protocol::{CompactTrigger, Lifecycle};

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[async_trait]
impl Lifecycle for Hooks {
    async fn before_compaction(&self, trigger: CompactTrigger, focus: Option<&str>) {
        if !self.has(HookEvent::PreCompact) {
            return;
        }
        let fired = self
            .fire(
                HookEvent::PreCompact,
                Some(trigger.name()),
                fields(json!({"trigger": trigger.name(), "custom_instructions": focus.unwrap_or_default()})),
                None,
            )
            .await;
        self.keep_messages(&fired.decision.messages);
    }

    async fn after_compaction(&self) -> Vec<String> {
        if !self.has(HookEvent::SessionStart) {
            return Vec::new();
        }
        let fired = self
            .fire(
                HookEvent::SessionStart,
                Some("compact"),
                fields(json!({"source": "compact"})),
                None,
            )
            .await;
        self.keep_messages(&fired.decision.messages);
        fired.decision.context
    }

    async fn subagent_stopped(&self, continued: u32) -> Option<String> {
        if !self.has(HookEvent::SubagentStop) {
            return None;
        }
        let fired = self
            .fire(
                HookEvent::SubagentStop,
                None,
                fields(json!({"stop_hook_active": continued > 0})),
                None,
            )
            .await;
        self.keep_messages(&fired.decision.messages);
        // `continue: false` ends it whatever a block says (as for `Stop`).
        fired
            .decision
            .block
            .filter(|_| fired.decision.stop.is_none())
    }
}
