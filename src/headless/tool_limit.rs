//! `--tools LIST`: only these tools are offered to the model (Claude's names or paicli's, `mcp__server__*` for a
//! server's tools, `""` for none, `default` for all), and a call of any other tool is refused.

use std::sync::Arc;

use async_trait::async_trait;

use super::flags::split_rules;
use crate::protocol::{CallGate, GateCall, GateVerdict, ToolFilter, ToolSpec, TurnHook, TurnScope};
use crate::tools::claude_names::from_claude_name;

/// The tools `--tools` lists, in paicli's names.
#[derive(Debug, PartialEq, Eq)]
pub struct ToolLimit {
    names: Vec<String>,
}

impl ToolLimit {
    /// The limit `--tools` sets; `None` for `default` (every tool).
    pub fn from_flag(text: &str) -> Option<Arc<ToolLimit>> {
        let names: Vec<String> = split_rules(text)
            .iter()
            .map(|n| from_claude_name(n).to_string())
            .collect();
        if names.iter().any(|n| n == "default") {
            return None;
        }
        Some(Arc::new(ToolLimit { names }))
    }

    /// Whether the tool `name` (paicli's name) may be offered and run.
    pub fn allows(&self, name: &str) -> bool {
        self.names.iter().any(|n| match n.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => n == name,
        })
    }
}

impl ToolFilter for ToolLimit {
    fn filter(&self, tools: &[ToolSpec]) -> Vec<ToolSpec> {
        tools
            .iter()
            .filter(|t| self.allows(&t.name))
            .cloned()
            .collect()
    }
}

#[async_trait]
impl CallGate for ToolLimit {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if self.allows(call.name) {
            GateVerdict::Allow
        } else {
            GateVerdict::deny(
                "TOOL_NOT_ALLOWED",
                format!(
                    "`{}` is not among the tools this run may use (--tools)",
                    call.name
                ),
            )
        }
    }
}

/// The limit as a turn hook: its filter and its gate in every turn.
pub struct LimitHook(pub Arc<ToolLimit>);

impl TurnHook for LimitHook {
    fn begin_turn(&self, _submitted: &str) -> TurnScope {
        TurnScope {
            gates: vec![self.0.clone()],
            filter: Some(self.0.clone()),
            notices: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_names_prefixes_and_default() {
        let limit = ToolLimit::from_flag("Read,Bash mcp__github__*").unwrap_or_else(|| panic!());
        assert!(limit.allows("read_file") && limit.allows("execute_command"));
        assert!(limit.allows("mcp__github__list_issues"));
        assert!(!limit.allows("write_file"));
        assert!(
            !ToolLimit::from_flag("")
                .unwrap_or_else(|| panic!())
                .allows("read_file")
        );
        assert_eq!(ToolLimit::from_flag("default"), None);
    }
}
