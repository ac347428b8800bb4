//! The tools on offer, keyed and listed by name so the request's tool list is byte-stable across turns.
//!
//! Built-in tools are registered once; groups of tools that arrive late and change at runtime (one MCP server's
//! tools) are swapped atomically with [`ToolRegistry::replace_group`], and a generation counter tells the agent
//! when to rebuild its cached definitions.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use serde_json::{Map, Value};

use super::Tool;
use crate::llm::ToolSpec;
use crate::protocol::{ToolTraits, ToolTraitsLookup};

/// The tools on offer, kept sorted by name.
#[derive(Default)]
pub struct ToolRegistry {
    state: RwLock<State>,
    /// Bumped on every change, so cached definitions know when they are stale.
    generation: AtomicU64,
}

#[derive(Default)]
struct State {
    tools: BTreeMap<String, Arc<dyn Tool>>,
    /// Tool names owned by each runtime group.
    groups: BTreeMap<String, Vec<String>>,
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// A registry holding `tools`.
    pub fn with_tools(tools: impl IntoIterator<Item = Arc<dyn Tool>>) -> Self {
        let mut registry = Self::new();
        for tool in tools {
            registry.register(tool);
        }
        registry
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a tool; a tool with the same name is replaced.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.write().tools.insert(tool.name().to_string(), tool);
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// Removes a tool by name, returning it.
    pub fn unregister(&mut self, name: &str) -> Option<Arc<dyn Tool>> {
        let removed = self.write().tools.remove(name);
        self.generation.fetch_add(1, Ordering::Release);
        removed
    }

    /// Puts `tool` in place of the tool of the same name already on offer (a built-in whose description changed,
    /// as the `agent` tool's when agents are added); `false`, and nothing added, when there is none.
    pub fn replace(&self, tool: Arc<dyn Tool>) -> bool {
        let mut state = self.write();
        let Some(slot) = state.tools.get_mut(tool.name()) else {
            return false;
        };
        *slot = tool;
        drop(state);
        self.generation.fetch_add(1, Ordering::Release);
        true
    }

    /// Replaces every tool of `group` with `tools` in one step (an empty list removes the group). Readers see
    /// either the old set or the new one, never a mix. A name held by the built-ins or another group is skipped.
    pub fn replace_group(&self, group: &str, tools: Vec<Arc<dyn Tool>>) {
        let mut state = self.write();
        for name in state.groups.remove(group).unwrap_or_default() {
            state.tools.remove(&name);
        }
        let mut owned = Vec::with_capacity(tools.len());
        for tool in tools {
            let name = tool.name().to_string();
            if state.tools.contains_key(&name) {
                tracing::warn!(
                    "tool `{name}` from `{group}` clashes with an existing tool; skipped"
                );
                continue;
            }
            state.tools.insert(name.clone(), tool);
            owned.push(name);
        }
        if !owned.is_empty() {
            state.groups.insert(group.to_string(), owned);
        }
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// Changes so far; compare with an earlier value to see whether the tool set changed.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Fresh definitions when the registry changed since `*seen` (which is then updated), else `None`.
    pub fn specs_if_changed(&self, seen: &mut u64) -> Option<Arc<[ToolSpec]>> {
        let now = self.generation();
        if now == *seen {
            return None;
        }
        *seen = now;
        Some(self.specs().into())
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.read().tools.get(name).cloned()
    }

    /// What the tool called `name` declared itself to be.
    pub fn traits_of(&self, name: &str) -> Option<ToolTraits> {
        self.read().tools.get(name).map(|tool| tool.traits())
    }

    /// Tool names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.read().tools.keys().cloned().collect()
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.read().tools.len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.read().tools.is_empty()
    }

    /// Definitions sorted by name; schemas have their keys sorted so serialization is byte-identical.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.read()
            .tools
            .values()
            .map(|tool| ToolSpec {
                name: tool.name().to_string(),
                description: tool.description().to_string(),
                parameters: sort_keys(tool.parameters()),
            })
            .collect()
    }
}

impl ToolTraitsLookup for ToolRegistry {
    fn traits_of(&self, name: &str) -> Option<ToolTraits> {
        ToolRegistry::traits_of(self, name)
    }
}

/// Rebuilds every object with its keys in sorted order (a no-op unless serde_json keeps insertion order).
fn sort_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect::<Map<_, _>>(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::tools::{ToolContext, ToolOutcome};
    use async_trait::async_trait;
    use serde_json::json;

    struct Named(&'static str);

    #[async_trait]
    impl Tool for Named {
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "A test tool."
        }
        fn parameters(&self) -> Value {
            json!({
                "type": "object",
                "required": ["path"],
                "properties": {
                    "zeta": {"type": "integer", "description": "z"},
                    "path": {"type": "string", "description": "p"},
                },
            })
        }
        async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
            ToolOutcome::ok("")
        }
    }

    fn registry(order: &[&'static str]) -> ToolRegistry {
        ToolRegistry::with_tools(order.iter().map(|n| Arc::new(Named(n)) as Arc<dyn Tool>))
    }

    #[test]
    fn specs_are_sorted_by_name() {
        let r = registry(&["write_file", "read_file", "glob_files", "execute_command"]);
        let names: Vec<String> = r.specs().into_iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["execute_command", "glob_files", "read_file", "write_file"]
        );
        assert_eq!(
            r.names(),
            ["execute_command", "glob_files", "read_file", "write_file"]
        );
        assert_eq!(r.len(), 4);
        assert!(!r.is_empty());
    }

    #[test]
    fn specs_serialize_byte_identically_across_calls_and_registration_orders() {
        let a = registry(&["b", "c", "a"]);
        let b = registry(&["a", "b", "c"]);
        let first = serde_json::to_string(&a.specs()).unwrap();
        assert_eq!(first, serde_json::to_string(&a.specs()).unwrap());
        assert_eq!(first, serde_json::to_string(&b.specs()).unwrap());
        // Keys inside the schema come out sorted.
        let p = first.find("\"path\"").unwrap();
        let z = first.find("\"zeta\"").unwrap();
        assert!(p < z);
    }

    #[test]
    fn register_replaces_and_unregister_removes() {
        let mut r = registry(&["a", "b"]);
        r.register(Arc::new(Named("a")));
        assert_eq!(r.len(), 2);
        assert!(r.unregister("a").is_some());
        assert!(r.get("a").is_none());
        assert!(r.get("b").is_some());
        assert!(ToolRegistry::new().is_empty());
    }

    #[test]
    fn replace_group_swaps_one_groups_tools_and_bumps_the_generation() {
        let r = registry(&["read_file"]);
        let mut seen = r.generation();
        assert!(r.specs_if_changed(&mut seen).is_none());
        r.replace_group(
            "s",
            vec![Arc::new(Named("mcp__s__b")), Arc::new(Named("mcp__s__a"))],
        );
        let specs = r.specs_if_changed(&mut seen).unwrap();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["mcp__s__a", "mcp__s__b", "read_file"]);
        r.replace_group(
            "s",
            vec![Arc::new(Named("mcp__s__c")), Arc::new(Named("read_file"))],
        );
        assert_eq!(r.names(), ["mcp__s__c", "read_file"]);
        r.replace_group("s", Vec::new());
        assert_eq!(r.names(), ["read_file"]);
        assert!(r.specs_if_changed(&mut seen).is_some());
    }
}
