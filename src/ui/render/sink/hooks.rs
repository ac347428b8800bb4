//! A running hook on the working line ("running hook PreToolUse: ./check.sh"), and a block reason the
//! transcript shows nowhere else.

use super::Inner;
use super::Phase;
use crate::protocol::HookOutcome;
use crate::text::{Msg, trf, visible};

/// Events whose block is shown elsewhere: a denied call's result line, the blocked-prompt and Stop notices.
const SHOWN_ELSEWHERE: [&str; 4] = [
    "PreToolUse",
    "PermissionRequest",
    "UserPromptSubmit",
    "Stop",
];

impl Inner {
    pub(super) fn hook_started(&mut self, event: &str, command: &str) {
        let Some(live) = &self.live else {
            return;
        };
        if self.before_hook.is_none() {
            self.before_hook = Some(live.suspended.clone().unwrap_or(live.line.phase.clone()));
        }
        let label = trf(
            self.lang,
            Msg::HookRunningLabel,
            &[("event", &event), ("command", &visible(command))],
        );
        self.set_phase(Phase::Running {
            id: String::new(),
            label,
        });
    }

    pub(super) fn hook_finished(&mut self, event: &str, outcome: HookOutcome, reason: &str) {
        if let Some(phase) = self.before_hook.take() {
            self.set_phase(phase);
        }
        if outcome == HookOutcome::Blocked && !SHOWN_ELSEWHERE.contains(&event) {
            self.flush_answer();
            let style = self.surface.style;
            let text = trf(
                self.lang,
                Msg::HookBlockedLine,
                &[("event", &event), ("reason", &reason)],
            );
            self.write_marked("!", &text, |l| style.yellow(l));
        }
    }
}
