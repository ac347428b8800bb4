//! Runs a batch of tool calls: runs of parallel-safe calls side by side (at most `max_parallel` at a time),
//! side-effecting calls alone in model order, every call with exactly one result, in call order.

mod call;
mod path_locks;
mod plan;

use std::sync::Arc;
use std::time::Duration;

use futures_util::{StreamExt, stream};
use tokio::time::Instant;

use std::path::PathBuf;

use super::{SpillRule, ToolContext, ToolOutcome, ToolRegistry, ToolTraits};
use crate::llm::ToolCall;
pub use path_locks::{PathLocks, PathsHeld};
use plan::Step;

/// Executor settings.
#[derive(Clone, Debug)]
pub struct ExecutorOptions {
    /// Parallel-safe calls running at once.
    pub max_parallel: usize,
    /// Time limit for one step (a parallel run, or one serial call); the effective limit is
    /// `max(command_timeout + 5s, batch_timeout)` so a command always hits its own limit first.
    pub batch_timeout: Duration,
    /// After a cancel, how long a running tool may take to return its own partial result before it is abandoned.
    pub cancel_grace: Duration,
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        ExecutorOptions {
            max_parallel: 4,
            batch_timeout: Duration::from_secs(90),
            cancel_grace: Duration::from_secs(1),
        }
    }
}

/// How far past the step's deadline a sub-agent's call may run (practically none: its budgets stop it).
const DELEGATE_DEADLINE: Duration = Duration::from_secs(7 * 24 * 3600);

/// How much longer than a command's own limit a step may take.
const COMMAND_SLACK: Duration = Duration::from_secs(5);

/// One call's result, in the form the history needs.
#[derive(Clone, Debug)]
pub struct ToolCallResult {
    /// The `tool_call_id` this result answers.
    pub call_id: String,
    /// The tool name as the model called it.
    pub tool: String,
    /// The typed outcome, with the full (unspilled, unwrapped) text.
    pub outcome: ToolOutcome,
    /// Wall-clock time from start to result.
    pub duration: Duration,
    /// What the model sees: spilled if large, then boundary-wrapped.
    pub content: String,
    /// What the tool declared itself to be; `None` when no tool has that name.
    pub traits: Option<ToolTraits>,
}

impl ToolCallResult {
    /// The files this call changed: those a successful call of a tool that declares `edits_files` reported.
    pub fn changed_files(&self) -> &[PathBuf] {
        match &self.outcome {
            ToolOutcome::Ok(output) if self.traits.is_some_and(|t| t.edits_files) => {
                &output.changed_files
            }
            _ => &[],
        }
    }
}

/// The files the successful file-editing calls in `results` changed, each once, in call order (for diagnostics).
pub fn changed_files(results: &[ToolCallResult]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for path in results.iter().flat_map(ToolCallResult::changed_files) {
        if !files.contains(path) {
            files.push(path.clone());
        }
    }
    files
}

/// Told when calls start and finish (for the UI). Every call gets exactly one `on_start` and then exactly one
/// `on_finish`, also calls that end without running (unknown tool, invalid arguments, cancelled before start).
pub trait ToolObserver: Send + Sync {
    /// Called when call `index` of the batch starts.
    fn on_start(&self, index: usize, call: &ToolCall);
    /// Called when call `index` has its result.
    fn on_finish(&self, index: usize, call: &ToolCall, result: &ToolCallResult);
}

/// An observer that ignores everything.
pub struct NullObserver;

impl ToolObserver for NullObserver {
    fn on_start(&self, _index: usize, _call: &ToolCall) {}
    fn on_finish(&self, _index: usize, _call: &ToolCall, _result: &ToolCallResult) {}
}

/// Runs a batch of tool calls. Clones share the per-path locks (sub-agents of one session).
#[derive(Clone)]
pub struct Executor {
    registry: Arc<ToolRegistry>,
    options: ExecutorOptions,
    /// Held for the paths a file-changing call writes, while it runs.
    path_locks: Arc<PathLocks>,
}

