//! The agent's events as ACP `session/update` notifications: answer and reasoning chunks, tool calls with their
//! status, and for edits the file's diff.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, Diff, SessionNotification, SessionUpdate, ToolCall,
    ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields,
    ToolKind,
};
use serde_json::{Map, Value};

use super::approver::AcpApprover;
use crate::protocol::events::ToolStatus;
use crate::protocol::{AgentEvent, EventSink};

/// Sends one turn's events to the editor.
pub struct UpdateSink {
    session: String,
    connection: ConnectionTo<Client>,
    approver: Arc<AcpApprover>,
    /// Each running call's arguments, for the diff once it finished.
    arguments: Mutex<HashMap<String, Map<String, Value>>>,
}

impl UpdateSink {
    /// A sink for the session `session`.
    pub fn new(
        session: String,
        connection: ConnectionTo<Client>,
        approver: Arc<AcpApprover>,
    ) -> Self {
        UpdateSink {
            session,
            connection,
            approver,
            arguments: Mutex::default(),
        }
    }

    fn send(&self, update: SessionUpdate) {
        // A failed send means the editor went away; the turn ends on its own when cancelled.
        let _ = self
            .connection
            .send_notification(SessionNotification::new(self.session.clone(), update));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Map<String, Value>>> {
        self.arguments
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl EventSink for UpdateSink {
    fn emit(&self, event: AgentEvent) {
        match event {
            AgentEvent::TextDelta { text } => {
                self.send(SessionUpdate::AgentMessageChunk(ContentChunk::new(
                    text.into(),
                )));
            }
            AgentEvent::ReasoningDelta { text } => {
                self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(
                    text.into(),
                )));
            }
            AgentEvent::ToolCallStarted {
                id,
                name,
                arguments,
            } => {
                self.approver.call_started(&name, &id);
                let args = match serde_json::from_str(&arguments) {
                    Ok(Value::Object(args)) => args,
                    _ => Map::new(),
                };
                let mut call = ToolCall::new(id.clone(), name.clone())
                    .kind(tool_kind(&name))
                    .status(ToolCallStatus::InProgress)
                    .raw_input(Value::Object(args.clone()));
                if let Some(path) = args.get("path").and_then(Value::as_str) {
                    call = call.locations(vec![ToolCallLocation::new(path)]);
                }
                self.lock().insert(id, args);
                self.send(SessionUpdate::ToolCall(call));
            }
            AgentEvent::ToolCallFinished {
                id,
                name,
                status,
                detail,
                ..
            } => {
                let args = self.lock().remove(&id).unwrap_or_default();
                let mut content: Vec<ToolCallContent> = Vec::new();
                let ok = status == ToolStatus::Ok;
                if ok && let Some(diff) = edit_diff(&name, &args) {
                    content.push(diff.into());
                }
                if !detail.is_empty() {
                    content.push(ContentBlock::from(detail).into());
                }
                let fields = ToolCallUpdateFields::new()
                    .status(if ok {
                        ToolCallStatus::Completed
                    } else {
                        ToolCallStatus::Failed
                    })
                    .content(content);
                self.send(SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                    id, fields,
                )));
            }
            AgentEvent::TurnFailed { error } => {
                self.send(SessionUpdate::AgentMessageChunk(ContentChunk::new(
                    error.into(),
                )));
            }
            _ => {}
        }
    }
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
