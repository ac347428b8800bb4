//! The agent's events as ACP `session/update` notifications: answer and reasoning chunks, tool calls with their
//! status (and for edits the file's diff), and plan mode's plan. Sub-agents' events arrive wrapped in
//! `PlanTaskEvent` and read as ordinary updates. A call's kind, locations and diff are what its tool declares
//! ([`CallTools`]); paths go to the editor absolute, as ACP requires.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, CurrentModeUpdate, Diff, SessionNotification, SessionUpdate,
    ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields, ToolKind,
};
use serde_json::{Map, Value};

use super::plan::PlanView;
use crate::plan::CallTasks;
use crate::protocol::events::ToolStatus;
use crate::protocol::plan::TaskState;
use crate::protocol::{AgentEvent, EventSink, Notice};
use crate::tools::{CallView, ToolRegistry};

/// The session's tools and project root: what a call of a given name is (its kind, the files it is about, the
/// edit it asks for), with paths made absolute.
#[derive(Clone)]
pub struct CallTools {
    pub tools: Arc<ToolRegistry>,
    /// The project root (canonical) the model's relative paths are relative to.
    pub root: PathBuf,
}

impl CallTools {
    fn view(&self, name: &str, args: &Map<String, Value>) -> CallView {
        CallView::of_args(self.tools.get(name).as_deref(), args, &self.root)
    }
}

/// Turns events into updates; keeps what a later event needs (a call's arguments, the plan so far).
pub struct UpdateMapper {
    calls: CallTools,
    /// Each running call's arguments, for the diff once it finished.
    arguments: HashMap<String, Map<String, Value>>,
    plan: PlanView,
    tasks: CallTasks,
}

impl UpdateMapper {
    /// A mapper for calls of `calls`' tools that notes in `tasks` which plan task made each running call.
    pub fn new(calls: CallTools, tasks: CallTasks) -> Self {
        UpdateMapper {
            calls,
            arguments: HashMap::new(),
            plan: PlanView::default(),
            tasks,
        }
    }

    /// The updates `event` makes (none for events the editor has no place for).
    pub fn map(&mut self, event: AgentEvent) -> Vec<SessionUpdate> {
        match event {
            AgentEvent::TextDelta { text } => {
                vec![SessionUpdate::AgentMessageChunk(ContentChunk::new(
                    text.into(),
                ))]
            }
            AgentEvent::ReasoningDelta { text } => {
                vec![SessionUpdate::AgentThoughtChunk(ContentChunk::new(
                    text.into(),
                ))]
            }
            AgentEvent::ToolCallStarted {
                id,
                name,
                arguments,
                ..
            } => {
                let args = parse_arguments(&arguments);
                let call = started_call(&self.calls, &id, &name, &args);
                self.arguments.insert(id, args);
                vec![SessionUpdate::ToolCall(call)]
            }
            AgentEvent::ToolCallFinished {
                id,
                name,
                status,
                detail,
                ..
            } => {
                let args = self.arguments.remove(&id).unwrap_or_default();
                let fields =
                    finished_fields(&self.calls, &name, &args, status == ToolStatus::Ok, detail);
                vec![SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                    id, fields,
                ))]
            }
            AgentEvent::TurnFailed { error } => {
                vec![SessionUpdate::AgentMessageChunk(ContentChunk::new(
                    error.into(),
                ))]
            }
            AgentEvent::PlanProposed { plan, .. } => {
                vec![SessionUpdate::Plan(self.plan.propose(&plan))]
            }
            AgentEvent::PlanTaskStarted { task_id, .. } => self
                .plan
                .set_state(&task_id, TaskState::Running)
                .map(SessionUpdate::Plan)
                .into_iter()
                .collect(),
            AgentEvent::PlanTaskFinished { task_id, state, .. } => self
                .plan
                .set_state(&task_id, state)
                .map(SessionUpdate::Plan)
                .into_iter()
                .collect(),
            AgentEvent::PlanFinished { outcomes } => outcomes
                .iter()
                .filter_map(|o| self.plan.set_state(&o.task_id, o.state))
                .last()
                .map(SessionUpdate::Plan)
                .into_iter()
                .collect(),
            AgentEvent::PlanTaskEvent { task_id, event } => {
                self.tasks.observe(&task_id, &event);
                let mut updates = self.map(*event);
                for update in &mut updates {
                    if let SessionUpdate::ToolCall(call) = update {
                        call.title = self.tasks.titled(&call.tool_call_id.0, &call.title);
                    }
                }
                updates
            }
            AgentEvent::TaskList { list } => {
                vec![SessionUpdate::Plan(super::plan::task_list_plan(&list))]
            }
            // A sub-agent's calls: titled with its name, `_meta` naming it and the `agent` call that started it.
            AgentEvent::SubAgent {
                parent_call_id,
                agent,
                event,
            } => {
                let meta = sub_agent_meta(&parent_call_id, &agent);
                let mut updates = self.map(*event);
                for update in &mut updates {
                    match update {
                        SessionUpdate::ToolCall(call) => {
                            call.title = format!("[{agent}] {}", call.title);
                            call.meta = Some(meta.clone());
                        }
                        SessionUpdate::ToolCallUpdate(call) => call.meta = Some(meta.clone()),
                        _ => {}
                    }
                }
                // Its answer is the `agent` call's result, not the lead's words.
                updates.retain(|u| {
                    matches!(
                        u,
                        SessionUpdate::ToolCall(_)
                            | SessionUpdate::ToolCallUpdate(_)
                            | SessionUpdate::Plan(_)
                    )
                });
                updates
            }
            // Approving a plan made in plan mode switched the session mode.
            AgentEvent::Notice {
                notice: Notice::PlanModeLeft { mode },
            } => vec![SessionUpdate::CurrentModeUpdate(CurrentModeUpdate::new(
                mode,
            ))],
            _ => Vec::new(),
        }
    }
}

