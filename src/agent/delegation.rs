//! Delegation: the `agent` tool's sub-agents. Each call forks a sub-agent from the agent that made it (the one
//! loop, `Agent::fork`) with a fresh conversation, its definition's prompt, tools and model, records it in a
//! ledger sidechain, and passes its events on, wrapped with the call's id. The lead's turn sets a [`Delegator`]
//! in the tools' context per turn (see `turn.rs`).

mod agent_tools;
mod runner;
mod sink;

use std::sync::Arc;

use crate::agents::{AgentCatalog, AgentDef};
use crate::llm::LlmClient;

pub use runner::Delegator;

/// How deep delegation may go: the lead is 0, its sub-agents 1, theirs 2 (which may not delegate again).
pub const MAX_DEPTH: u8 = 2;

/// The denial code of an `agent` call whose definition names a model the user did not configure.
pub const AGENT_MODEL_REFUSED: &str = "AGENT_MODEL_REFUSED";

/// What a session delegates with: the agents it knows, where their models come from, and plan mode's role models.
#[derive(Clone)]
pub struct DelegationSetup {
    pub catalog: Arc<AgentCatalog>,
    pub models: Arc<dyn ModelSource>,
    pub roles: RoleModels,
}

/// `[plan] planner_model`, `worker_model`, `reviewer_model`: unset = the lead's model.
#[derive(Clone, Debug, Default)]
pub struct RoleModels {
    pub planner: Option<String>,
    pub worker: Option<String>,
    pub reviewer: Option<String>,
}

/// A role of plan and team mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanRole {
    Planner,
    Worker,
    Reviewer,
}

impl PlanRole {
    fn name(self) -> &'static str {
        match self {
            PlanRole::Planner => "planner",
            PlanRole::Worker => "worker",
            PlanRole::Reviewer => "reviewer",
        }
    }
}

/// Which client a definition's sub-agent talks to.
pub enum PickedModel {
    /// The lead's client.
    Lead,
    /// The lead's client, because the definition named a Claude alias no provider serves (the person is told).
    LeadForAlias(String),
    /// A client of its own: another model of the lead's provider (`provider` is `None`) or of `provider`.
    Own {
        client: Arc<dyn LlmClient>,
        provider: Option<String>,
    },
}

/// Why a definition's model cannot be used; the text goes to the model as the call's result.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelRefused {
    #[error("agent `{agent}` names provider `{provider}`, which paicli does not know")]
    UnknownProvider { agent: String, provider: String },
    #[error(
        "agent `{agent}` names provider `{provider}`, which you have not configured (its own key and URL in \
         your config or environment): the agent was not run"
    )]
    NotConfigured { agent: String, provider: String },
    #[error("agent `{agent}`: {reason}")]
    Unusable { agent: String, reason: String },
}

/// Makes the clients of the providers the user configured (the session host implements it from its config).
pub trait ModelSource: Send + Sync {
    /// The client `def`'s sub-agent talks to.
    fn pick(&self, def: &AgentDef) -> Result<PickedModel, ModelRefused>;
}

/// What a turn holds while its `agent` calls may run: the runner for the tools' context, the channel of its
/// sub-agents' events, and the tokens they spent.
pub(super) struct TurnDelegation {
    pub(super) delegator: Arc<Delegator>,
    pub(super) events: tokio::sync::mpsc::UnboundedReceiver<crate::protocol::AgentEvent>,
    pub(super) spent: Arc<std::sync::Mutex<crate::llm::Usage>>,
}

impl super::Agent {
    /// Lets the model run `setup`'s agents with the `agent` tool (sub-agents inherit it, to [`MAX_DEPTH`]).
    pub fn set_delegation(&mut self, setup: DelegationSetup) {
        self.delegation = Some(setup);
    }

    /// Adds the caller's `defs` to the agents the model may run (each replacing one of the same name), and lists
    /// them in the `agent` tool's description from the next request on. Nothing when delegation is off.
    pub fn add_agents(&mut self, defs: Vec<AgentDef>) {
        let Some(setup) = &mut self.delegation else {
            return;
        };
        let mut catalog = AgentCatalog::clone(&setup.catalog);
        catalog.add(defs);
        let listed = catalog
            .agents
            .iter()
            .map(|a| (a.name.as_str(), a.description.as_str()));
        // Only where the tool is on offer (`[agents] enabled`); a session without it keeps running none.
        self.registry
            .replace(Arc::new(crate::tools::delegate::AgentTool::new(listed)));
        setup.catalog = Arc::new(catalog);
    }

