//! Where the events of plan roles go: a task's sub-agent events arrive wrapped with its id; the planner shows
//! only what a person should see of it (tool calls, notices, usage), not its JSON answer or turn end.

use crate::protocol::{AgentEvent, EventSink};

/// Wraps every event of one task's sub-agent as [`AgentEvent::PlanTaskEvent`].
pub struct TaskSink<'a> {
    pub task_id: String,
    pub inner: &'a dyn EventSink,
}

impl EventSink for TaskSink<'_> {
    fn emit(&self, event: AgentEvent) {
        self.inner.emit(AgentEvent::PlanTaskEvent {
            task_id: self.task_id.clone(),
            event: Box::new(event),
        });
    }

    fn wants_tool_output(&self) -> bool {
        self.inner.wants_tool_output()
    }
}

/// Passes on the planner's (and reviewer's) tool calls, notices and usage; drops its streamed text and turn
/// events, which front-ends would take for the lead's answer.
pub struct RoleSink<'a> {
    pub inner: &'a dyn EventSink,
}

impl EventSink for RoleSink<'_> {
    fn emit(&self, event: AgentEvent) {
        match event {
            AgentEvent::ToolCallStarted { .. }
            | AgentEvent::ToolCallFinished { .. }
            | AgentEvent::Notice { .. }
            | AgentEvent::Usage { .. }
            | AgentEvent::Compacted { .. } => self.inner.emit(event),
            _ => {}
        }
    }
}
