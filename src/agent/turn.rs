//! One user turn: model calls and tool batches until the model answers without tools, a budget stops it, or the
//! user cancels. Each step of the turn lives in the file its name says.

mod actions;
mod answer;
pub mod budget;
mod cut_off;
mod dsml_calls;
mod outcome;
mod partial_report;
mod person_command;
mod request;
mod rounds;
pub mod runaway;
mod scopes;
mod sinks;
mod unrun_arguments;
mod usage;

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::llm::Usage;
use crate::session::tool_calls::make_ids_unique;
use crate::tools::{Progress, ToolContext, executor};

use super::context::compaction::Trigger;
use super::{Agent, AgentEvent, EventSink, Notice, TurnScope};
pub use actions::{Denial, TurnActions};
pub use answer::empty_answer_notice;
use budget::AgentBudget;
pub use outcome::{TurnOutcome, TurnReport};
use runaway::{GuardCall, RunawayGuard};
use sinks::EventToolObserver;

/// Output lines of running tools waiting to be shown; more are dropped until the sink catches up.
const PROGRESS_LINES: usize = 256;

impl Agent {
    /// Runs one user turn to its end. Events go to `events`; `cancel` stops it at the next await point.
    pub async fn run_turn(
        &mut self,
        input: &str,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        self.run_expanded_turn(input, input, events, cancel).await
    }

