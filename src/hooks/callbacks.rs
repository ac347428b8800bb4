//! Hooks that are not commands: the callbacks of the program driving paicli (the Agent SDK's `hooks`, answered
//! over the headless protocol). They are matched, fed and read as command hooks from Claude's files are (Claude's
//! tool names and fields, the same reply contract), so a decision means the same from either.

use async_trait::async_trait;
use serde_json::Value;

use super::HookEvent;
use super::runner::Output;

/// A set of hook callbacks; the front-end that can call them implements it.
#[async_trait]
pub trait HookCallbacks: Send + Sync {
    /// Whether any callback is registered for `event`.
    fn has(&self, event: HookEvent) -> bool;

    /// The ids of the callbacks for `event` whose matcher takes `subject` (Claude's name of a tool, a start
    /// source, a trigger; `None` takes all).
    fn matching(&self, event: HookEvent, subject: Option<&str>) -> Vec<String>;

    /// Calls the callback `id` with the hook input `input`; its answer as a command's output (the reply JSON on
    /// stdout, exit 0), or why it could not be called (a non-blocking error, as a command that fails to start).
    async fn call(&self, id: &str, input: Value) -> Result<Output, String>;
}
