//! One call from lookup to content: cancellation check, lookup, argument check, run under a deadline, then
//! spill and the untrusted-data boundary.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::task::JoinError;
use tokio::time::{Instant, sleep_until, timeout};

use crate::llm::ToolCall;
use crate::protocol::Confinement;
use crate::tools::shell::format_duration;
use crate::tools::{
    GateCall, GateVerdict, SpillRule, Tool, ToolContext, ToolOutcome, ToolRegistry, ToolTraits,
    boundary, schema,
};

/// A call that passed lookup and argument checks.
pub(super) struct Ready {
    pub tool: Arc<dyn Tool>,
    pub args: Map<String, Value>,
    /// How a command it runs is confined, as the gates decided.
    pub confinement: Confinement,
}

/// Finds the tool and checks the arguments; an error is the reason the call fails without running.
pub(super) fn prepare(registry: &ToolRegistry, call: &ToolCall) -> Result<Ready, String> {
    let Some(tool) = registry.get(&call.name) else {
        return Err(format!(
            "unknown tool `{}`; available tools: {}",
            call.name,
            registry.names().join(", ")
        ));
    };
    let args = schema::validate(&tool.parameters(), &call.arguments).map_err(|e| {
        format!(
            "invalid arguments for `{}`: {e}. The tool was not run; fix the arguments and call it again.",
            call.name
        )
    })?;
    Ok(Ready {
        tool,
        args,
        confinement: Confinement::default(),
    })
}

/// Passes the call through the context's gates in order; the first denial ends it. Arguments a gate rewrote are
/// validated again. Waiting on a gate (a human prompt) ends early when the turn is cancelled.
pub(super) async fn pass_gates(
    call: &ToolCall,
    ready: &mut Ready,
    ctx: &ToolContext,
) -> Result<(), ToolOutcome> {
    let traits = ready.tool.traits();
    let mut targets = ready.tool.write_targets(&ready.args, ctx);
    for gate in &ctx.gates {
        let gate_call = GateCall {
            id: &call.id,
            name: &call.name,
            args: &ready.args,
            traits,
            write_targets: &targets,
            cancel: &ctx.cancel,
        };
        let verdict = tokio::select! {
            verdict = gate.check(gate_call) => verdict,
            () = ctx.cancel.cancelled() => return Err(ToolOutcome::Cancelled { partial: String::new() }),
        };
        match verdict {
            GateVerdict::Allow => {}
            GateVerdict::AllowConfined(confinement) => ready.confinement = confinement,
            GateVerdict::AllowWith(args) => {
                let raw = Value::Object(args).to_string();
                ready.args = schema::validate(&ready.tool.parameters(), &raw).map_err(|e| {
                    ToolOutcome::failed(format!(
                        "the edited arguments for `{}` are invalid: {e}",
                        call.name
                    ))
                })?;
                // Edited arguments may write elsewhere: later gates judge the new targets.
                targets = ready.tool.write_targets(&ready.args, ctx);
            }
            GateVerdict::Deny { code, reason } => return Err(ToolOutcome::Denied { code, reason }),
        }
    }
    Ok(())
}

/// What the gates are told about a call that reached them.
pub(super) struct Reported<'a> {
    pub args: &'a Map<String, Value>,
    pub traits: ToolTraits,
    pub write_targets: &'a [PathBuf],
}

/// Tells every gate how a call that reached them ended; returns what the gates add to the model's result.
pub(super) async fn report_to_gates(
    call: &ToolCall,
    reported: Reported<'_>,
    outcome: &ToolOutcome,
    duration: Duration,
    ctx: &ToolContext,
) -> Vec<String> {
    let mut notes = Vec::new();
    for gate in &ctx.gates {
        let gate_call = GateCall {
            id: &call.id,
            name: &call.name,
            args: reported.args,
            traits: reported.traits,
            write_targets: reported.write_targets,
            cancel: &ctx.cancel,
        };
        gate.after(gate_call, outcome, duration).await;
        notes.extend(gate.annotate(gate_call, outcome).await);
    }
    notes
}

/// Runs a ready call until it ends, `deadline` passes, or the turn is cancelled (then waits `cancel_grace` for
/// the tool's own partial result before abandoning it).
pub(super) async fn execute(
    ready: Ready,
    ctx: &ToolContext,
    call_id: &str,
    deadline: Instant,
    timeout_label: Duration,
    cancel_grace: Duration,
) -> ToolOutcome {
    let name = ready.tool.name().to_string();
    if Instant::now() >= deadline {
        return ToolOutcome::failed(format!(
            "`{name}` timed out after {} before it could start",
            format_duration(timeout_label)
        ));
    }
    let mut task_ctx = ToolContext {
        progress: ctx.progress.for_call(call_id),
        ..ctx.clone()
    };
    task_ctx.limits.confinement = ready.confinement;
    // A task of its own: tools run truly in parallel, and a panicking tool becomes a failure, not a crash.
    let mut handle = tokio::spawn(async move { ready.tool.execute(&ready.args, &task_ctx).await });
    tokio::select! {
        biased;
        joined = &mut handle => outcome_of(&name, joined),
        () = sleep_until(deadline) => {
            handle.abort();
            ToolOutcome::failed(format!("`{name}` timed out after {}", format_duration(timeout_label)))
        }
        () = ctx.cancel.cancelled() => match timeout(cancel_grace, &mut handle).await {
            Ok(joined) => outcome_of(&name, joined),
            Err(_) => {
                handle.abort();
                ToolOutcome::Cancelled { partial: String::new() }
            }
        },
    }
}

fn outcome_of(name: &str, joined: Result<ToolOutcome, JoinError>) -> ToolOutcome {
    match joined {
        Ok(outcome) => outcome,
        Err(e) if e.is_cancelled() => ToolOutcome::Cancelled {
            partial: String::new(),
        },
        Err(_) => ToolOutcome::failed(format!("`{name}` crashed while running")),
    }
}

/// What the model sees: the outcome's text, spilled if large (unless the tool says otherwise), then
/// boundary-wrapped.
pub(super) fn content(
    ctx: &ToolContext,
    tool: &str,
    spill: &SpillRule,
    outcome: &ToolOutcome,
    notes: &[String],
) -> String {
    let text = outcome.model_text();
    let text = match spill {
        SpillRule::Spill => ctx.spill.offload(tool, &text),
        SpillRule::Keep => text,
        SpillRule::PointAt(path) => ctx.spill.preview_existing(tool, &text, path),
    };
    let wrapped = boundary::wrap(tool, &text);
    // Notes come from the person's own hooks, not from the tool's data: outside the boundary.
    notes
        .iter()
        .fold(wrapped, |all, note| format!("{all}\n\n{note}"))
}
