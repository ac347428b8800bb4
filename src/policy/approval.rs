//! Approval of risky tool calls (spec §6.3): modes, risk levels, saved and session rules, the auto-mode
//! classifier, and the [`Approver`] that asks a person.
//!
//! The decision order for a call with side effects (read-only calls always run):
//! 1. an `[approvals] deny` rule → denied (every mode);
//! 2. `plan` mode → denied: plan mode is read-only;
//! 3. `execute_command` the CommandGuard refuses → denied (the tool checks again; no mode turns it off);
//! 4. an `[approvals] allow` rule or a rule the user saved this session with `a` → runs;
//! 5. a tool without risk → runs;
//! 6. `full` runs everything; `ask` asks a person; `auto` runs edits, sends commands to the classifier, and
//!    denies `revert_turn` and `mcp__*`; its 3rd consecutive denial in a turn asks a person instead.

mod classifier;
mod gate;
mod rules;

use async_trait::async_trait;
use serde_json::{Map, Value};

pub use crate::config::ApprovalMode;
pub use classifier::{
    ApprovalClassifier, CLASSIFIER_TIMEOUT, ClassifierVerdict, MAX_CLASSIFIED_ARGS_CHARS,
};
pub use gate::{ApprovalHook, ApprovalHookOptions};
pub use rules::{ApprovalRule, RuleSet, command_prefix_rule};

/// How much harm a tool can do (spec §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    /// Read-only or harmless.
    None,
    /// Edits files inside the project.
    Medium,
    /// Runs commands, rewinds history, or reaches an external server.
    High,
}

impl Risk {
    /// `none`, `medium` or `high`.
    pub fn label(self) -> &'static str {
        match self {
            Risk::None => "none",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

/// The risk of calling `tool`.
pub fn risk_of(tool: &str) -> Risk {
    match tool {
        "write_file" | "edit_file" | "create_project" => Risk::Medium,
        "execute_command" | "revert_turn" => Risk::High,
        t if t.starts_with("mcp__") => Risk::High,
        _ => Risk::None,
    }
}

/// What a person is asked to approve.
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub risk: Risk,
    pub args: Map<String, Value>,
    /// What `a` (approve for the session) would remember, e.g. ``commands starting with `cargo test` ``.
    pub session_rule: String,
    /// Why a person is asked (e.g. the classifier's reason when escalating), if there is more to say.
    pub note: Option<String>,
}

/// A person's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ApprovalAnswer {
    /// `y` / Enter.
    Approve,
    /// `a`: approve and remember the request's session rule.
    ApproveForSession,
    /// `n`, with an optional reason for the model; also five invalid answers or end of input.
    Reject { reason: Option<String> },
    /// `s`: do not run it, carry on.
    Skip,
    /// `m`: run with these arguments instead.
    Modify(Map<String, Value>),
}

/// Asks a person to approve a call.
#[async_trait]
pub trait Approver: Send + Sync {
    /// False when nobody can be asked (`paicli -p`): calls that need a person are denied instead.
    fn is_interactive(&self) -> bool {
        true
    }
    /// Asks and waits for the answer.
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer;
}

/// The approver of non-interactive runs: there is nobody to ask, so it always rejects.
pub struct NonInteractiveApprover;

#[async_trait]
impl Approver for NonInteractiveApprover {
    fn is_interactive(&self) -> bool {
        false
    }

    async fn ask(&self, _request: &ApprovalRequest) -> ApprovalAnswer {
        ApprovalAnswer::Reject {
            reason: Some("nobody can approve calls in a non-interactive run".to_string()),
        }
    }
}

/// The command-line flag that would let `tool` run without asking.
pub fn allowing_flag(tool: &str) -> &'static str {
    match risk_of(tool) {
        Risk::Medium => "--approval auto",
        _ => "--approval full",
    }
}
