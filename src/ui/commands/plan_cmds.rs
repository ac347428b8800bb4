//! `/plan [task]` and `/team [task]`: the task is planned, reviewed and run now; without one, the next message
//! is.

use super::Flow;
use crate::plan::PlanMode;
use crate::ui::i18n::Msg;
use crate::ui::repl::Session;

pub(super) fn plan(session: &mut Session, args: &str) -> Flow {
    plan_with(session, args, PlanMode::Plan)
}

pub(super) fn team(session: &mut Session, args: &str) -> Flow {
    plan_with(session, args, PlanMode::Team)
}

fn plan_with(session: &mut Session, task: &str, mode: PlanMode) -> Flow {
    if task.is_empty() {
        session.plans.next_input = Some(mode);
        let msg = match mode {
            PlanMode::Plan => Msg::PlanNextInput,
            PlanMode::Team => Msg::TeamNextInput,
        };
        let style = session.surface().style;
        session.say(&style.cyan(session.tr(msg)));
    } else {
        session.run_plan_task(task, mode);
    }
    Flow::Continue
}
