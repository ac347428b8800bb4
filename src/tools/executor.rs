//! SKELETON — replaced by the executor helper.

use std::sync::Arc;
use std::time::Duration;

use super::{ToolContext, ToolOutcome, ToolRegistry};
use crate::llm::ToolCall;

/// Executor settings.
#[derive(Clone, Debug)]
pub struct ExecutorOptions {
    pub max_parallel: usize,
    pub batch_timeout: Duration,
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        ExecutorOptions {
            max_parallel: 4,
            batch_timeout: Duration::from_secs(90),
        }
    }
}

/// One call's result, in the form the history needs.
#[derive(Clone, Debug)]
pub struct ToolCallResult {
    pub call_id: String,
    pub tool: String,
    pub outcome: ToolOutcome,
    pub duration: Duration,
    /// What the model sees: spilled if large, then boundary-wrapped.
    pub content: String,
}

/// Told when calls start and finish (for the UI).
pub trait ToolObserver: Send + Sync {
    fn on_start(&self, index: usize, call: &ToolCall);
    fn on_finish(&self, index: usize, call: &ToolCall, result: &ToolCallResult);
}

/// Runs a batch of tool calls.
pub struct Executor {
    _registry: Arc<ToolRegistry>,
    _options: ExecutorOptions,
}

impl Executor {
    pub fn new(registry: Arc<ToolRegistry>, options: ExecutorOptions) -> Self {
        Executor {
            _registry: registry,
            _options: options,
        }
    }
    /// Runs `calls`; returns exactly one result per call, in call order.
    pub async fn run_batch(
        &self,
        _calls: &[ToolCall],
        _ctx: &ToolContext,
        _observer: &dyn ToolObserver,
    ) -> Vec<ToolCallResult> {
        todo!()
    }
}
