//! The planner: a sub-agent (read-only tools in plan mode, none in team mode) whose answer must be a valid JSON
//! plan. One repair round with the validation error, then the plan is refused. A goal that is plainly one step
//! becomes one task without a planner call.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::sinks::RoleSink;
use super::tool_access::{RoleTools, ToolAccess};
use super::{PlanError, PlanInvalid, parse, prompts, validate};
use crate::agent::delegation::PlanRole;
use crate::agent::{Agent, TurnOutcome};
use crate::protocol::plan::{Plan, PlanTask};
use crate::protocol::{AgentEvent, EventSink, Notice};

/// Asks the planner for a plan of `goal`; `request` is the planner's instruction (first plan, review
/// instructions or re-plan). `None` when the user cancelled.
pub async fn make_plan(
    lead: &Agent,
    access: ToolAccess,
    goal: &str,
    request: String,
    events: &dyn EventSink,
    cancel: &CancellationToken,
) -> Result<Option<Plan>, PlanError> {
    let mut planner = lead.fork_as(
        PlanRole::Planner,
        format!("{}\n\n{}", lead.system_prompt(), prompts::PLANNER_ROLE),
        events,
    );
    let registry = Arc::clone(lead.registry());
    planner.add_turn_hook(Arc::new(RoleTools::new(access, registry)));
    let sink = RoleSink { inner: events };
    let mut request = request;
    for round in 0..2 {
        let report = planner.run_turn(&request, &sink, cancel.clone()).await;
        let answer = match report.outcome {
            TurnOutcome::Cancelled => return Ok(None),
            TurnOutcome::Failed(e) => return Err(PlanError::Planner(e)),
            TurnOutcome::Finished { text }
            | TurnOutcome::CutOff { text }
            | TurnOutcome::Partial { text, .. } => text,
            TurnOutcome::Empty { .. } => String::new(),
        };
        match checked(&answer) {
            Ok(tasks) => {
                return Ok(Some(Plan {
                    goal: goal.to_string(),
                    tasks,
                }));
            }
            Err(invalid) if round == 0 => {
                events.emit(AgentEvent::Notice {
                    notice: Notice::PlanRepairing {
                        error: invalid.to_string(),
                    },
                });
                request = prompts::repair_request(&invalid.to_string());
            }
            Err(invalid) => return Err(PlanError::Invalid(invalid)),
        }
    }
    Err(PlanError::Invalid(PlanInvalid::NoJson))
}

fn checked(answer: &str) -> Result<Vec<PlanTask>, PlanInvalid> {
    let tasks = parse::extract_tasks(answer)?;
    validate::validate(&tasks)?;
    Ok(tasks)
}

/// Words that join several steps in one goal.
const STEP_JOINERS: &[&str] = &[
    " and ", " then ", " after ", " before ", " also ", "然后", "并且", "接着", "再", "和", "以及",
];

/// The one-task plan of a goal that is plainly one step: a single short line with no list, no joined clauses.
pub fn single_step(goal: &str) -> Option<Plan> {
    let goal = goal.trim();
    let words = goal.split_whitespace().count();
    let cjk = goal.chars().filter(|c| *c as u32 >= 0x2E80).count();
    let short = words <= 10 && cjk <= 20;
    let joined = STEP_JOINERS.iter().any(|j| goal.to_lowercase().contains(j))
        || goal.contains([',', ';', '\n', '，', '；', '、']);
    if goal.is_empty() || !short || joined {
        return None;
    }
    Some(Plan {
        goal: goal.to_string(),
        tasks: vec![PlanTask {
            id: "task-1".into(),
            title: goal.to_string(),
            description: String::new(),
            depends_on: Vec::new(),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_plain_goal_is_one_step() {
        let plan = single_step("Fix the typo in README.md").map(|p| p.tasks.len());
        assert_eq!(plan, Some(1));
        assert_eq!(
            single_step("修复 README 里的错别字").map(|p| p.tasks.len()),
            Some(1)
        );
    }

    #[test]
    fn joined_listed_or_long_goals_need_a_planner() {
        assert!(single_step("Write the parser and then the tests").is_none());
        assert!(single_step("Add a flag, document it").is_none());
        assert!(single_step("1. read\n2. write").is_none());
        assert!(single_step("写解析器然后写测试").is_none());
        assert!(
            single_step("Refactor the whole storage layer so that every backend shares one trait")
                .is_none()
        );
    }
}
