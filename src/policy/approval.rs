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

pub use crate::config::ApprovalMode;
pub use crate::protocol::{
    ApprovalAnswer, ApprovalRequest, Approver, NonInteractiveApprover, Risk,
};
pub use classifier::{
    ApprovalClassifier, CLASSIFIER_TIMEOUT, ClassifierVerdict, MAX_CLASSIFIED_ARGS_CHARS,
};
pub use gate::{ApprovalHook, ApprovalHookOptions};
pub use rules::{ApprovalRule, RuleSet, command_prefix_rule};

/// The risk of calling `tool`.
pub fn risk_of(tool: &str) -> Risk {
    match tool {
        "write_file" | "edit_file" | "create_project" => Risk::Medium,
        "execute_command" | "revert_turn" => Risk::High,
        t if t.starts_with("mcp__") => Risk::High,
        _ => Risk::None,
    }
}

/// The command-line flag that would let `tool` run without asking.
pub fn allowing_flag(tool: &str) -> &'static str {
    match risk_of(tool) {
        Risk::Medium => "--approval auto",
        _ => "--approval full",
    }
}
