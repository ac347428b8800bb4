//! SKELETON — replaced by a helper.

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::{Tool, ToolContext, ToolOutcome};

pub struct GlobFiles;

#[async_trait]
impl Tool for GlobFiles {
    fn name(&self) -> &str {
        todo!()
    }
    fn description(&self) -> &str {
        todo!()
    }
    fn parameters(&self) -> Value {
        todo!()
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        todo!()
    }
}

pub struct GrepCode;

#[async_trait]
impl Tool for GrepCode {
    fn name(&self) -> &str {
        todo!()
    }
    fn description(&self) -> &str {
        todo!()
    }
    fn parameters(&self) -> Value {
        todo!()
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        todo!()
    }
}
