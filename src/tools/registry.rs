//! The tools on offer, keyed and listed by name so the request's tool list is byte-stable across turns.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::Tool;
use crate::llm::ToolSpec;

/// The tools on offer, kept sorted by name.
#[derive(Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
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

    /// Adds a tool; a tool with the same name is replaced.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_string(), tool);
    }

    /// Removes a tool by name, returning it.
    pub fn unregister(&mut self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.remove(name)
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    /// Tool names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.tools.keys().map(String::as_str).collect()
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Definitions sorted by name; schemas have their keys sorted so serialization is byte-identical.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools
            .values()
            .map(|tool| ToolSpec {
                name: tool.name().to_string(),
                description: tool.description().to_string(),
                parameters: sort_keys(tool.parameters()),
            })
            .collect()
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
}
