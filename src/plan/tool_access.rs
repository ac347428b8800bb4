//! What tools a plan role may use: the planner researches with read-only tools, the team's planner and reviewer
//! get none. A turn hook hides the rest from the tool list and a gate refuses them if called anyway.

use std::sync::Arc;

use async_trait::async_trait;

use crate::protocol::{
    CallGate, GateCall, GateVerdict, Risk, ToolFilter, ToolSpec, ToolTraits, ToolTraitsLookup,
    TurnHook, TurnScope,
};

/// The denial code of a call a plan role may not make.
pub const PLAN_ROLE_NO_TOOL: &str = "PLAN_ROLE_NO_TOOL";

/// Which tools a role gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolAccess {
    /// Tools that only look: no risk, no file edits, no commands, no memory writes.
    ReadOnly,
    /// No tools at all.
    NoTools,
}

impl ToolAccess {
    fn allows(self, traits: Option<ToolTraits>) -> bool {
        match (self, traits) {
            (ToolAccess::ReadOnly, Some(t)) => {
                t.risk == Risk::None && !t.edits_files && !t.runs_commands && !t.writes_memory
            }
            _ => false,
        }
    }
}

/// The turn hook that narrows a role's tools.
pub struct RoleTools {
    access: ToolAccess,
    tools: Arc<dyn ToolTraitsLookup>,
}

impl RoleTools {
    /// A hook that offers `access`'s tools, judged by what `tools` (the registry) says each one is.
    pub fn new(access: ToolAccess, tools: Arc<dyn ToolTraitsLookup>) -> Self {
        RoleTools { access, tools }
    }
}

impl TurnHook for RoleTools {
    fn begin_turn(&self, _submitted: &str) -> TurnScope {
        let rule = Arc::new(Rule {
            access: self.access,
            tools: Arc::clone(&self.tools),
        });
        TurnScope {
            gates: vec![Arc::clone(&rule) as Arc<dyn CallGate>],
            filter: Some(rule),
            notices: Vec::new(),
        }
    }
}

struct Rule {
    access: ToolAccess,
    tools: Arc<dyn ToolTraitsLookup>,
}

impl ToolFilter for Rule {
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec> {
        tools
            .iter()
            .filter(|spec| self.access.allows(self.tools.traits_of(&spec.name)))
            .cloned()
            .collect()
    }
}

#[async_trait]
impl CallGate for Rule {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if self.access.allows(Some(call.traits)) {
            GateVerdict::Allow
        } else {
            GateVerdict::deny(
                PLAN_ROLE_NO_TOOL,
                format!(
                    "`{}` is not available while planning or reviewing",
                    call.name
                ),
            )
        }
    }
}
