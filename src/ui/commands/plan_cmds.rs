//! `/plan [task]` and `/team [task]`: the task is planned, reviewed and run now; without one, the next message
//! is. The same command again, or `/plan off`, drops that.

use super::Flow;
use crate::plan::PlanMode;
use crate::text::{Lang, Msg, tr};
use crate::ui::repl::{PROMPT, Session};

pub(super) fn plan(session: &mut Session, args: &str) -> Flow {
    plan_with(session, args, PlanMode::Plan)
}

pub(super) fn team(session: &mut Session, args: &str) -> Flow {
    plan_with(session, args, PlanMode::Team)
}

/// What `/plan` or `/team` with `args` does, given the plan waiting for the next message.
#[derive(Debug, PartialEq)]
enum Action<'a> {
    Run(&'a str),
    /// Plan the next message.
    Wait,
    /// Drop the plan waiting for the next message.
    Drop,
    /// `off` with nothing waiting.
    NothingToDrop,
}

fn action(args: &str, mode: PlanMode, pending: Option<PlanMode>) -> Action<'_> {
    match args {
        "off" if pending.is_some() => Action::Drop,
        "off" => Action::NothingToDrop,
        // The same command again undoes it; the other one switches to itself.
        "" if pending == Some(mode) => Action::Drop,
        "" => Action::Wait,
        task => Action::Run(task),
    }
}

fn command_name(mode: PlanMode) -> &'static str {
    match mode {
        PlanMode::Plan => "/plan",
        PlanMode::Team => "/team",
    }
}

fn plan_with(session: &mut Session, args: &str, mode: PlanMode) -> Flow {
    let style = session.surface().style;
    match action(args, mode, session.plans.next_input) {
        Action::Run(task) => {
            // A task given now is the one a waiting `/plan` was for.
            session.plans.next_input = None;
            session.run_plan_task(task, mode);
        }
        Action::Wait => {
            session.plans.next_input = Some(mode);
            let msg = match mode {
                PlanMode::Plan => Msg::PlanNextInput,
                PlanMode::Team => Msg::TeamNextInput,
            };
            let undo = session
                .tr(Msg::PlanPendingUndo)
                .replace("{cmd}", command_name(mode));
            let text = format!("{} · {undo}", session.tr(msg));
            session.say_fitted(&text, 2, |l| style.cyan(l));
        }
        Action::Drop => {
            session.plans.next_input = None;
            session.say_fitted(session.tr(Msg::PlanPendingDropped), 2, |l| style.cyan(l));
        }
        Action::NothingToDrop => session.say_dim(session.tr(Msg::PlanNonePending)),
    }
    Flow::Continue
}

/// The input prompt: `› `, or `plan › ` / `team › ` while `/plan` or `/team` waits for the message to plan.
pub fn prompt_for(pending: Option<PlanMode>, lang: Lang) -> String {
    let msg = match pending {
        None => return PROMPT.to_string(),
        Some(PlanMode::Plan) => Msg::PromptPlanPending,
        Some(PlanMode::Team) => Msg::PromptTeamPending,
    };
    format!("{} {PROMPT}", tr(lang, msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_command_again_or_off_drops_a_waiting_plan() {
        use PlanMode::{Plan, Team};
        assert_eq!(action("", Plan, None), Action::Wait);
        assert_eq!(action("", Plan, Some(Plan)), Action::Drop);
        assert_eq!(action("off", Plan, Some(Plan)), Action::Drop);
        assert_eq!(action("off", Team, Some(Plan)), Action::Drop);
        assert_eq!(action("off", Plan, None), Action::NothingToDrop);
        // `/plan` while `/team` waits makes it a plan instead.
        assert_eq!(action("", Plan, Some(Team)), Action::Wait);
        assert_eq!(action("fix it", Plan, Some(Plan)), Action::Run("fix it"));
    }

    #[test]
    fn the_prompt_shows_a_waiting_plan_in_both_languages() {
        assert_eq!(prompt_for(None, Lang::En), "› ");
        assert_eq!(prompt_for(Some(PlanMode::Plan), Lang::En), "plan › ");
        assert_eq!(prompt_for(Some(PlanMode::Team), Lang::En), "team › ");
        assert_eq!(prompt_for(Some(PlanMode::Plan), Lang::Zh), "计划 › ");
        assert_eq!(prompt_for(Some(PlanMode::Team), Lang::Zh), "团队 › ");
    }
}
