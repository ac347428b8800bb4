//! Default deny, as a chat channel applies it: who is heard, what runs unasked, how long a question waits. Built
//! from the user's own settings only (`[channels]` cannot be set by a project's files).

use std::time::Duration;

use crate::config::{ApprovalMode, ChannelEdits, Config};

/// One channel's policy.
#[derive(Clone, Debug)]
pub struct ChannelPolicy {
    /// Senders whose messages are taken; everyone else is dropped and logged.
    pub allow_from: Vec<String>,
    pub edits: ChannelEdits,
    /// Exact command lines that run unasked.
    pub commands: Vec<String>,
    /// How long a question waits before the call is refused.
    pub approval_timeout: Duration,
}

impl ChannelPolicy {
    /// The `[channels]` policy with `allow_from` as the senders heard.
    pub fn new(config: &Config, allow_from: Vec<String>) -> Self {
        ChannelPolicy {
            allow_from,
            edits: config.channels.edits,
            commands: config.channels.commands.clone(),
            approval_timeout: config.channels.approval_timeout,
        }
    }

    pub fn hears(&self, sender: &str) -> bool {
        self.allow_from.iter().any(|id| id == sender)
    }

    /// Whether `command` is one of the listed lines, exactly (surrounding blanks aside).
    pub fn runs_unasked(&self, command: &str) -> bool {
        let command = command.trim();
        self.commands.iter().any(|c| c.trim() == command)
    }
}

/// The configuration a chat's session runs with: `ask` mode, so every call with side effects reaches the chat's
/// approver, and none of the terminal's saved allow rules (the channel's own list is `[channels] commands`).
pub fn session_config(config: &Config) -> Config {
    let mut config = config.clone();
    config.approval = ApprovalMode::Ask;
    config.approvals.allow.clear();
    config.approvals.project_allow.clear();
    config
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn only_exact_listed_lines_run_unasked() {
        let policy = ChannelPolicy {
            allow_from: vec!["7012345678".into()],
            edits: ChannelEdits::Ask,
            commands: vec!["cargo test".into()],
            approval_timeout: Duration::from_secs(1),
        };
        assert!(policy.runs_unasked(" cargo test "));
        assert!(!policy.runs_unasked("cargo test && rm -rf ~"));
        assert!(!policy.runs_unasked("cargo"));
        assert!(policy.hears("7012345678"));
        assert!(!policy.hears("701234567"));
    }
}
