//! Team mode: a planner without tools, two workers (the only roles with tools) and a reviewer without tools that
//! judges the worker's report and the diff of its file changes, and passes a step only on the JSON boolean
//! `approved: true`. Anything else (the string "true", prose, no JSON) is a
//! rejection whose reasons go back to the worker, at most twice per step.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::changes::ChangeLog;
use super::execute::{TaskResult, TaskRunner};
use super::sinks::{RoleSink, TaskSink};
use super::sub_agent::result_of;
use super::tool_access::{RoleTools, ToolAccess};
use super::{parse, prompts};
use crate::agent::delegation::PlanRole;
use crate::agent::{Agent, TurnOutcome};
use crate::protocol::plan::{PlanTask, TaskState};
use crate::protocol::{AgentEvent, EventSink, Notice};

/// Workers in a team.
pub const WORKERS: usize = 2;
/// Times a rejected step goes back to its worker.
pub const MAX_RETRIES: u32 = 2;

/// What the reviewer decided about a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Approved,
    /// Rejected, with the reasons for the worker.
    Rejected {
        reasons: String,
    },
}

/// Reads the reviewer's answer: only a JSON object whose `approved` is the boolean `true` passes.
pub fn verdict(answer: &str) -> Verdict {
    let object = parse::json_values(answer)
        .into_iter()
        .find_map(|value| match value {
            Value::Object(object) if object.contains_key("approved") => Some(object),
            _ => None,
        });
    let Some(object) = object else {
        let text = answer.trim();
        return Verdict::Rejected {
            reasons: if text.is_empty() {
                "the reviewer gave no verdict".into()
            } else {
                format!("the reviewer gave no JSON verdict: {text}")
            },
        };
    };
    let stated = match object.get("reasons").or_else(|| object.get("reason")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => format!("- {s}"),
                other => format!("- {other}"),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    match object.get("approved") {
        Some(Value::Bool(true)) => Verdict::Approved,
        Some(Value::Bool(false)) => Verdict::Rejected {
            reasons: if stated.is_empty() {
                "the reviewer did not approve the step".into()
            } else {
                stated
            },
        },
        Some(other) => Verdict::Rejected {
            reasons: format!("`approved` must be the JSON boolean true, not {other}. {stated}")
                .trim()
                .to_string(),
        },
        None => Verdict::Rejected { reasons: stated },
    }
}

/// Runs each step on one of the two workers, then has the reviewer judge it. A worker starts each step with a
/// fresh conversation (the step's instructions carry what it builds on) and keeps it through the step's retries.
pub struct Team<'a> {
    pub lead: &'a Agent,
}

impl Team<'_> {
    async fn review(
        &self,
        task: &PlanTask,
        report: &str,
        changes: Option<&str>,
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> Option<Verdict> {
        let mut reviewer = self.lead.fork_as(
            PlanRole::Reviewer,
            prompts::REVIEWER_ROLE.to_string(),
            events,
        );
        let registry = Arc::clone(self.lead.registry());
        reviewer.add_turn_hook(Arc::new(RoleTools::new(ToolAccess::NoTools, registry)));
        let sink = RoleSink { inner: events };
        let request = prompts::review_request(task, report, changes);
        match reviewer
            .run_turn(&request, &sink, cancel.clone())
            .await
            .outcome
        {
            TurnOutcome::Cancelled => None,
            TurnOutcome::Finished { text } | TurnOutcome::CutOff { text } => Some(verdict(&text)),
            other => Some(Verdict::Rejected {
                reasons: result_of(other).summary,
            }),
        }
    }
}

#[async_trait]
impl TaskRunner for Team<'_> {
    async fn run(
        &self,
        slot: usize,
        task: &PlanTask,
        request: String,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TaskResult {
        let mut worker = self.lead.fork_as(
            PlanRole::Worker,
            format!(
                "{}\n\n{}\nYou are worker {} of {WORKERS}.",
                self.lead.system_prompt(),
                prompts::WORKER_ROLE,
                slot % WORKERS + 1
            ),
            events,
        );
        let sink = TaskSink {
            task_id: task.id.clone(),
            inner: events,
        };
        super::sub_agent::record_in_sidechain(self.lead, &mut worker, &task.id, &sink);
        // The reviewer sees every change of the step, across its retries.
        let log = ChangeLog::new(&sink);
        let mut request = request;
        let mut retries = 0;
        loop {
            let report = worker
                .run_subagent_turn(&request, &log, cancel.clone())
                .await;
            let result = result_of(report.outcome);
            if result.state != TaskState::Done {
                return result;
            }
            let changes = log.changes();
            match self
                .review(task, &result.summary, changes.as_deref(), &sink, &cancel)
                .await
            {
                None => return result_of(TurnOutcome::Cancelled),
                Some(Verdict::Approved) => {
                    sink.emit(AgentEvent::Notice {
                        notice: Notice::PlanStepApproved,
                    });
                    return result;
                }
                Some(Verdict::Rejected { reasons }) => {
                    if retries == MAX_RETRIES {
                        sink.emit(AgentEvent::Notice {
                            notice: Notice::PlanStepRejectedFinal {
                                reasons: reasons.clone(),
                                retries,
                            },
                        });
                        return TaskResult {
                            state: TaskState::Failed,
                            summary: format!("the reviewer rejected the step: {reasons}"),
                        };
                    }
                    retries += 1;
                    sink.emit(AgentEvent::Notice {
                        notice: Notice::PlanStepRejected {
                            reasons: reasons.clone(),
                            retry: retries,
                            max: MAX_RETRIES,
                        },
                    });
                    request = prompts::rework_request(&reasons);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_json_boolean_true_approves() {
        assert_eq!(verdict(r#"{"approved": true}"#), Verdict::Approved);
        assert_eq!(
            verdict("Looks good.\n```json\n{\"approved\": true}\n```"),
            Verdict::Approved
        );
        for answer in [
            r#"{"approved": "true"}"#,
            r#"{"approved": 1}"#,
            r#"{"approved": false, "reasons": ["no tests"]}"#,
            "approved: true",
            "Yes, approved.",
            "",
        ] {
            assert!(
                matches!(verdict(answer), Verdict::Rejected { .. }),
                "{answer:?} must be a rejection"
            );
        }
    }

    #[test]
    fn the_reasons_reach_the_worker() {
        assert_eq!(
            verdict(r#"{"approved": false, "reasons": ["no tests", "typo"]}"#),
            Verdict::Rejected {
                reasons: "- no tests\n- typo".into()
            }
        );
        let Verdict::Rejected { reasons } = verdict(r#"{"approved": "true"}"#) else {
            panic!("a string is not a boolean");
        };
        assert!(reasons.contains("boolean"), "{reasons}");
    }
}
