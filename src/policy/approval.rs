//! Approval of risky tool calls (spec §6.3): modes, risk levels, saved and session rules, the auto-mode
//! classifier, and the [`Approver`] that asks a person.
//!
//! Every decision reads what the tool declared ([`crate::protocol::ToolTraits`]), never its name. The decision
//! order for a call with side effects (parallel-safe calls always run):
//! 1. an `[approvals] deny` rule → denied (every mode);
//! 2. `plan` mode → denied: plan mode is read-only;
//! 3. a command line (tools declaring `runs_commands`) the CommandGuard refuses → denied (the tool checks again;
//!    no mode turns it off);
//! 4. a sensitive call (an opaque command line, or a write to a control file; see [`sensitive`]) → runs in
//!    `full`, else asks a person (denied when nobody can be asked); no rule or classifier runs it;
//! 5. an `[approvals] allow` rule or a rule the user saved this session with `a` → runs;
//! 6. a tool without risk → runs;
//! 7. `full` runs everything; `ask` asks a person; `auto` runs medium-risk calls (edits), sends commands to the
//!    classifier (whose "ask", or failure, asks the person when one can be asked, and denies in `-p`), and denies
//!    other high-risk tools (MCP tools, history rewinds); its 3rd consecutive denial in a turn asks a person
//!    instead.

mod classifier;
mod gate;
mod rules;
pub mod sensitive;

pub use crate::config::ApprovalMode;
pub use crate::protocol::{
    ApprovalAnswer, ApprovalRequest, Approver, NonInteractiveApprover, Risk, RuleLabel,
};
pub use classifier::{
    ApprovalClassifier, CLASSIFIER_TIMEOUT, ClassifierVerdict, MAX_CLASSIFIED_ARGS_CHARS,
};
pub use gate::{ApprovalHook, ApprovalHookOptions, ProjectRuleStore};
pub use rules::{ApprovalRule, RuleSet, command_prefix_rule};

/// The command-line flag that would let a call of `risk` run without asking.
pub fn allowing_flag(risk: Risk) -> &'static str {
    match risk {
        Risk::Medium => "--approval auto",
        _ => "--approval full",
    }
}
