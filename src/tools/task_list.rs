//! `update_plan`: the model keeps a live task list (Codex's shape). The list travels as typed data on the
//! result; the agent keeps the latest one and the front-ends show it.

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits};
use crate::protocol::{Risk, TaskList, ToolKind};

/// The tool's name.
pub const UPDATE_PLAN: &str = "update_plan";

/// The `update_plan` tool.
pub struct UpdatePlan;

#[async_trait]
impl Tool for UpdatePlan {
    fn name(&self) -> &str {
        UPDATE_PLAN
    }

    fn description(&self) -> &str {
        "A visible task list for multi-step work: send the whole list each time, at most one step in_progress."
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "explanation": {"type": "string"},
                "plan": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "step": {"type": "string"},
                            "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]}
                        },
                        "required": ["step", "status"]
                    }
                }
            },
            "required": ["plan"]
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Think,
            audited: false,
            ..ToolTraits::side_effect(Risk::None)
        }
    }

    /// `[done/all]` and the step in progress, in no language of ours (the REPL may speak Chinese).
    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        let steps = args.get("plan").and_then(Value::as_array)?;
        fn status(step: &Value) -> &str {
            step.get("status")
                .and_then(Value::as_str)
                .unwrap_or_default()
        }
        let done = steps.iter().filter(|s| status(s) == "completed").count();
        let current = steps
            .iter()
            .find(|s| status(s) == "in_progress")
            .and_then(|s| s.get("step").and_then(Value::as_str));
        Some(match current {
            Some(step) => format!("[{done}/{}] {}", steps.len(), step.trim()),
            None => format!("[{done}/{}]", steps.len()),
        })
    }

    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let list: TaskList = match serde_json::from_value(Value::Object(args.clone())) {
            Ok(list) => list,
            Err(e) => return ToolOutcome::failed(format!("invalid plan: {e}")),
        };
        if let Err(e) = list.check() {
            return ToolOutcome::failed(format!("invalid plan: {e}. The list was not changed."));
        }
        ToolOutcome::Ok(ToolOutput {
            text: "Plan updated".to_string(),
            task_list: Some(list),
            ..ToolOutput::default()
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn ctx() -> (tempfile::TempDir, ToolContext) {
        let dir = tempfile::tempdir().unwrap();
        let guard = crate::guard::path_guard::PathGuard::new(dir.path()).unwrap();
        let spill = super::super::SpillStore::new(dir.path(), false, 1000);
        let ctx = ToolContext::new(guard, spill, super::super::ToolLimits::default());
        (dir, ctx)
    }

    #[tokio::test]
    async fn a_valid_list_travels_on_the_result_and_a_bad_one_is_explained() {
        let (_dir, ctx) = ctx();
        let args = json!({"plan": [{"step": "read", "status": "completed"}, {"step": "fix", "status": "in_progress"}]});
        let ToolOutcome::Ok(out) = UpdatePlan.execute(args.as_object().unwrap(), &ctx).await else {
            panic!("refused")
        };
        assert_eq!(out.task_list.unwrap().plan.len(), 2);
        assert_eq!(
            UpdatePlan.summary(args.as_object().unwrap()).as_deref(),
            Some("[1/2] fix")
        );
        let two = json!({"plan": [{"step": "a", "status": "in_progress"}, {"step": "b", "status": "in_progress"}]});
        let outcome = UpdatePlan.execute(two.as_object().unwrap(), &ctx).await;
        assert!(
            outcome.model_text().contains("at most one may be"),
            "{outcome:?}"
        );
        let bad = json!({"plan": [{"step": "a", "status": "done"}]});
        let outcome = UpdatePlan.execute(bad.as_object().unwrap(), &ctx).await;
        assert!(outcome.model_text().contains("invalid plan"), "{outcome:?}");
    }
}
