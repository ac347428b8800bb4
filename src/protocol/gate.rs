//! Checks every call passes after its arguments are validated and before it runs: the turn's tool exposure,
//! approval (human or classifier), and an `after` hook for the audit log.
//!
//! Gates run in the order the turn's tool context lists them; the first denial wins.
//! Path and command guards are not gates: they live in the tools, so no gate can switch them off.

use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value};

use tokio_util::sync::CancellationToken;

use super::{ToolOutcome, ToolTraits};

/// The call a gate looks at.
#[derive(Clone, Copy, Debug)]
pub struct GateCall<'a> {
    /// The tool call id.
    pub id: &'a str,
    pub name: &'a str,
    /// Validated arguments (what the tool will receive unless a gate rewrites them).
    pub args: &'a Map<String, Value>,
    /// What the tool declared itself to be.
    pub traits: ToolTraits,
    /// The absolute paths the call would write, as the tool resolved them from `args` (empty for tools that
    /// write nothing or cannot say): gates judge control-file writes by these.
    pub write_targets: &'a [PathBuf],
    /// Fires when the user cancels the turn (a gate that waits, e.g. on a classifier, selects on it).
    pub cancel: &'a CancellationToken,
}

/// A gate's decision.
#[derive(Clone, Debug, PartialEq)]
pub enum GateVerdict {
    Allow,
    /// Allowed with arguments the user edited; they are validated again before the tool runs.
    AllowWith(Map<String, Value>),
    /// Allowed, with the OS sandbox confining the command this way (a person's `u`, plan mode's read-only).
    AllowConfined(Confinement),
    /// Refused: the model receives `[denied: code] reason`.
    Deny {
        code: String,
        reason: String,
    },
}

impl GateVerdict {
    /// A denial.
    pub fn deny(code: impl Into<String>, reason: impl Into<String>) -> Self {
        GateVerdict::Deny {
            code: code.into(),
            reason: reason.into(),
        }
    }
}

/// A check before each call, and a note after it.
#[async_trait]
pub trait CallGate: Send + Sync {
    /// Decides whether `call` may run. Only side-effecting calls run one at a time, so a gate that asks a human
    /// should allow parallel-safe calls without asking.
    async fn check(&self, call: GateCall<'_>) -> GateVerdict;

    /// Told how every call that reached the gates ended (including denials by this or an earlier gate).
    async fn after(&self, _call: GateCall<'_>, _outcome: &ToolOutcome, _duration: Duration) {}

    /// Text to add after the result the model sees of a call that reached the gates (a `PostToolUse` hook's
    /// context or block reason); asked after `after`.
    async fn annotate(&self, _call: GateCall<'_>, _outcome: &ToolOutcome) -> Option<String> {
        None
    }
}

/// What a hook said about a call before the approval gate judges it (a deny is a gate's denial instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookPermission {
    /// A user-level hook allowed it: no person is asked unless the call is sensitive.
    Allow,
    /// A hook wants the person asked, in every mode.
    Ask,
}

/// A `PermissionRequest` hook's answer in place of the person's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookAnswer {
    Allow,
    Deny { reason: String },
}

/// What hooks say around the approval gate: the permissions `PreToolUse` hooks gave this turn's calls (by call
/// id, each taken once), the answer of `PermissionRequest` hooks, and the `Notification` that a person is asked.
#[async_trait]
pub trait HookPermissions: Send + Sync {
    /// Takes what the hooks said about call `call_id`, with their reason.
    fn take(&self, call_id: &str) -> Option<(HookPermission, String)>;

    /// The person would be asked about `call` now: `PermissionRequest` hooks may answer instead.
    async fn permission_request(&self, _call: &GateCall<'_>) -> Option<HookAnswer> {
        None
    }

    /// The person is being asked about the call to `tool` (`Notification` hooks, type `permission_prompt`).
    async fn asking_person(&self, _tool: &str) {}
}

/// The denial code of a call a `PreToolUse` hook blocked.
pub const HOOK_DENIED: &str = "HOOK_DENIED";

/// The denial code of a command refused because `[sandbox] mode = "required"` finds no sandbox here.
pub const SANDBOX_REQUIRED: &str = "SANDBOX";

/// How the OS sandbox confines a command a gate allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Confinement {
    /// The session's sandbox settings.
    #[default]
    Sandboxed,
    /// Confined with no writable folder at all (plan mode).
    ReadOnly,
    /// Outside the sandbox, this once: the person chose `u` at the prompt.
    Unsandboxed,
    /// In the sandbox, with the control paths writable: the person approved the command's control-file write
    /// (or `full` mode ran it).
    ControlWritable,
}
