//! The sandbox suites' shared steps: whether this kernel confines commands (a test that needs it is skipped,
//! visibly, where it does not), and one `execute_command` call through the real tool.
#![allow(clippy::unwrap_used)]

use paicli::sandbox::probe;
use paicli::tools::shell::ExecuteCommand;
use paicli::tools::{Tool, ToolContext, ToolOutcome};
use serde_json::json;

/// False (and says why) when this kernel cannot confine commands or no folder outside every writable root can
/// be made for the test.
pub fn kernel_confines() -> bool {
    let support = probe();
    if !support.is_available() {
        eprintln!(
            "skipped: the sandbox is not available here ({})",
            support.describe()
        );
    }
    support.is_available() && super::outside_dir().is_some()
}

/// Runs `command` with `execute_command` in `ctx`.
pub async fn run_command(ctx: &ToolContext, command: &str) -> ToolOutcome {
    let args = json!({ "command": command });
    ExecuteCommand::default()
        .execute(args.as_object().unwrap(), ctx)
        .await
}
