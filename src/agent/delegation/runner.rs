//! Runs one `agent` call: looks the definition up, picks its model, forks the sub-agent, narrows its tools,
//! gives it a sidechain and runs its turn; its final report is the call's result.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::agent_tools::AgentTools;
use super::sink::SubAgentSink;
use super::{AGENT_MODEL_REFUSED, DelegationSetup, MAX_DEPTH, PickedModel};
use crate::agent::{Agent, TurnOutcome};
use crate::llm::Usage;
use crate::protocol::{AgentEvent, EventSink, Notice, ToolTraitsLookup};
use crate::session::ledger::Ledger;
use crate::tools::delegate::{DelegateTask, Delegation};
use crate::tools::{ToolContext, ToolOutcome};

/// One turn's runner of `agent` calls, made by the agent whose calls it runs.
pub struct Delegator {
    /// A fork of that agent with no conversation: each call forks it again with the definition's prompt.
    pub(super) seed: Agent,
    pub(super) setup: DelegationSetup,
    /// The calling agent's ledger: each sub-agent gets a sidechain beside it.
    pub(super) ledger: Option<Ledger>,
    pub(super) events: UnboundedSender<AgentEvent>,
    /// What every sub-agent of the turn spent (the caller adds it to its turn and session).
    pub(super) spent: Arc<Mutex<Usage>>,
}

#[async_trait]
impl Delegation for Delegator {
    async fn delegate(&self, task: DelegateTask, ctx: &ToolContext) -> ToolOutcome {
        self.run(task, ctx.cancel.clone()).await
    }
}

impl Delegator {
    /// Runs `task` until its sub-agent answers or `cancel` fires.
    pub async fn run(&self, task: DelegateTask, cancel: CancellationToken) -> ToolOutcome {
        let Some(def) = self.setup.catalog.get(&task.agent) else {
            let known: Vec<&str> = self
                .setup
                .catalog
                .agents
                .iter()
                .map(|a| a.name.as_str())
                .collect();
            return ToolOutcome::failed(format!(
                "unknown agent `{}`; available: {}",
                task.agent,
                known.join(", ")
            ));
        };
        if self.seed.depth > MAX_DEPTH {
            return ToolOutcome::failed(format!(
                "sub-agents may nest at most {MAX_DEPTH} deep; do this task yourself"
            ));
        }
        let picked = match self.setup.models.pick(def) {
            Ok(picked) => picked,
            Err(refused) => {
                return ToolOutcome::Denied {
                    code: AGENT_MODEL_REFUSED.to_string(),
                    reason: refused.to_string(),
                };
            }
        };
        let sink = SubAgentSink {
            parent_call_id: task.call_id.clone(),
            agent: def.name.clone(),
            tx: self.events.clone(),
        };
        let mut sub = self.seed.fork(def.prompt.clone());
        // The seed stands for the sub-agent: forking it again is not another level.
        sub.depth = self.seed.depth;
        match picked {
            PickedModel::Lead => {}
            PickedModel::LeadForAlias(alias) => sink.emit(AgentEvent::Notice {
                notice: Notice::AgentModelInherited {
                    agent: def.name.clone(),
                    alias,
                    model: sub.model().to_string(),
                },
            }),
            PickedModel::Own { client, provider } => sub.use_client(client, provider),
        }
        sub.fork_usage = Some(Arc::clone(&self.spent));
        sub.turn_hooks.insert(
            0,
            Arc::new(AgentTools {
                agent: def.name.clone(),
                choice: def.tools.clone(),
                may_delegate: def.may_delegate() && sub.depth < MAX_DEPTH,
                tools: Arc::clone(&sub.registry) as Arc<dyn ToolTraitsLookup>,
            }),
        );
        if let Some(ledger) = &self.ledger {
            sub.record_in_sidechain(ledger, &format!("{}-{}", def.name, task.call_id), &sink);
        }
        let report = sub.run_subagent_turn(&task.prompt, &sink, cancel).await;
        outcome_of(report.outcome)
    }
}

/// The sub-agent's report as the call's outcome.
fn outcome_of(outcome: TurnOutcome) -> ToolOutcome {
    match outcome {
        TurnOutcome::Finished { text } | TurnOutcome::CutOff { text } => ToolOutcome::ok(text),
        TurnOutcome::Partial { reason, text } => {
            ToolOutcome::ok(format!("[the agent stopped early: {reason}]\n{text}"))
        }
        TurnOutcome::Empty { .. } => ToolOutcome::failed("the agent gave no answer"),
        TurnOutcome::Cancelled => ToolOutcome::Cancelled {
            partial: String::new(),
        },
        TurnOutcome::Failed(e) => ToolOutcome::failed(format!("the agent failed: {e}")),
    }
}
