//! What a person is asked to approve, their answer, and the [`Approver`] that asks them.

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::traits::Risk;

/// What a person is asked to approve.
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalRequest {
    /// The id of the tool call asked about, so a front-end showing several calls of one tool names the right one.
    pub call_id: String,
    pub tool: String,
    pub risk: Risk,
    pub args: Map<String, Value>,
    /// What `a` (approve for the session) would remember, e.g. ``commands starting with `cargo test` ``; `None`
    /// when such a call is asked about every time (then `a` is not offered).
    pub session_rule: Option<RuleLabel>,
    /// What `p` (allow always in this project) would save in the user's config, e.g. ``commands starting with
    /// `cargo test` ``; `None` when it cannot be saved (sensitive calls, one exact command line, no config home).
    pub project_rule: Option<RuleLabel>,
    /// `u` (run this command once outside the OS sandbox) is offered: the command would run sandboxed.
    pub unsandboxed: bool,
    /// Why a person is asked (e.g. the classifier's reason when escalating), if there is more to say.
    pub note: Option<String>,
}

/// A rule as a person reads it, kept in parts so each language can word it; `Display` is the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleLabel {
    /// Every call of a tool (or of tools matching a `prefix*`).
    Tool(String),
    /// Command lines whose commands start with these words.
    CommandPrefix(String),
    /// One exact command line.
    ExactCommand(String),
}

impl std::fmt::Display for RuleLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleLabel::Tool(t) => write!(f, "every `{t}` call"),
            RuleLabel::CommandPrefix(w) => write!(f, "commands starting with `{w}`"),
            RuleLabel::ExactCommand(c) => write!(f, "exactly the command `{c}`"),
        }
    }
}

/// A person's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ApprovalAnswer {
    /// `y` / Enter.
    Approve,
    /// `a`: approve and remember the request's session rule.
    ApproveForSession,
    /// `p`: approve and save the request's project rule in the user's config.
    ApproveForProject,
    /// `n`, with an optional reason for the model; also five invalid answers or end of input.
    Reject { reason: Option<String> },
    /// `s`: do not run it, carry on.
    Skip,
    /// `m`: run with these arguments instead.
    Modify(Map<String, Value>),
    /// `u`: run this one command outside the OS sandbox.
    ApproveUnsandboxed,
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
    /// Tells the person that the rule their `p` asked to save could not be saved (the call still runs).
    fn rule_not_saved(&self, _error: &str) {}
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