    /// [`Agent::run_turn`] for input whose `@file` / `@server:uri` mentions were expanded: turn policies and
    /// memory recall judge `submitted` (what the user typed), the model receives `input`.
    pub async fn run_expanded_turn(
        &mut self,
        submitted: &str,
        input: &str,
        events: &dyn EventSink,
        cancel: CancellationToken,
    ) -> TurnReport {
        self.take_learned_window();
        let scopes: Vec<TurnScope> = self
            .turn_hooks
            .iter()
            .map(|h| h.begin_turn(submitted))
            .collect();
        for notice in scopes.iter().flat_map(|s| s.notices.iter()) {
            events.emit(AgentEvent::Notice {
                notice: notice.clone(),
            });
        }
        // Only this turn's edits are checked.
        self.unchecked_files.clear();
        let recall = self.recall_memory(submitted, events);
        self.conversation.begin_turn(recall, input);
        if !self.pending_images.is_empty() {
            let images = std::mem::take(&mut self.pending_images);
            let images = self.fit_images(images);
            self.conversation.push_user_parts(images);
        }
        let mut budget = AgentBudget::with_stagnation_window(
            self.options.max_iterations,
            self.options.token_budget,
            self.options.stagnation_window,
        );
        let mut runaway = RunawayGuard::new();
        let mut turn_usage = Usage::default();
        let mut cut_offs = 0;
        let mut actions = TurnActions::default();
        let mut ctx = ToolContext {
            cancel: cancel.clone(),
            ..self.tool_ctx.clone()
        };
        ctx.gates
            .extend(scopes.iter().flat_map(|s| s.gates.iter().cloned()));
        // Sub-agents pass the gates of the hooks that stay with the lead (their own hooks give them the rest).
        let lead_gates = self
            .turn_hooks
            .iter()
            .zip(&scopes)
            .filter(|(hook, _)| !hook.carries_into_forks())
            .flat_map(|(_, scope)| scope.gates.iter().cloned())
            .collect();
        let mut delegation = self.begin_delegation(lead_gates);
        ctx.delegation = delegation
            .as_ref()
            .map(|d| Arc::clone(&d.delegator) as Arc<dyn crate::tools::delegate::Delegation>);
        let outcome = loop {
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
            self.inject_pending_diagnostics(events, &cancel).await;
            self.take_learned_window();
            // MCP servers join late and may change their tools; the sorted list is rebuilt only then.
            if let Some(specs) = self.registry.specs_if_changed(&mut self.specs_generation) {
                self.conversation.note_tools(&specs);
                self.tool_specs = specs;
            }
            if let Some(index) = &mut self.resource_index {
                index.refresh(&mut self.conversation, self.options.context_window);
            }
            let tools = scopes::filter_tools(&scopes, &self.tool_specs);
            // Spill already happened in the executor; now clear, then summarize, if the next request needs it.
            self.compact_if_needed(Trigger::Threshold, &tools, events, &cancel)
                .await;
            self.absorb_compaction_usage(&mut budget, &mut turn_usage);
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
            if let Some(reason) = budget.check() {
                break self
                    .finalize(reason, events, &cancel, &mut budget, &mut turn_usage)
                    .await;
            }
            let iteration = budget.begin_iteration();
            events.emit(AgentEvent::RequestStarted { iteration });
            let response = match self.chat_or_compact(&tools, events, &cancel).await {
                Ok(r) => r,
                Err(outcome) => break outcome,
            };
            self.record_usage(&response, events, &mut budget, &mut turn_usage);
            if cancel.is_cancelled() {
                self.append_interrupted_answer(&response.content);
                break TurnOutcome::Cancelled;
            }
            if response.tool_calls.is_empty() {
                break self.end_with_answer(response, events);
            }
            let cut_off = cut_off::is_cut_off(&response);
            let mut tool_calls = response.tool_calls;
            // Each call must get exactly one result, so ids repeated in one reply are told apart first.
            make_ids_unique(&mut tool_calls);
            let reasoning = Some(response.reasoning).filter(|r| !r.is_empty());
            // The last call of a reply stopped at the output limit may be shortened: nothing of it runs.
            if cut_off {
                cut_offs += 1;
                match self.answer_cut_off_calls(
                    response.content,
                    reasoning,
                    tool_calls,
                    cut_offs,
                    events,
                ) {
                    Some(outcome) => break outcome,
                    None => continue,
                }
            }
            budget.record_tool_calls(&tool_calls);
            // The calls reach the ledger before the tools run and each result when it is known, so a crash
            // mid-batch loses nothing that finished. A round with arguments too large to keep is written when it
            // closes instead, once a refused call's arguments are replaced (a crash mid-round loses that round).
            if !unrun_arguments::any_too_large(&tool_calls) {
                self.conversation
                    .announce_round(&response.content, reasoning.clone(), &tool_calls);
            }
            let observer = EventToolObserver {
                events,
                ledger: self.conversation.ledger().cloned(),
                tools: &self.registry,
                root: &ctx.root,
            };
            let batch = async {
                if events.wants_tool_output() {
                    let (progress, lines) = Progress::channel(PROGRESS_LINES);
                    let ctx = ToolContext {
                        progress,
                        ..ctx.clone()
                    };
                    let batch = self.executor.run_batch(&tool_calls, &ctx, &observer);
                    sinks::forward_tool_output(batch, lines, events).await
                } else {
                    self.executor.run_batch(&tool_calls, &ctx, &observer).await
                }
            };
            let results = match delegation.as_mut() {
                Some(d) => sinks::forward_sub_agent_events(batch, &mut d.events, events).await,
                None => batch.await,
            };
            if let Some(d) = &delegation {
                // The sub-agents' tokens count toward this turn (and its budget) and the session.
                let spent = match d.spent.lock() {
                    Ok(mut t) => std::mem::take(&mut *t),
                    Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
                };
                self.conversation.meter_mut().record_side_request(spent);
            }
            if let Some(list) = results.iter().rev().find_map(|r| match &r.outcome {
                crate::tools::ToolOutcome::Ok(out) => out.task_list.clone(),
                _ => None,
            }) {
                self.task_list = Some(list);
            }
            actions.record(&results);
            for path in executor::changed_files(&results) {
                if !self.unchecked_files.contains(&path) {
                    self.unchecked_files.push(path);
                }
            }
            let guard_calls: Vec<GuardCall<'_>> = tool_calls
                .iter()
                .zip(&results)
                .map(|(call, result)| GuardCall {
                    name: &call.name,
                    arguments: &call.arguments,
                    outcome: &result.outcome,
                })
                .collect();
            let reminder = runaway.record_step(&guard_calls);
            self.append_tool_round(response.content, reasoning, tool_calls, results);
            if let Some(reminder) = reminder {
                events.emit(AgentEvent::Notice {
                    notice: Notice::RunawayReminder,
                });
                self.conversation.push_user(reminder);
            }
            if cancel.is_cancelled() {
                break TurnOutcome::Cancelled;
            }
        };
        if let Some(error) = self.conversation.ledger().and_then(|l| l.take_error()) {
            events.emit(AgentEvent::Notice {
                notice: Notice::LedgerNotWritten { error },
            });
        }
        for hook in &self.turn_hooks {
            hook.end_turn();
        }
        events.emit(outcome.end_event());
        TurnReport {
            outcome,
            requests: budget.iterations(),
            usage: turn_usage,
            actions,
        }
    }
}
