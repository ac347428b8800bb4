//! The person's own shell commands (`!command` at the REPL's prompt, as in Claude Code's bash mode): run through
//! the agent's gates and sandbox like the model's `execute_command`, shown as a call, and carried to the model with
//! the person's next message, so "fix that" after `!cargo test` means what it says.

use std::sync::PoisonError;
use std::sync::atomic::Ordering;

use tokio_util::sync::CancellationToken;

use super::Session;
use crate::protocol::{EventSink, ToolOutcome};

/// What the person's command did, for the front-end's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellRan {
    /// It ran (whatever its exit status; the output says).
    Ran,
    /// A gate refused it (the guard, the approval, a hook): the reason was shown with the call.
    Refused,
    /// It was stopped (ESC, Ctrl-C) or never started.
    Stopped,
}

impl Session {
    /// Runs `command` as the person's `execute_command` call, its events to `sink`; when it ran, the command and
    /// its result (as the model would see a tool result: bounded, spilled, inside the untrusted-data boundary) wait
    /// for the next input, which carries them.
    pub async fn run_shell(
        &self,
        command: &str,
        sink: &dyn EventSink,
        cancel: CancellationToken,
    ) -> ShellRan {
        let n = self.shell_runs.fetch_add(1, Ordering::SeqCst) + 1;
        let id = format!("person_shell_{n}");
        let agent = self.agent.lock().await;
        let result = agent.run_person_command(&id, command, sink, cancel).await;
        let ran = match &result.outcome {
            ToolOutcome::Ok(_) | ToolOutcome::Failed { .. } => ShellRan::Ran,
            ToolOutcome::Denied { .. } => ShellRan::Refused,
            ToolOutcome::Cancelled { .. } => ShellRan::Stopped,
        };
        // A refused or stopped command told the model nothing it needs.
        if ran == ShellRan::Ran {
            let context = shell_context(command, &result.content);
            self.shell_context
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(context);
        }
        ran
    }

    /// The commands the person ran since the last input, for the model; empty when none.
    pub(super) fn take_shell_context(&self) -> Option<String> {
        let ran = std::mem::take(
            &mut *self
                .shell_context
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        (!ran.is_empty()).then(|| ran.join("\n\n"))
    }
}

/// How one command reaches the model: what the person ran, then the result as a tool's.
fn shell_context(command: &str, result: &str) -> String {
    format!("The person ran this shell command at the prompt themselves: `{command}`\n{result}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_names_the_command_and_keeps_the_boundary() {
        let wrapped = crate::tools::boundary::wrap("execute_command", "a.txt\nb.txt");
        let text = shell_context("ls", &wrapped);
        assert!(
            text.starts_with("The person ran this shell command at the prompt themselves: `ls`\n")
        );
        assert!(text.ends_with(&wrapped));
    }
}