/// `_meta` of a sub-agent's call: which agent made it, under which `agent` call.
fn sub_agent_meta(parent_call_id: &str, agent: &str) -> serde_json::Map<String, Value> {
    let mut paicli = serde_json::Map::new();
    paicli.insert("agent".into(), Value::String(agent.to_string()));
    paicli.insert(
        "parentToolCallId".into(),
        Value::String(parent_call_id.to_string()),
    );
    let mut meta = serde_json::Map::new();
    meta.insert("paicli".into(), Value::Object(paicli));
    meta
}

/// Sends one turn's events to the editor.
pub struct UpdateSink {
    session: String,
    connection: ConnectionTo<Client>,
    mapper: Mutex<UpdateMapper>,
}

impl UpdateSink {
    /// A sink for the session `session` over `calls`' tools, noting in `tasks` which plan task made each
    /// running call.
    pub fn new(
        session: String,
        connection: ConnectionTo<Client>,
        calls: CallTools,
        tasks: CallTasks,
    ) -> Self {
        UpdateSink {
            session,
            connection,
            mapper: Mutex::new(UpdateMapper::new(calls, tasks)),
        }
    }
}

impl EventSink for UpdateSink {
    fn emit(&self, event: AgentEvent) {
        let updates = self
            .mapper
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .map(event);
        for update in updates {
            send(&self.connection, &self.session, update);
        }
    }
}

/// Sends one update; a failed send means the editor went away, and the turn ends on its own when cancelled.
pub fn send(connection: &ConnectionTo<Client>, session: &str, update: SessionUpdate) {
    let _ = connection.send_notification(SessionNotification::new(session.to_string(), update));
}

/// A call's arguments as an object (`{}` when the model's JSON was not one).
pub fn parse_arguments(arguments: &str) -> Map<String, Value> {
    match serde_json::from_str(arguments) {
        Ok(Value::Object(args)) => args,
        _ => Map::new(),
    }
}

/// The `tool_call` update of a call that started: its kind, raw input and the files it is about (absolute).
pub fn started_call(
    calls: &CallTools,
    id: &str,
    name: &str,
    args: &Map<String, Value>,
) -> ToolCall {
    let view = calls.view(name, args);
    let mut call = ToolCall::new(id.to_string(), name.to_string())
        .kind(acp_kind(view.kind))
        .status(ToolCallStatus::InProgress)
        .raw_input(Value::Object(args.clone()));
    if !view.locations.is_empty() {
        call = call.locations(
            view.locations
                .into_iter()
                .map(ToolCallLocation::new)
                .collect(),
        );
    }
    call
}

/// How a finished call reads: completed with the diff of the edit its tool says it asked for, or failed with its
/// reason.
pub fn finished_fields(
    calls: &CallTools,
    name: &str,
    args: &Map<String, Value>,
    ok: bool,
    detail: String,
) -> ToolCallUpdateFields {
    let mut content: Vec<ToolCallContent> = Vec::new();
    if ok && let Some(edit) = calls.tools.proposed_edit(name, args, &calls.root) {
        content.push(
            Diff::new(edit.path, edit.new_text)
                .old_text(edit.old_text)
                .into(),
        );
    }
    if !detail.is_empty() {
        content.push(ContentBlock::from(detail).into());
    }
    ToolCallUpdateFields::new()
        .status(if ok {
            ToolCallStatus::Completed
        } else {
            ToolCallStatus::Failed
        })
        .content(content)
}

/// Our kind of call as ACP's.
fn acp_kind(kind: crate::protocol::ToolKind) -> ToolKind {
    use crate::protocol::ToolKind as Ours;
    match kind {
        Ours::Read => ToolKind::Read,
        Ours::Edit => ToolKind::Edit,
        Ours::Search => ToolKind::Search,
        Ours::Execute => ToolKind::Execute,
        Ours::Fetch => ToolKind::Fetch,
        Ours::Think => ToolKind::Think,
        Ours::Other => ToolKind::Other,
    }
}

#[cfg(test)]
pub(super) mod tests;