    /// The agents this session knows (for `/agents`), when delegation is on.
    pub fn agent_catalog(&self) -> Option<&Arc<AgentCatalog>> {
        self.delegation.as_ref().map(|d| &d.catalog)
    }

    /// This turn's runner of `agent` calls; `lead_gates` are the gates of this turn's hooks that stay with the
    /// lead (snapshots), which its sub-agents' calls pass too. `None` when this agent may not delegate.
    pub(super) fn begin_delegation(
        &self,
        lead_gates: Vec<Arc<dyn crate::protocol::CallGate>>,
    ) -> Option<TurnDelegation> {
        let setup = self.delegation.clone()?;
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let mut seed = self.fork(String::new());
        seed.tool_ctx.gates.extend(lead_gates);
        let (tx, events) = tokio::sync::mpsc::unbounded_channel();
        let spent = Arc::default();
        let delegator = Arc::new(Delegator {
            seed,
            setup,
            ledger: self.conversation.ledger().cloned(),
            events: tx,
            spent: Arc::clone(&spent),
        });
        Some(TurnDelegation {
            delegator,
            events,
            spent,
        })
    }
}

/// Runs one defined agent outside a turn (`/review`, `paicli review`), its events passed to a sink of the
/// caller's; made by [`super::Agent::agent_runner`].
pub struct AgentRunner(TurnDelegation);

impl AgentRunner {
    /// Runs the agent `name` on `prompt` to its end (or `cancel`); returns its report (or why there is none)
    /// and the tokens it spent, for the caller to add with [`super::Agent::record_side_usage`].
    pub async fn run(
        &mut self,
        name: &str,
        prompt: &str,
        events: &dyn crate::protocol::EventSink,
        cancel: tokio_util::sync::CancellationToken,
    ) -> (crate::tools::ToolOutcome, crate::llm::Usage) {
        let task = crate::tools::delegate::DelegateTask {
            call_id: name.to_string(),
            agent: name.to_string(),
            prompt: prompt.to_string(),
            description: String::new(),
        };
        let delegator = Arc::clone(&self.0.delegator);
        let work = delegator.run(task, cancel);
        tokio::pin!(work);
        let outcome = loop {
            tokio::select! {
                biased;
                Some(event) = self.0.events.recv() => events.emit(event),
                done = &mut work => break done,
            }
        };
        while let Ok(event) = self.0.events.try_recv() {
            events.emit(event);
        }
        let spent = match self.0.spent.lock() {
            Ok(mut t) => std::mem::take(&mut *t),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        (outcome, spent)
    }
}

impl super::Agent {
    /// A runner of this session's defined agents outside a turn; `None` when delegation is off.
    pub fn agent_runner(&self) -> Option<AgentRunner> {
        self.begin_delegation(Vec::new()).map(AgentRunner)
    }

    /// Adds tokens spent outside a turn (an [`AgentRunner`]'s agent) to the session's total.
    pub fn record_side_usage(&mut self, usage: crate::llm::Usage) {
        self.conversation.meter_mut().record_side_request(usage);
    }
}

impl super::Agent {
    /// A fork for plan mode's `role` on the model `[plan]` names for it (the lead's when none, or when that
    /// model cannot be used: `events` hears why).
    pub fn fork_as(
        &self,
        role: PlanRole,
        system_prompt: String,
        events: &dyn crate::protocol::EventSink,
    ) -> super::Agent {
        let mut sub = self.fork(system_prompt);
        let Some(setup) = &self.delegation else {
            return sub;
        };
        let spec = match role {
            PlanRole::Planner => &setup.roles.planner,
            PlanRole::Worker => &setup.roles.worker,
            PlanRole::Reviewer => &setup.roles.reviewer,
        };
        let Some(spec) = spec else { return sub };
        let def = AgentDef {
            name: role.name().to_string(),
            description: String::new(),
            tools: crate::agents::ToolChoice::All,
            model: crate::agents::parse::model_spec(spec),
            prompt: String::new(),
            layer: crate::agents::Layer::UserPaicli,
            path: None,
        };
        match setup.models.pick(&def) {
            Ok(PickedModel::Own { client, provider }) => sub.use_client(client, provider),
            Ok(PickedModel::Lead | PickedModel::LeadForAlias(_)) => {}
            Err(refused) => events.emit(crate::protocol::AgentEvent::Notice {
                notice: crate::protocol::Notice::RoleModelRefused {
                    role: role.name().to_string(),
                    reason: refused.to_string(),
                },
            }),
        }
        sub
    }
}
