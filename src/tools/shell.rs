//! `execute_command`: runs a shell command in the project root and reports its merged output.

mod description;
mod process;

pub use process::scrub_env;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{
    Args, SpillRule, SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolOutput, ToolTraits,
};
use crate::guard::command_guard::{COMMAND_GUARD, CommandGuard};
use crate::protocol::{Risk, SANDBOX_REQUIRED, ToolKind};
use crate::sandbox::control_watch::{self, ControlWatch};
use crate::sandbox::{Launch, SandboxError, explain_denial};
use process::{Ending, RunSpec};

/// The tool's name.
pub const EXECUTE_COMMAND: &str = "execute_command";
/// Output captured from one command, in chars; the rest is discarded.
pub const MAX_CAPTURE_CHARS: usize = 2_000_000;

/// Runs `bash -c <command>` in the project root.
pub struct ExecuteCommand {
    /// Built once from the session's limits, so it states them and stays byte-stable.
    description: String,
}

impl ExecuteCommand {
    /// The tool for commands run under `limits`, whose long output goes to `spill` (its description says so).
    pub fn new(limits: &ToolLimits, spill: &SpillStore) -> Self {
        ExecuteCommand {
            description: description::describe(limits, spill.enabled()),
        }
    }
}

impl Default for ExecuteCommand {
    /// The tool under the default limits, long output saved to files.
    fn default() -> Self {
        ExecuteCommand {
            description: description::describe(&ToolLimits::default(), true),
        }
    }
}

#[async_trait]
impl Tool for ExecuteCommand {
    fn name(&self) -> &str {
        EXECUTE_COMMAND
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "command": {"type": "string"},
            },
            "required": ["command"],
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Execute,
            external_content: true,
            runs_commands: true,
            ..ToolTraits::side_effect(Risk::High)
        }
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        super::call_view::str_arg(args, "command")
    }

    fn spill_rule(&self, _args: &Map<String, Value>, _spill: &SpillStore) -> SpillRule {
        // The tool spills past its own inline limit, keeping the head.
        SpillRule::Keep
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let command = match Args(args).required_str("command") {
            Ok(command) if !command.trim().is_empty() => command,
            Ok(_) => return ToolOutcome::failed("`command` is empty"),
            Err(outcome) => return outcome,
        };
        // The guard lives here, not in a gate, so no approval mode can switch it off.
        // Opaque and control-file lines reach this point only when the approval gate let them through, so only a
        // refusal stops them here.
        let guard = CommandGuard::new(Arc::clone(&ctx.guard), ctx.limits.paicli_home.clone());
        if let Err(denial) = guard.check(command) {
            return ToolOutcome::denied(COMMAND_GUARD, denial.reason());
        }
        let sandbox = &ctx.limits.sandbox;
        let launch = match sandbox.prepare(
            &ctx.root,
            ctx.limits.paicli_home.as_deref(),
            ctx.limits.confinement,
        ) {
            Ok(launch) => launch,
            Err(e @ SandboxError::Unavailable(_)) => {
                return ToolOutcome::denied(SANDBOX_REQUIRED, e.to_string());
            }
            Err(e) => return ToolOutcome::failed(e.to_string()),
        };
        let spec = RunSpec {
            command,
            cwd: &ctx.root,
            timeout: ctx.limits.command_timeout,
            cancel: &ctx.cancel,
            max_chars: MAX_CAPTURE_CHARS,
            keep_env: &ctx.limits.keep_env,
            progress: &ctx.progress,
            launch: &launch,
        };
        // What the sandbox cannot keep read-only among the control paths, recorded to undo afterwards.
        let watch = launch.watch_control();
        let run = process::run(spec).await;
        let undone = watch.map(ControlWatch::undo).unwrap_or_default();
        let run = match run {
            Ok(run) => run,
            Err(e) => return ToolOutcome::failed(format!("could not start bash: {e}")),
        };

        let mut shown = if run.output.is_empty() {
            "(no output)".to_string()
        } else {
            ctx.spill.offload_with_head(
                EXECUTE_COMMAND,
                &run.output,
                ctx.limits.command_inline_chars,
            )
        };
        if run.capped {
            shown.push_str(&format!(
                "\n[output capped at {MAX_CAPTURE_CHARS} chars; the rest was discarded]"
            ));
        }
        if run.stragglers_killed {
            shown.push_str("\n[background processes still writing output after the command exited were killed]");
        }
        if let Launch::Confined { policy, .. } = &launch
            && matches!(run.ending, Ending::Exited(code) if code != 0)
            && let Some(note) = explain_denial(&run.output, !policy.network)
        {
            shown.push('\n');
            shown.push_str(&note);
        }
        if let Some(note) = control_watch::describe(&undone, ctx.guard.root()) {
            shown.push('\n');
            shown.push_str(&note);
        }
        match run.ending {
            Ending::Exited(0) => ToolOutcome::Ok(ToolOutput::text(shown)),
            Ending::Exited(code) => {
                ToolOutcome::failed(format!("command exited with code {code}\n{shown}"))
            }
            Ending::Signaled(signal) => {
                ToolOutcome::failed(format!("command was killed by signal {signal}\n{shown}"))
            }
            Ending::TimedOut => ToolOutcome::failed(format!(
                "command timed out after {}; it and every process it started were killed. Partial output:\n{shown}",
                format_duration(ctx.limits.command_timeout)
            )),
            Ending::Cancelled => ToolOutcome::Cancelled {
                partial: if run.output.is_empty() {
                    String::new()
                } else {
                    shown
                },
            },
        }
    }
}

/// `60s`, or `1500ms` for limits that are not whole seconds.
pub(crate) fn format_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests;
