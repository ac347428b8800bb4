//! SKELETON — replaced by a helper.

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::{Tool, ToolContext, ToolOutcome};

pub struct ReadFile;

#[async_trait]
impl Tool for ReadFile {
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

pub struct WriteFile;

#[async_trait]
impl Tool for WriteFile {
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

pub struct ListDir;

#[async_trait]
impl Tool for ListDir {
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
