//! An input run as a plan: the plan engine with the front-end's reviewer, leaving the `plan` approval mode when a
//! plan made in it is approved (recorded in the ledger), and the turn event that closes it.

use tokio_util::sync::CancellationToken;

use super::Session;
use crate::agent::Agent;
use crate::plan::{LeavesPlanMode, PlanError, PlanMode, PlanReport, PlanRequest, run_plan};
use crate::protocol::plan::PlanReviewer;
use crate::protocol::{AgentEvent, EventSink};

impl Session {
    pub(super) async fn run_plan(
        &self,
        agent: &mut Agent,
        goal: String,
        mode: PlanMode,
        sink: &dyn EventSink,
        cancel: CancellationToken,
        reviewer: &dyn PlanReviewer,
    ) -> Result<PlanReport, PlanError> {
        let reviewer = LeavesPlanMode::new(reviewer, &self.approval, sink);
        let request = PlanRequest {
            goal,
            mode,
            settings: self.config.plan.clone(),
        };
        let result = run_plan(agent, request, &reviewer, sink, cancel.clone()).await;
        if let Some(mode) = reviewer.left_for() {
            agent.conversation().note_mode(mode.name());
        }
        sink.emit(match &result {
            Ok(_) if cancel.is_cancelled() => AgentEvent::TurnCancelled,
            Ok(report) => AgentEvent::TurnFinished {
                text: crate::plan::summary(report),
            },
            Err(e) => AgentEvent::TurnFailed {
                error: e.to_string(),
            },
        });
        result
    }
}
