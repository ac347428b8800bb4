//! Hooks around the approval gate: the `PreToolUse` permissions it takes per call, `PermissionRequest` hooks
//! answering in the person's place, and `Notification` hooks told that the person is asked.

use async_trait::async_trait;
use serde_json::{Map, json};
use tokio_util::sync::CancellationToken;

use super::{HookEvent, Hooks, Permission, ToolSubject, lock};
use crate::protocol::{GateCall, HookAnswer, HookPermission, HookPermissions};

#[async_trait]
impl HookPermissions for Hooks {
    fn take(&self, call_id: &str) -> Option<(HookPermission, String)> {
        lock(&self.inner.permissions).remove(call_id)
    }

    async fn permission_request(&self, call: &GateCall<'_>) -> Option<HookAnswer> {
        if !self.has(HookEvent::PermissionRequest) {
            return None;
        }
        let tool = ToolSubject {
            id: call.id,
            name: call.name,
            args: call.args,
        };
        let fired = self
            .fire(
                HookEvent::PermissionRequest,
                Some(call.name),
                Map::new(),
                Some(tool),
            )
            .await;
        let decision = fired.decision;
        self.keep_messages(&decision.messages);
        // Exit 2 denies, as `decision.behavior: "deny"` does; a project hook's allow never reaches here.
        if let Some(reason) = decision.block {
            return Some(HookAnswer::Deny { reason });
        }
        match decision.permission {
            Some((Permission::Deny, reason)) => Some(HookAnswer::Deny { reason }),
            Some((Permission::Allow, _)) => Some(HookAnswer::Allow),
            _ => None,
        }
    }

    async fn asking_person(&self, tool: &str) {
        self.notify(
            "permission_prompt",
            &format!("paicli needs your permission to use {tool}"),
        )
        .await;
    }
}

impl Hooks {
    /// Fires `Notification` hooks of type `kind` (`permission_prompt`, `idle_prompt`) with `message`.
    pub async fn notify(&self, kind: &str, message: &str) {
        if !self.has(HookEvent::Notification) {
            return;
        }
        let mut fields = Map::new();
        fields.insert("message".into(), json!(message));
        fields.insert("notification_type".into(), json!(kind));
        let fired = self
            .fire(HookEvent::Notification, Some(kind), fields, None)
            .await;
        self.keep_messages(&fired.decision.messages);
    }

    /// Fires `Notification` (`idle_prompt`) once the prompt has waited `after` for the person, on `runtime`;
    /// dropping the returned guard (the person typed something) cancels it. `None` without such hooks.
    pub fn notify_when_idle(
        &self,
        runtime: &tokio::runtime::Handle,
        after: std::time::Duration,
    ) -> Option<IdleNotice> {
        if !self.has(HookEvent::Notification) {
            return None;
        }
        let hooks = self.clone();
        let typed = CancellationToken::new();
        let cancelled = typed.clone();
        runtime.spawn(async move {
            tokio::select! {
                () = cancelled.cancelled() => {}
                // Once due, the hooks run to the end (a notifier is not killed because the person came back).
                () = tokio::time::sleep(after) => {
                    hooks.notify("idle_prompt", "paicli is waiting for your input").await;
                }
            }
        });
        Some(IdleNotice(typed))
    }
}

/// A pending `idle_prompt` notification (see [`Hooks::notify_when_idle`]); cancelled when dropped, unless it
/// is already due.
pub struct IdleNotice(CancellationToken);

impl Drop for IdleNotice {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::hooks::matcher::Matcher;
    use crate::hooks::{HookCommand, HookSource, Origin};
    use std::sync::Arc;

    fn hook(event: HookEvent, matcher: &str, command: String) -> HookCommand {
        HookCommand {
            event,
            matcher: Matcher::parse(Some(matcher)).unwrap(),
            matcher_text: matcher.into(),
            command,
            timeout: std::time::Duration::from_secs(10),
            source: Arc::new(HookSource {
                origin: Origin::PaicliUser,
                path: "config.toml".into(),
            }),
        }
    }

    #[tokio::test]
    async fn a_notification_hook_hears_that_the_person_is_asked() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("notification.json");
        let command = format!("cat > '{}'", out.display());
        let hooks = Hooks::from_commands(
            vec![hook(HookEvent::Notification, "permission_prompt", command)],
            Vec::new(),
            dir.path().to_path_buf(),
            false,
        );
        hooks.asking_person("write_file").await;
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(input["hook_event_name"], "Notification");
        assert_eq!(input["notification_type"], "permission_prompt");
        assert_eq!(
            input["message"],
            "paicli needs your permission to use write_file"
        );
    }

    #[tokio::test]
    async fn no_hook_for_the_event_runs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("ran");
        let hooks = Hooks::from_commands(
            vec![hook(
                HookEvent::Notification,
                "idle_prompt",
                format!("touch '{}'", out.display()),
            )],
            Vec::new(),
            dir.path().to_path_buf(),
            false,
        );
        hooks.asking_person("write_file").await;
        assert!(!out.exists());
    }

    #[tokio::test]
    async fn a_notification_hook_hears_an_idle_prompt_once_it_is_due() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("idle.json");
        // Written whole, then renamed: the poll below never reads half a file.
        let command = format!("cat > '{0}.part' && mv '{0}.part' '{0}'", out.display());
        let hooks = Hooks::from_commands(
            vec![hook(HookEvent::Notification, "idle_prompt", command)],
            Vec::new(),
            dir.path().to_path_buf(),
            false,
        );
        let runtime = tokio::runtime::Handle::current();
        let _pending = hooks
            .notify_when_idle(&runtime, std::time::Duration::from_millis(10))
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !out.exists() {
            assert!(std::time::Instant::now() < deadline, "no idle_prompt");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(input["notification_type"], "idle_prompt");
        assert_eq!(input["message"], "paicli is waiting for your input");
        // Without a Notification hook nothing is scheduled at all.
        let none = Hooks::from_commands(Vec::new(), Vec::new(), dir.path().to_path_buf(), false);
        assert!(
            none.notify_when_idle(&runtime, std::time::Duration::ZERO)
                .is_none()
        );
    }
}
