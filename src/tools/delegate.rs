//! The `agent` tool: the model hands a task to a sub-agent defined in the session's agent catalog. The tool only
//! declares itself and passes the call on; the agent layer runs the sub-agent (see [`Delegation`]), because a
//! sub-agent is an `Agent` and tools sit below it.

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{Tool, ToolContext, ToolOutcome, ToolTraits};
use crate::protocol::{Risk, ToolKind};

/// The tool's name.
pub const AGENT_TOOL: &str = "agent";

/// One call of the `agent` tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelegateTask {
    /// The id of the `agent` call: the sub-agent's events carry it as their parent.
    pub call_id: String,
    /// The definition to run.
    pub agent: String,
    /// The task, the sub-agent's first user message.
    pub prompt: String,
    /// A few words for people (the call's line).
    pub description: String,
}

/// Runs sub-agents for `agent` calls; the agent layer implements it and puts it in the turn's [`ToolContext`].
#[async_trait]
pub trait Delegation: Send + Sync {
    /// Runs `task` to its end (or the context's cancel) and returns the sub-agent's final report.
    async fn delegate(&self, task: DelegateTask, ctx: &ToolContext) -> ToolOutcome;
}

/// The `agent` tool; its description lists the agents it may run.
pub struct AgentTool {
    description: String,
}

impl AgentTool {
    /// A tool whose description lists `agents` (name and one line each).
    pub fn new<'a>(agents: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut description = String::from(
            "Run a sub-agent on a self-contained task; returns its report. Calls in one reply run in parallel. \
             Agents:",
        );
        for (name, line) in agents {
            description.push_str(&format!("\n- {name}: {line}"));
        }
        AgentTool { description }
    }
}

#[async_trait]
impl Tool for AgentTool {
    fn name(&self) -> &str {
        AGENT_TOOL
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "agent": {"type": "string"},
                "prompt": {"type": "string", "description": "The whole task; it sees nothing else."},
                "description": {"type": "string", "description": "3-5 words"}
            },
            "required": ["agent", "prompt"]
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Think,
            audited: false,
            // Its report may carry what the sub-agent read from outside.
            external_content: true,
            parallel_safe: true,
            delegates: true,
            ..ToolTraits::side_effect(Risk::None)
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        let agent = args.get("agent").and_then(Value::as_str)?;
        match args.get("description").and_then(Value::as_str) {
            Some(d) if !d.is_empty() => Some(format!("{agent}: {d}")),
            _ => Some(agent.to_string()),
        }
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let text = |key: &str| {
            args.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let Some(delegation) = &ctx.delegation else {
            return ToolOutcome::failed("sub-agents are not available here");
        };
        let task = DelegateTask {
            call_id: ctx.progress.call_id().to_string(),
            agent: text("agent"),
            prompt: text("prompt"),
            description: text("description"),
        };
        delegation.delegate(task, ctx).await
    }
}
