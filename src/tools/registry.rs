//! SKELETON — replaced by the executor helper.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Tool;
use crate::llm::ToolSpec;

/// The tools on offer, kept sorted by name.
#[derive(Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_string(), tool);
    }
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }
    /// Definitions sorted by name.
    pub fn specs(&self) -> Vec<ToolSpec> {
        todo!()
    }
}
