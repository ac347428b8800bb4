//! The model's live task list (`update_plan`, in Codex's shape): steps with a status, at most one in progress.

use serde::{Deserialize, Serialize};

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    InProgress,
    Completed,
}

/// One step of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskStep {
    pub step: String,
    pub status: StepStatus,
}

/// The whole list as the model last sent it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskList {
    /// Why the list changed, when the model said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    pub plan: Vec<TaskStep>,
}

/// What is wrong with a list the model sent.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TaskListError {
    #[error("step {0} is empty")]
    EmptyStep(usize),
    #[error("{0} steps are in_progress; at most one may be")]
    SeveralInProgress(usize),
}

impl TaskList {
    /// Checks the list: no empty step, at most one in progress.
    pub fn check(&self) -> Result<(), TaskListError> {
        if let Some(n) = self.plan.iter().position(|s| s.step.trim().is_empty()) {
            return Err(TaskListError::EmptyStep(n + 1));
        }
        let running = self
            .plan
            .iter()
            .filter(|s| s.status == StepStatus::InProgress)
            .count();
        if running > 1 {
            return Err(TaskListError::SeveralInProgress(running));
        }
        Ok(())
    }

    /// The list as Markdown checkboxes (for the model after a compaction).
    pub fn as_markdown(&self) -> String {
        self.plan
            .iter()
            .map(|s| {
                let mark = match s.status {
                    StepStatus::Pending => "[ ]",
                    StepStatus::InProgress => "[~]",
                    StepStatus::Completed => "[x]",
                };
                format!("- {mark} {}", s.step)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn step(step: &str, status: StepStatus) -> TaskStep {
        TaskStep {
            step: step.into(),
            status,
        }
    }

    #[test]
    fn one_step_in_progress_at_most_and_none_empty() {
        let mut list = TaskList {
            explanation: None,
            plan: vec![
                step("a", StepStatus::Completed),
                step("b", StepStatus::InProgress),
            ],
        };
        assert_eq!(list.check(), Ok(()));
        assert_eq!(list.as_markdown(), "- [x] a\n- [~] b");
        list.plan.push(step("c", StepStatus::InProgress));
        assert_eq!(list.check(), Err(TaskListError::SeveralInProgress(2)));
        list.plan = vec![step(" ", StepStatus::Pending)];
        assert_eq!(list.check(), Err(TaskListError::EmptyStep(1)));
    }
}
