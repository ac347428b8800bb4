//! What the planner, the task sub-agents, the team workers and the reviewer are told. English only: these are
//! instructions to the model, not text a person reads.

use crate::protocol::plan::{PlanTask, PlanTaskOutcome, TaskState};

/// Appended to the lead's system prompt for the planner.
pub const PLANNER_ROLE: &str = "\
You are the planner. Split the user's goal into a small plan of tasks that other agents will carry out, each \
with its own fresh conversation. You may use the read-only tools to look at the project first; do not change \
anything. Answer with one JSON object and nothing else:
{\"tasks\": [{\"id\": \"short-id\", \"title\": \"...\", \"description\": \"what to do and how to check it\", \
\"depends_on\": [\"ids of tasks that must finish first\"]}]}
Ids are unique non-empty strings. Tasks without a dependency between them run at the same time, so give a task a \
dependency when it needs the other's result or touches the same files.";

/// Appended to the lead's system prompt for a task's sub-agent.
pub const TASK_ROLE: &str = "\
You are a sub-agent carrying out one task of a larger plan. Do only this task, with your tools. When it is done, \
answer with a short summary of what you did and what you checked; if you could not do it, say why.";

/// The system prompt of a team worker.
pub const WORKER_ROLE: &str = "\
You are a worker of a team. You carry out one step at a time with your tools; a reviewer checks every step. When \
the step is done, answer with a short summary of what you did and how you checked it.";

/// The system prompt of the team reviewer (it has no tools).
pub const REVIEWER_ROLE: &str = "\
You are the reviewer of a team. You have no tools. You get a step, the worker's report and the diff of the files it \
changed, and decide whether the step is done; judge the diff, not the report's claims. Answer with one JSON object: {\"approved\": true} when it is, or {\"approved\": false, \"reasons\": \
[\"what is missing or wrong\"]} when it is not.";

/// The planner's request for `goal`, with what the person added in review.
pub fn plan_request(goal: &str, instructions: &[String]) -> String {
    let mut text = format!("Make a plan for this goal:\n{goal}");
    if !instructions.is_empty() {
        text.push_str("\n\nThe user added these instructions:\n");
        for line in instructions {
            text.push_str(&format!("- {line}\n"));
        }
    }
    text
}

/// The repair round: the planner's last answer was not a valid plan.
pub fn repair_request(error: &str) -> String {
    format!(
        "That plan is not valid: {error}. Answer again with the whole corrected plan as one JSON object \
         (unique string ids, dependencies only on declared ids, no cycles)."
    )
}

/// A re-plan after failures: what was done, what failed and what never ran.
pub fn replan_request(goal: &str, done: &[PlanTaskOutcome], last: &[PlanTaskOutcome]) -> String {
    let mut text = format!(
        "Make a new plan for this goal:\n{goal}\n\nThe last plan failed too often. Plan only what remains; do \
         not repeat finished tasks."
    );
    let finished: Vec<&PlanTaskOutcome> = done
        .iter()
        .chain(last.iter().filter(|o| o.state == TaskState::Done))
        .collect();
    let section = |title: &str, outcomes: &[&PlanTaskOutcome]| {
        let mut s = String::new();
        if !outcomes.is_empty() {
            s.push_str(&format!("\n\n{title}:"));
            for o in outcomes {
                s.push_str(&format!("\n- {} ({}): {}", o.title, o.task_id, o.summary));
            }
        }
        s
    };
    text.push_str(&section("Finished", &finished));
    let failed: Vec<&PlanTaskOutcome> = last
        .iter()
        .filter(|o| o.state == TaskState::Failed)
        .collect();
    text.push_str(&section("Failed", &failed));
    let skipped: Vec<&PlanTaskOutcome> = last
        .iter()
        .filter(|o| o.state == TaskState::Skipped)
        .collect();
    text.push_str(&section("Not run", &skipped));
    text
}

/// A task's instructions for its sub-agent (or worker), with the results of the tasks it depends on. The line
/// `Your task (id `…`)` names the task, so logs and tests can tell the sub-agents' requests apart.
pub fn task_request(goal: &str, task: &PlanTask, inputs: &[&PlanTaskOutcome]) -> String {
    let mut text = format!(
        "The overall goal: {goal}\n\nYour task (id `{}`): {}",
        task.id, task.title
    );
    if !task.description.trim().is_empty() {
        text.push_str(&format!("\n\n{}", task.description.trim()));
    }
    if !inputs.is_empty() {
        text.push_str("\n\nResults of the tasks it builds on:");
        for input in inputs {
            text.push_str(&format!("\n- {}: {}", input.title, input.summary));
        }
    }
    text
}

/// The reviewer's request: the step and the worker's report.
pub fn review_request(task: &PlanTask, report: &str, changes: Option<&str>) -> String {
    let changes = match changes {
        Some(diff) => {
            format!("The worker's file changes in this step (unified diff):\n```diff\n{diff}\n```")
        }
        None => "The worker changed no files in this step.".to_string(),
    };
    format!(
        "Review step `{}`: {}\n{}\n\nThe worker reports:\n{report}\n\n{changes}\n\nIs the step done? Answer with the \
         JSON object.",
        task.id, task.title, task.description
    )
}

/// Sent back to the worker when the reviewer rejected its step.
pub fn rework_request(reasons: &str) -> String {
    format!("The reviewer did not approve the step:\n{reasons}\n\nFix it, then report again.")
}
