//! Running a goal as a plan from the REPL (`/plan`, `/team`, and every input in the `plan` approval mode): the
//! plan engine with the terminal reviewer, the task list in the working line, ESC or Ctrl-C cancelling every
//! running task through the one token, and the status line after it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::Session;
use crate::config::ApprovalMode;
use crate::plan::{PlanMode, PlanRequest, run_plan};
use crate::protocol::Usage;
use crate::text::{Msg, trf};
use crate::ui::commands::mode_name;
use crate::ui::interrupt::block_on_interruptible;
use crate::ui::plan_review::TerminalPlanReviewer;

/// What the session remembers about plans between inputs (the mode plan mode returns to is the approval
/// hook's: `ApprovalHook::leave_plan_mode`).
#[derive(Debug, Default)]
pub struct PlanState {
    /// `/plan` or `/team` without a task: the next input is planned so.
    pub next_input: Option<PlanMode>,
}

impl Session {
    /// Runs what the person typed: as a plan when `/plan` or `/team` waits for it or the mode is `plan`,
    /// otherwise as a turn.
    pub fn submit(&mut self, input: &str) {
        let waiting = self.plans.next_input.take();
        let mode = match waiting {
            Some(mode) => Some(mode),
            None if self.approval.mode() == ApprovalMode::Plan => Some(PlanMode::Plan),
            None => None,
        };
        match mode {
            Some(mode) => self.run_plan_task(input, mode),
            None => {
                self.run_user_task(input);
            }
        }
    }

    /// Plans `goal`, shows the plan for review, and runs it with ESC / Ctrl-C cancelling every running task.
    pub fn run_plan_task(&mut self, goal: &str, mode: PlanMode) {
        let started = Instant::now();
        let before = self.agent.session_usage();
        let goal = self.expand_goal(goal);
        let sink = self.work_sink();
        let restored = Arc::new(Mutex::new(None));
        let in_plan_mode = self.approval.mode() == ApprovalMode::Plan;
        let reviewer = TerminalPlanReviewer {
            keyboard: self.keyboard.clone(),
            live: Arc::clone(&self.live),
            lang: self.lang,
            no_color: self.no_color,
            restore: in_plan_mode.then(|| self.approval.clone()),
            restored: Arc::clone(&restored),
        };
        let request = PlanRequest {
            goal,
            mode,
            settings: self.config.plan,
        };
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = run_plan(&mut self.agent, request, &reviewer, &sink, cancel.clone());
        let result = block_on_interruptible(&self.runtime, &cancel, work);
        sink.finish();
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = None;
        keys.stop();
        if let Some(mode) = restored
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            self.agent.conversation().note_mode(mode_name(mode));
        }
        self.turns += 1;
        let style = self.surface().style;
        match result {
            // Stopped while planning: no task had started.
            Ok(report) if cancel.is_cancelled() && report.outcomes.is_empty() => {
                self.say(&style.yellow(&format!("⏹ {}", self.tr(Msg::Cancelled))));
            }
            Ok(_) if cancel.is_cancelled() => {
                self.say(&style.yellow(&format!("⏹ {}", self.tr(Msg::PlanStopped))));
            }
            Ok(_) => {}
            Err(e) => {
                let text = trf(self.lang, Msg::PlanFailedToStart, &[("error", &e)]);
                self.say(&style.red(&format!("{}: {text}", self.tr(Msg::ErrorPrefix))));
            }
        }
        // The planner's and the tasks' tokens are in the lead's totals (forks report to it).
        let used = used_between(before, self.agent.session_usage());
        self.print_status(started, used);
    }

    /// `@path` mentions in a goal read into it, as for a turn (the planner and every task see the text).
    fn expand_goal(&self, goal: &str) -> String {
        let expanded = crate::app::mentions::expand_mentions(goal, &self.guard);
        let style = self.surface().style;
        for (mention, reason) in &expanded.skipped {
            self.say(&style.yellow(&format!(
                "! {mention} {}: {reason}",
                self.tr(Msg::MentionSkipped)
            )));
        }
        expanded.text
    }
}

/// Tokens used between two readings of the session's totals.
fn used_between(before: Usage, after: Usage) -> Usage {
    Usage::tokens(
        after.prompt_tokens.saturating_sub(before.prompt_tokens),
        after
            .completion_tokens
            .saturating_sub(before.completion_tokens),
        after.cached_tokens.saturating_sub(before.cached_tokens),
        after
            .reasoning_tokens
            .saturating_sub(before.reasoning_tokens),
    )
}
