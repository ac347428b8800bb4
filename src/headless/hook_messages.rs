//! Hook runs as the Agent SDK's `system` messages (`--include-hook-events`): `hook_started` and `hook_response`
//! with the fields the SDKs declare (`hook_id` pairing the two, `hook_name`, `hook_event`, `output`, `stdout`,
//! `stderr`, `outcome` `success` or `error`), plus paicli's own (`command`, `reason`, `duration_ms`, and
//! `decision: "block"` when the hook blocked or denied).

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{Value, json};

use super::channel::{lock, uuid};
use crate::protocol::HookOutcome;

/// The ids of the hook runs started and not yet finished, by event and command (a command runs once per event).
#[derive(Default)]
pub struct HookRuns {
    open: Mutex<HashMap<(String, String), String>>,
}

impl HookRuns {
    /// The `hook_started` fields of the run of `command` on `hook_event`.
    pub fn started(&self, hook_event: &str, command: &str) -> Value {
        let id = uuid();
        lock(&self.open).insert((hook_event.to_string(), command.to_string()), id.clone());
        json!({"hook_id": id, "hook_name": command, "hook_event": hook_event, "command": command})
    }

    /// The `hook_response` fields of its end.
    pub fn finished(
        &self,
        hook_event: &str,
        command: &str,
        outcome: HookOutcome,
        reason: &str,
        duration_ms: u64,
    ) -> Value {
        let id = lock(&self.open)
            .remove(&(hook_event.to_string(), command.to_string()))
            .unwrap_or_else(uuid);
        let mut fields = json!({
            "hook_id": id, "hook_name": command, "hook_event": hook_event, "command": command,
            "output": reason, "stdout": "", "stderr": "",
            "outcome": match outcome {
                HookOutcome::Error => "error",
                HookOutcome::Success | HookOutcome::Blocked => "success",
            },
            "duration_ms": duration_ms,
        });
        if !reason.is_empty() {
            fields["reason"] = reason.into();
        }
        if outcome == HookOutcome::Blocked {
            fields["decision"] = "block".into();
        }
        fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_s_two_messages_share_its_id_and_a_block_is_a_decision() {
        let runs = HookRuns::default();
        let started = runs.started("PreToolUse", "check.sh");
        let finished = runs.finished("PreToolUse", "check.sh", HookOutcome::Blocked, "no", 3);
        assert_eq!(started["hook_id"], finished["hook_id"]);
        assert_eq!(finished["outcome"], "success");
        assert_eq!(finished["decision"], "block");
        assert_eq!(finished["reason"], "no");
        let failed = runs.finished("Stop", "x", HookOutcome::Error, "exit 1", 1);
        assert_eq!(failed["outcome"], "error");
        assert!(failed.get("decision").is_none());
    }
}