impl Executor {
    /// An executor over `registry`.
    pub fn new(registry: Arc<ToolRegistry>, options: ExecutorOptions) -> Self {
        Executor {
            registry,
            options,
            path_locks: Arc::default(),
        }
    }

    /// The tools this executor runs.
    pub fn registry(&self) -> &Arc<ToolRegistry> {
        &self.registry
    }

    /// Runs `calls`; returns exactly one result per call, in call order.
    pub async fn run_batch(
        &self,
        calls: &[ToolCall],
        ctx: &ToolContext,
        observer: &dyn ToolObserver,
    ) -> Vec<ToolCallResult> {
        let traits: Vec<Option<ToolTraits>> = calls
            .iter()
            .map(|call| self.registry.traits_of(&call.name))
            .collect();
        // One call that rewinds what the others see makes the whole batch serial.
        let serial = traits.iter().flatten().any(|t| t.serial_batch);
        let steps = plan::plan(calls, |i| {
            !serial && traits[i].is_some_and(|t| t.parallel_safe)
        });
        let step_timeout = self
            .options
            .batch_timeout
            .max(ctx.limits.command_timeout + COMMAND_SLACK);
        let mut results: Vec<Option<ToolCallResult>> = vec![None; calls.len()];
        for step in steps {
            let deadline = Instant::now() + step_timeout;
            match step {
                Step::Serial(i) => {
                    observer.on_start(i, &calls[i]);
                    results[i] = Some(
                        self.run_one(i, &calls[i], ctx, deadline, step_timeout, observer)
                            .await,
                    );
                }
                Step::Parallel(range) => {
                    // All announced, in call order, before any runs: a fast call cannot finish before the
                    // next one is seen to start, so front-ends know which calls ran side by side.
                    for i in range.clone() {
                        observer.on_start(i, &calls[i]);
                    }
                    let done: Vec<(usize, ToolCallResult)> = stream::iter(range)
                        .map(|i| async move {
                            let result = self
                                .run_one(i, &calls[i], ctx, deadline, step_timeout, observer)
                                .await;
                            (i, result)
                        })
                        .buffer_unordered(self.options.max_parallel.max(1))
                        .collect()
                        .await;
                    for (i, result) in done {
                        results[i] = Some(result);
                    }
                }
            }
        }
        // Every slot was filled by exactly one step; the fallback only guards the pairing invariant.
        results
            .into_iter()
            .zip(calls)
            .map(|(result, call)| {
                result.unwrap_or_else(|| {
                    finish(
                        call,
                        Finished {
                            traits: None,
                            spill: SpillRule::Spill,
                            outcome: ToolOutcome::failed("internal error: call was not run"),
                            notes: Vec::new(),
                        },
                        ctx,
                        Duration::ZERO,
                    )
                })
            })
            .collect()
    }

