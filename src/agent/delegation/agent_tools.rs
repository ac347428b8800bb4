//! The tools a sub-agent may use: those its definition names (paicli or Claude Code names), read-only ones, or
//! all; `agent` only when the definition names it and the depth allows. A turn hook hides the rest from the
//! tool list and a gate refuses them if called anyway. Never wider than the lead's tools: it only narrows.

use std::sync::Arc;

use async_trait::async_trait;

use crate::agents::ToolChoice;
use crate::protocol::{
    CallGate, GateCall, GateVerdict, Risk, ToolFilter, ToolSpec, ToolTraits, ToolTraitsLookup,
    TurnHook, TurnScope,
};
use crate::tools::claude_names::from_claude_name;
use crate::tools::delegate::AGENT_TOOL;

/// The denial code of a call outside a sub-agent's tools.
pub const AGENT_NO_TOOL: &str = "AGENT_NO_TOOL";

/// The narrowing hook of one sub-agent.
#[derive(Clone)]
pub(super) struct AgentTools {
    pub(super) agent: String,
    pub(super) choice: ToolChoice,
    pub(super) may_delegate: bool,
    pub(super) tools: Arc<dyn ToolTraitsLookup>,
}

impl AgentTools {
    fn allows(&self, name: &str, traits: Option<ToolTraits>) -> bool {
        if name == AGENT_TOOL {
            return self.may_delegate;
        }
        match &self.choice {
            ToolChoice::All => true,
            ToolChoice::ReadOnly => traits.is_some_and(|t| {
                t.risk == Risk::None && !t.edits_files && !t.runs_commands && !t.writes_memory
            }),
            ToolChoice::Named(names) => names.iter().any(|n| from_claude_name(n) == name),
        }
    }
}

impl TurnHook for AgentTools {
    fn begin_turn(&self, _submitted: &str) -> TurnScope {
        let rule = Arc::new(self.clone());
        TurnScope {
            gates: vec![Arc::clone(&rule) as Arc<dyn CallGate>],
            filter: Some(rule as Arc<dyn ToolFilter>),
            notices: Vec::new(),
        }
    }

    /// Each sub-agent gets the hook of its own definition.
    fn carries_into_forks(&self) -> bool {
        false
    }
}

impl ToolFilter for AgentTools {
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec> {
        tools
            .iter()
            .filter(|spec| self.allows(&spec.name, self.tools.traits_of(&spec.name)))
            .cloned()
            .collect()
    }
}

#[async_trait]
impl CallGate for AgentTools {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if self.allows(call.name, Some(call.traits)) {
            GateVerdict::Allow
        } else {
            GateVerdict::deny(
                AGENT_NO_TOOL,
                format!("`{}` is not one of agent {}'s tools", call.name, self.agent),
            )
        }
    }
}
