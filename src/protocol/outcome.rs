//! The typed result of a tool call. Success is never inferred from text.

use std::path::PathBuf;

use super::message::ContentPart;

/// A unified diff of one file change, for the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiff {
    /// Path relative to the project root.
    pub path: String,
    /// Unified diff text (`---`/`+++`/`@@` hunks).
    pub unified: String,
}

/// What a successful tool call produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolOutput {
    /// Text for the model (before spill and boundary wrapping).
    pub text: String,
    /// Images to show the model in a follow-up user message.
    pub images: Vec<ContentPart>,
    /// URLs this result makes trustworthy to fetch (typed provenance, never parsed from text).
    pub discovered_urls: Vec<String>,
    /// The change a write or edit made.
    pub diff: Option<FileDiff>,
    /// Files written or edited (relative paths), for diagnostics and snapshots.
    pub changed_files: Vec<PathBuf>,
    /// Text for a user message placed right after the batch's tool results (a loaded skill's instructions), so
    /// the model reads it as guidance rather than as one more tool result. The pairing of calls and results is
    /// untouched.
    pub follow_up: Option<String>,
    /// The model's task list, from `update_plan`: the agent keeps it and front-ends show it.
    pub task_list: Option<super::task_list::TaskList>,
}

impl ToolOutput {
    /// A plain text result.
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput {
            text: text.into(),
            ..Default::default()
        }
    }
}

/// The typed result of a tool call. Success is never inferred from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolOutcome {
    Ok(ToolOutput),
    /// A policy refused the call; `code` is a stable reason code such as `PATH_OUT_OF_BOUNDS`.
    Denied {
        code: String,
        reason: String,
    },
    /// The tool ran (or tried to) and failed; `reason` tells the model what went wrong.
    Failed {
        reason: String,
    },
    /// The user cancelled; `partial` holds whatever output there was.
    Cancelled {
        partial: String,
    },
}

impl ToolOutcome {
    /// A failure with a reason.
    pub fn failed(reason: impl Into<String>) -> Self {
        ToolOutcome::Failed {
            reason: reason.into(),
        }
    }

    /// A denial with a code and a reason.
    pub fn denied(code: impl Into<String>, reason: impl Into<String>) -> Self {
        ToolOutcome::Denied {
            code: code.into(),
            reason: reason.into(),
        }
    }

    /// A success with plain text.
    pub fn ok(text: impl Into<String>) -> Self {
        ToolOutcome::Ok(ToolOutput::text(text))
    }

    /// True for `Ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self, ToolOutcome::Ok(_))
    }

    /// The text the model sees for this outcome, before spill and wrapping.
    pub fn model_text(&self) -> String {
        match self {
            ToolOutcome::Ok(out) => out.text.clone(),
            ToolOutcome::Denied { code, reason } => format!("[denied: {code}] {reason}"),
            ToolOutcome::Failed { reason } => format!("[error] {reason}"),
            ToolOutcome::Cancelled { partial } if partial.is_empty() => {
                "[aborted by user]".to_string()
            }
            ToolOutcome::Cancelled { partial } => {
                format!("[aborted by user] partial output:\n{partial}")
            }
        }
    }
}
