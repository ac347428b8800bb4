//! Sub-agents: agents forked from this one for plan tasks. They share the model client, the tools, the executor
//! (with its path locks), the gates and the session's approvals, and keep a conversation of their own, so they run
//! on the same loop as the lead without touching its history.

use std::sync::Arc;

use super::{Agent, TurnHook, compaction};
use crate::llm::Usage;
use crate::protocol::{AgentEvent, EventSink, Notice};
use crate::session::Conversation;
use crate::session::ledger::Ledger;

/// The most times `SubagentStop` hooks may keep one sub-agent working (as `Stop` hooks the lead).
pub const MAX_SUBAGENT_CONTINUATIONS: u32 = 5;

impl Agent {
    /// A sub-agent with its own conversation starting with `system_prompt`; everything else is shared with
    /// this agent, except turn hooks that stay with the lead (see [`TurnHook::carries_into_forks`]).
    pub fn fork(&self, system_prompt: String) -> Agent {
        let turn_hooks: Vec<Arc<dyn TurnHook>> = self
            .turn_hooks
            .iter()
            .filter(|hook| hook.carries_into_forks())
            .cloned()
            .collect();
        let mut tool_ctx = self.tool_ctx.clone();
        tool_ctx.gates.extend(self.fork_gates.iter().cloned());
        Agent {
            client: Arc::clone(&self.client),
            executor: self.executor.clone(),
            tool_specs: Arc::clone(&self.tool_specs),
            registry: Arc::clone(&self.registry),
            specs_generation: self.specs_generation,
            tool_ctx,
            conversation: Conversation::new(system_prompt),
            options: self.options.clone(),
            pending_diagnostics: Vec::new(),
            diagnostics: self.diagnostics.clone(),
            unchecked_files: Vec::new(),
            turn_hooks,
            fork_gates: Vec::new(),
            fork_usage: self.fork_usage.clone(),
            usage_by_model: self.usage_by_model.clone(),
            own_provider: self.own_provider.clone(),
            thresholds: self.thresholds,
            pending_window: None,
            summary_backoff: compaction::SummaryBackoff::default(),
            memory: self.memory.clone(),
            vision: self.vision,
            image_limits: self.image_limits,
            pending_images: Vec::new(),
            resource_index: None,
            lifecycle: self.lifecycle.clone(),
            delegation: self.delegation.clone(),
            depth: self.depth.saturating_add(1),
            task_list: None,
        }
    }

    /// Talks to `client` from now on: another model of the session's provider, or of `provider` (its usage is
    /// counted under that provider's name).
    pub fn use_client(&mut self, client: Arc<dyn crate::llm::LlmClient>, provider: Option<String>) {
        self.client = client;
        self.own_provider = provider;
    }

    /// Runs a sub-agent's turn; while `SubagentStop` hooks keep it working (at most
    /// [`MAX_SUBAGENT_CONTINUATIONS`] times), runs it again with their reason.
    pub async fn run_subagent_turn(
        &mut self,
        request: &str,
        events: &dyn EventSink,
        cancel: tokio_util::sync::CancellationToken,
    ) -> super::TurnReport {
        let mut report = self.run_turn(request, events, cancel.clone()).await;
        let Some(lifecycle) = self.lifecycle.clone() else {
            return report;
        };
        let mut continued = 0;
        while matches!(report.outcome, super::TurnOutcome::Finished { .. })
            && continued < MAX_SUBAGENT_CONTINUATIONS
        {
            let Some(reason) = lifecycle.subagent_stopped(continued).await else {
                break;
            };
            continued += 1;
            report = self.run_turn(&reason, events, cancel.clone()).await;
        }
        report
    }

    /// Gives `sub_agent` a ledger of its own beside `ledger` (the lead's), named by its start time and `name`, so
    /// what it did survives the session (`/export` includes it). Failing to open it costs only the record: the
    /// sub-agent runs, and `events` hears why.
    pub fn record_in_sidechain(&mut self, ledger: &Ledger, name: &str, events: &dyn EventSink) {
        let name = format!("{}-{name}", chrono::Local::now().format("%Y%m%dT%H%M%S%3f"));
        match ledger.sidechain(&name, &self.system_prompt()) {
            Ok(sidechain) => self.attach_ledger(sidechain),
            Err(e) => events.emit(AgentEvent::Notice {
                notice: Notice::LedgerNotWritten {
                    error: e.to_string(),
                },
            }),
        }
    }

    /// The system prompt's text, for sub-agents that start from the lead's instructions.
    pub fn system_prompt(&self) -> String {
        self.conversation.system().text()
    }

    /// Starts a turn of this agent that its forks carry out (a plan run for `submitted`): the hooks that stay
    /// with the lead (snapshots) see the whole plan as this one turn, and their gates apply to every fork's
    /// calls. End it with [`Agent::end_forked_turn`].
    pub fn begin_forked_turn(&mut self, submitted: &str, events: &dyn EventSink) {
        self.fork_usage = Some(Arc::default());
        let scopes: Vec<_> = self
            .turn_hooks
            .iter()
            .filter(|hook| !hook.carries_into_forks())
            .map(|hook| hook.begin_turn(submitted))
            .collect();
        for scope in scopes {
            for notice in scope.notices {
                events.emit(AgentEvent::Notice { notice });
            }
            self.fork_gates.extend(scope.gates);
        }
    }

    /// Ends the turn [`Agent::begin_forked_turn`] started and records it as one exchange of this conversation
    /// (the goal and what came of it), so later turns know what was done. The forks' tokens join the session
    /// total; returns them.
    pub fn end_forked_turn(&mut self, input: &str, answer: &str) -> Usage {
        self.fork_gates.clear();
        let spent = match self.fork_usage.take() {
            Some(tally) => match tally.lock() {
                Ok(t) => *t,
                Err(poisoned) => *poisoned.into_inner(),
            },
            None => Usage::default(),
        };
        let meter = self.conversation.meter_mut();
        meter.record_side_request(spent);
        // Already spent by the forks' own turns: no later turn of the lead is billed for them.
        meter.take_unbilled();
        for hook in self.turn_hooks.iter().filter(|h| !h.carries_into_forks()) {
            hook.end_turn();
        }
        self.conversation.begin_turn(None, input);
        self.conversation.push_answer(answer);
        spent
    }
}

impl Agent {
    /// The tools this agent offers (what a sub-agent's tool filter judges).
    pub fn registry(&self) -> &Arc<crate::tools::ToolRegistry> {
        &self.registry
    }
}
