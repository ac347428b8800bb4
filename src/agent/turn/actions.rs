//! What a turn's tool calls did to the world: refusals and changed files, so a script can tell "done" from
//! "refused" (`-p` JSON results, exit code 4).

use std::path::PathBuf;

use serde::Serialize;

use crate::protocol::{Risk, ToolOutcome};
use crate::tools::executor::ToolCallResult;

/// One refused call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Denial {
    pub tool: String,
    /// The stable reason code, such as `PATH_OUT_OF_BOUNDS`.
    pub code: String,
    pub reason: String,
}

/// The refusals and file changes of one turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnActions {
    /// Every refused call, in the order the results arrived.
    pub denials: Vec<Denial>,
    /// Files the turn's file tools wrote or edited (relative to the project root), each once.
    pub changed_files: Vec<PathBuf>,
    /// Calls of tools with side effects (risk above none).
    side_effecting: usize,
    /// Of those, how many were refused.
    side_effecting_denied: usize,
}

impl TurnActions {
    /// Adds one batch of results.
    pub fn record(&mut self, results: &[ToolCallResult]) {
        for result in results {
            let side_effect = result.traits.is_some_and(|t| t.risk != Risk::None);
            if side_effect {
                self.side_effecting += 1;
            }
            if let ToolOutcome::Denied { code, reason } = &result.outcome {
                self.denials.push(Denial {
                    tool: result.tool.clone(),
                    code: code.clone(),
                    reason: reason.clone(),
                });
                if side_effect {
                    self.side_effecting_denied += 1;
                }
            }
            for path in result.changed_files() {
                if !self.changed_files.contains(path) {
                    self.changed_files.push(path.clone());
                }
            }
        }
    }

    /// True when the turn tried something with side effects and every such call was refused.
    pub fn all_denied(&self) -> bool {
        self.side_effecting > 0 && self.side_effecting_denied == self.side_effecting
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::protocol::{ToolOutput, ToolTraits};

    fn result(tool: &str, traits: ToolTraits, outcome: ToolOutcome) -> ToolCallResult {
        ToolCallResult {
            call_id: format!("call_{tool}"),
            tool: tool.to_string(),
            outcome,
            duration: Duration::ZERO,
            content: String::new(),
            traits: Some(traits),
        }
    }

    #[test]
    fn refusals_of_every_side_effect_mean_nothing_was_done() {
        let mut actions = TurnActions::default();
        actions.record(&[
            result("read_file", ToolTraits::READ_ONLY, ToolOutcome::ok("text")),
            result(
                "write_file",
                ToolTraits::FILE_EDIT,
                ToolOutcome::denied("PLAN_MODE", "plan mode refuses writes"),
            ),
        ]);
        assert!(actions.all_denied());
        assert_eq!(
            actions.denials,
            [Denial {
                tool: "write_file".into(),
                code: "PLAN_MODE".into(),
                reason: "plan mode refuses writes".into(),
            }]
        );
        let written = ToolOutput {
            changed_files: vec![PathBuf::from("a.txt")],
            ..ToolOutput::text("written")
        };
        actions.record(&[result(
            "write_file",
            ToolTraits::FILE_EDIT,
            ToolOutcome::Ok(written),
        )]);
        assert!(!actions.all_denied());
        assert_eq!(actions.changed_files, [PathBuf::from("a.txt")]);
    }

    #[test]
    fn a_read_only_turn_is_not_all_denied() {
        let mut actions = TurnActions::default();
        actions.record(&[result(
            "read_file",
            ToolTraits::READ_ONLY,
            ToolOutcome::denied("PATH_OUT_OF_BOUNDS", "outside"),
        )]);
        assert!(!actions.all_denied());
        assert_eq!(actions.denials.len(), 1);
    }
}
