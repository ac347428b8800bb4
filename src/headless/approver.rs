//! `--permission-prompt-tool stdio`: every call paicli would ask a person about becomes a `can_use_tool` control
//! request, in Claude's tool names and input fields; `allow` may rewrite the input (`updatedInput`), `deny` gives
//! the model a reason and may stop the turn (`interrupt`). A plan made in plan mode is asked about as Claude
//! asks about leaving plan mode: a `can_use_tool` request for `ExitPlanMode` with the plan.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::channel::Channel;
use super::running::RunningTurn;
use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};
use crate::tools::claude_names::{from_claude_input, to_claude_input, to_claude_name};

/// Claude's name of the question about a plan.
pub const EXIT_PLAN_MODE: &str = "ExitPlanMode";

/// Asks the client.
pub struct ClientApprover {
    channel: Arc<Channel>,
    running: Arc<RunningTurn>,
}

impl ClientApprover {
    pub fn new(channel: Arc<Channel>, running: Arc<RunningTurn>) -> Self {
        ClientApprover { channel, running }
    }

    /// Sends `can_use_tool` and reads the answer: `Ok(updated input)` for allow, `Err(reason)` for deny.
    async fn can_use_tool(
        &self,
        tool_name: &str,
        input: Map<String, Value>,
        tool_use_id: &str,
    ) -> Result<Option<Map<String, Value>>, Option<String>> {
        let answer = self
            .channel
            .request(json!({
                "subtype": "can_use_tool",
                "tool_name": tool_name,
                "input": input,
                "tool_use_id": tool_use_id,
                "permission_suggestions": [],
            }))
            .await
            .map_err(Some)?;
        match answer.get("behavior").and_then(Value::as_str) {
            Some("allow") => Ok(answer
                .get("updatedInput")
                .and_then(Value::as_object)
                .cloned()),
            _ => {
                if answer.get("interrupt").and_then(Value::as_bool) == Some(true) {
                    self.running.interrupt();
                }
                Err(answer
                    .get("message")
                    .and_then(Value::as_str)
                    .filter(|m| !m.is_empty())
                    .map(str::to_string))
            }
        }
    }
}

#[async_trait]
impl Approver for ClientApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        let input = to_claude_input(&request.tool, &request.args);
        match self
            .can_use_tool(
                to_claude_name(&request.tool),
                input.clone(),
                &request.call_id,
            )
            .await
        {
            Ok(Some(updated)) if updated != input => {
                ApprovalAnswer::Modify(from_claude_input(&request.tool, &updated))
            }
            Ok(_) => ApprovalAnswer::Approve,
            Err(reason) => ApprovalAnswer::Reject { reason },
        }
    }
}

#[async_trait]
impl PlanReviewer for ClientApprover {
    async fn review(&self, plan: &Plan, _revision: u32) -> PlanDecision {
        let mut input = Map::new();
        input.insert("plan".to_string(), Value::String(plan_text(plan)));
        let id = format!("plan_{}", super::channel::uuid());
        match self.can_use_tool(EXIT_PLAN_MODE, input, &id).await {
            Ok(_) => PlanDecision::Run,
            Err(Some(reason)) => PlanDecision::Replan {
                instructions: reason,
            },
            Err(None) => PlanDecision::Cancel,
        }
    }
}

/// The plan as Markdown, the way `ExitPlanMode` carries it.
pub fn plan_text(plan: &Plan) -> String {
    let mut text = format!("# {}\n", plan.goal);
    for task in &plan.tasks {
        text.push_str(&format!("\n- **{}** {}", task.id, task.title));
        if !task.description.is_empty() {
            text.push_str(&format!(": {}", task.description));
        }
    }
    text
}
