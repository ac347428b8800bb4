//! The agent's events as ACP `session/update` notifications: answer and reasoning chunks, tool calls with their
//! status (and for edits the file's diff), and plan mode's plan. Sub-agents' events arrive wrapped in
//! `PlanTaskEvent` and read as ordinary updates.

use std::collections::HashMap;
use std::sync::Mutex;

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

/// Turns events into updates; keeps what a later event needs (a call's arguments, the plan so far).
#[derive(Default)]
pub struct UpdateMapper {
    /// Each running call's arguments, for the diff once it finished.
    arguments: HashMap<String, Map<String, Value>>,
    plan: PlanView,
    tasks: CallTasks,
}

impl UpdateMapper {
    /// A mapper that notes in `tasks` which plan task made each running call.
    pub fn with_tasks(tasks: CallTasks) -> Self {
        UpdateMapper {
            tasks,
            ..UpdateMapper::default()
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
            } => {
                let args = parse_arguments(&arguments);
                let call = started_call(&id, &name, &args);
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
                let fields = finished_fields(&name, &args, status == ToolStatus::Ok, detail);
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

/// Sends one turn's events to the editor.
pub struct UpdateSink {
    session: String,
    connection: ConnectionTo<Client>,
    mapper: Mutex<UpdateMapper>,
}

impl UpdateSink {
    /// A sink for the session `session`, noting in `tasks` which plan task made each running call.
    pub fn new(session: String, connection: ConnectionTo<Client>, tasks: CallTasks) -> Self {
        UpdateSink {
            session,
            connection,
            mapper: Mutex::new(UpdateMapper::with_tasks(tasks)),
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

/// The `tool_call` update of a call that started: its kind, raw input and the path it is about.
pub fn started_call(id: &str, name: &str, args: &Map<String, Value>) -> ToolCall {
    let mut call = ToolCall::new(id.to_string(), name.to_string())
        .kind(tool_kind(name))
        .status(ToolCallStatus::InProgress)
        .raw_input(Value::Object(args.clone()));
    if let Some(path) = args.get("path").and_then(Value::as_str) {
        call = call.locations(vec![ToolCallLocation::new(path)]);
    }
    call
}

/// How a finished call reads: completed with an edit's diff, or failed with its reason.
pub fn finished_fields(
    name: &str,
    args: &Map<String, Value>,
    ok: bool,
    detail: String,
) -> ToolCallUpdateFields {
    let mut content: Vec<ToolCallContent> = Vec::new();
    if ok && let Some(diff) = edit_diff(name, args) {
        content.push(diff.into());
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

/// What kind of call the editor shows.
fn tool_kind(name: &str) -> ToolKind {
    match name {
        "edit_file" | "write_file" => ToolKind::Edit,
        "read_file" | "list_dir" => ToolKind::Read,
        "grep_code" | "glob_files" | "search_code" => ToolKind::Search,
        "execute_command" => ToolKind::Execute,
        "web_fetch" | "web_search" => ToolKind::Fetch,
        _ => ToolKind::Other,
    }
}

/// The diff of a finished edit, from its arguments: old and new text for `edit_file`, the whole file for
/// `write_file`.
fn edit_diff(name: &str, args: &Map<String, Value>) -> Option<Diff> {
    let text = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_string);
    let path = text("path")?;
    match name {
        "edit_file" => Some(Diff::new(path, text("new_text")?).old_text(text("old_text"))),
        "write_file" => Some(Diff::new(path, text("content")?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
