//! The planner: a sub-agent (read-only tools in plan mode, none in team mode) whose answer must be a valid JSON
//! plan. One repair round with the validation error, then the plan is refused. Every goal goes to the planner,
//! which may answer with a single task.

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