    async fn run_one(
        &self,
        index: usize,
        call: &ToolCall,
        ctx: &ToolContext,
        deadline: Instant,
        step_timeout: Duration,
        observer: &dyn ToolObserver,
    ) -> ToolCallResult {
        // The call's clock: restarted once the gates let it through, so the time a person took to answer the
        // approval prompt counts neither as the tool's duration nor against its deadline.
        let mut started = std::time::Instant::now();
        let traits = self.registry.traits_of(&call.name);
        let (outcome, spill, notes) = if ctx.cancel.is_cancelled() {
            (
                ToolOutcome::Cancelled {
                    partial: String::new(),
                },
                SpillRule::Spill,
                Vec::new(),
            )
        } else {
            match call::prepare(&self.registry, call) {
                Err(reason) => (ToolOutcome::failed(reason), SpillRule::Spill, Vec::new()),
                Ok(mut ready) => {
                    // A sub-agent works until it answers, a budget stops it or the person cancels.
                    let deadline = if ready.tool.traits().delegates {
                        deadline + DELEGATE_DEADLINE
                    } else {
                        deadline
                    };
                    let asked = Instant::now();
                    let gated = call::pass_gates(call, &mut ready, ctx).await;
                    // A person reading the approval prompt (or the whole diff) is not the tool running late:
                    // the wait moves the deadline (on the runtime's clock, which the deadline is on).
                    let waited = asked.elapsed();
                    started = std::time::Instant::now();
                    let args = ready.args.clone();
                    let targets = ready.tool.write_targets(&args, ctx);
                    let traits = ready.tool.traits();
                    let spill = ready.tool.spill_rule(&args, &ctx.spill);
                    let outcome = match gated {
                        Err(outcome) => outcome,
                        Ok(()) => {
                            // Another sub-agent's change of the same file finishes first (no lost update).
                            let held = tokio::select! {
                                held = self.path_locks.hold(&targets) => Some(held),
                                () = ctx.cancel.cancelled() => None,
                            };
                            match held {
                                None => ToolOutcome::Cancelled {
                                    partial: String::new(),
                                },
                                Some(_held) => {
                                    call::execute(
                                        ready,
                                        ctx,
                                        &call.id,
                                        deadline + waited,
                                        step_timeout,
                                        self.options.cancel_grace,
                                    )
                                    .await
                                }
                            }
                        }
                    };
                    let reported = call::Reported {
                        args: &args,
                        traits,
                        write_targets: &targets,
                    };
                    let notes =
                        call::report_to_gates(call, reported, &outcome, started.elapsed(), ctx)
                            .await;
                    (outcome, spill, notes)
                }
            }
        };
        let finished = Finished {
            traits,
            spill,
            outcome,
            notes,
        };
        let result = finish(call, finished, ctx, started.elapsed());
        observer.on_finish(index, call, &result);
        result
    }
}

/// How a call ended, before it becomes a result.
struct Finished {
    traits: Option<ToolTraits>,
    /// What the tool said about spilling its result (calls that never ran spill as usual).
    spill: SpillRule,
    outcome: ToolOutcome,
    /// What the gates add after the result (hooks' context).
    notes: Vec<String>,
}

/// Builds a call's result: its outcome and the content the model sees.
fn finish(
    call: &ToolCall,
    finished: Finished,
    ctx: &ToolContext,
    duration: Duration,
) -> ToolCallResult {
    let Finished {
        traits,
        spill,
        outcome,
        notes,
    } = finished;
    ToolCallResult {
        call_id: call.id.clone(),
        tool: call.name.clone(),
        content: call::content(ctx, &call.name, &spill, &outcome, &notes),
        outcome,
        duration,
        traits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Risk, ToolOutput};

    fn result(traits: Option<ToolTraits>, outcome: ToolOutcome) -> ToolCallResult {
        ToolCallResult {
            call_id: "c".into(),
            tool: "t".into(),
            outcome,
            duration: Duration::ZERO,
            content: String::new(),
            traits,
        }
    }

    fn changed(paths: &[&str]) -> ToolOutcome {
        ToolOutcome::Ok(ToolOutput {
            changed_files: paths.iter().map(PathBuf::from).collect(),
            ..ToolOutput::default()
        })
    }

    #[test]
    fn only_successful_calls_of_editing_tools_count_each_file_once() {
        let edits = Some(ToolTraits::FILE_EDIT);
        let command = Some(ToolTraits::side_effect(Risk::High));
        let results = [
            result(edits, changed(&["a.py"])),
            result(edits, ToolOutcome::failed("no match")),
            result(edits, changed(&["b.c", "a.py"])),
            result(command, changed(&["c.rs"])),
            result(None, changed(&["d.rs"])),
        ];
        assert_eq!(
            changed_files(&results),
            vec![PathBuf::from("a.py"), PathBuf::from("b.c")]
        );
    }
}
