//! `--tools LIST`: only these tools are offered to the model (Claude's names or paicli's, `mcp__server__*` for a
//! server's tools, `""` for none, `default` for all), and a call of any other tool is refused. A bare tool name in
//! `--disallowedTools` is taken out the same way, as Claude takes it out of the model's context (a rule with a
//! pattern, `Bash(rm:*)`, stays an approval rule).

use std::sync::Arc;

use async_trait::async_trait;

use super::flags::split_rules;
use crate::protocol::{CallGate, GateCall, GateVerdict, ToolFilter, ToolSpec, TurnHook, TurnScope};
use crate::tools::claude_names::from_claude_name;

/// The tools `--tools` lists (`None`: every tool) and the ones `--disallowedTools` names, in paicli's names.
#[derive(Debug, PartialEq, Eq)]
pub struct ToolLimit {
    names: Option<Vec<String>>,
    removed: Vec<String>,
}

impl ToolLimit {
    /// The limit `--tools` (`tools`) and the bare names of `--disallowedTools` (`disallowed`) set; `None` when
    /// every tool stays.
    pub fn of_flags(tools: Option<&str>, disallowed: &[String]) -> Option<Arc<ToolLimit>> {
        let names = tools
            .map(|text| {
                split_rules(text)
                    .iter()
                    .map(|n| from_claude_name(n).to_string())
                    .collect::<Vec<_>>()
            })
            .filter(|names| !names.iter().any(|n| n == "default"));
        let removed: Vec<String> = disallowed
            .iter()
            .flat_map(|rules| split_rules(rules))
            .filter(|rule| !rule.contains('('))
            .map(|n| from_claude_name(&n).to_string())
            .collect();
        (names.is_some() || !removed.is_empty()).then(|| Arc::new(ToolLimit { names, removed }))
    }

    /// Whether the tool `name` (paicli's name) may be offered and run.
    pub fn allows(&self, name: &str) -> bool {
        let listed = |names: &[String]| names.iter().any(|n| matches(n, name));
        self.names.as_deref().is_none_or(listed) && !listed(&self.removed)
    }
}

fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
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
                    "`{}` is not among the tools this run may use (--tools, --disallowedTools)",
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
        let limit =
            ToolLimit::of_flags(Some("Read,Bash mcp__github__*"), &[]).unwrap_or_else(|| panic!());
        assert!(limit.allows("read_file") && limit.allows("execute_command"));
        assert!(limit.allows("mcp__github__list_issues"));
        assert!(!limit.allows("write_file"));
        assert!(
            !ToolLimit::of_flags(Some(""), &[])
                .unwrap_or_else(|| panic!())
                .allows("read_file")
        );
        assert_eq!(ToolLimit::of_flags(Some("default"), &[]), None);
    }

    #[test]
    fn bare_disallowed_names_are_taken_out_and_patterns_stay_rules() {
        let disallowed = ["Bash,WebFetch".to_string(), "Write(secrets/*)".to_string()];
        let limit = ToolLimit::of_flags(None, &disallowed).unwrap_or_else(|| panic!());
        assert!(!limit.allows("execute_command") && !limit.allows("web_fetch"));
        assert!(limit.allows("write_file") && limit.allows("read_file"));
        let both = ToolLimit::of_flags(Some("Read,Bash"), &disallowed).unwrap_or_else(|| panic!());
        assert!(both.allows("read_file") && !both.allows("execute_command"));
        assert_eq!(ToolLimit::of_flags(Some("default"), &[]), None);
        assert_eq!(ToolLimit::of_flags(None, &["Bash(rm:*)".to_string()]), None);
    }
}
