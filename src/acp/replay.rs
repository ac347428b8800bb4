//! `session/load`: the stored history told again as the updates the editor would have seen live (the user's
//! messages, the answers and reasoning, each tool call with its final status and an edit's diff), so a loaded
//! session's thread shows what happened before.

use std::collections::HashMap;

use agent_client_protocol::v1::schema::{ContentChunk, SessionUpdate, ToolCall};

use super::updates::{CallTools, finished_fields, parse_arguments, started_call};
use crate::protocol::message::{Message, Role, ToolCall as CallRequest};

/// The updates that replay `history` (the system prompt is not shown), each call as `tools` describe it.
pub fn replay(history: &[Message], tools: &CallTools) -> Vec<SessionUpdate> {
    let mut updates = Vec::new();
    let mut calls: HashMap<&str, &CallRequest> = HashMap::new();
    for message in history {
        let text = message.text();
        match message.role {
            Role::System => {}
            Role::User => {
                if !text.is_empty() {
                    updates.push(SessionUpdate::UserMessageChunk(ContentChunk::new(
                        text.into(),
                    )));
                }
            }
            Role::Assistant => {
                if let Some(reasoning) = message.reasoning_content.as_deref() {
                    updates.push(SessionUpdate::AgentThoughtChunk(ContentChunk::new(
                        reasoning.to_string().into(),
                    )));
                }
                if !text.is_empty() {
                    updates.push(SessionUpdate::AgentMessageChunk(ContentChunk::new(
                        text.into(),
                    )));
                }
                calls.extend(message.tool_calls.iter().map(|c| (c.id.as_str(), c)));
            }
            Role::Tool => {
                let Some(call) = message.tool_call_id.as_deref().and_then(|id| calls.get(id))
                else {
                    continue;
                };
                updates.push(SessionUpdate::ToolCall(finished_call(tools, call, &text)));
            }
        }
    }
    updates
}

/// One stored call as a single `tool_call` update in its final state.
fn finished_call(tools: &CallTools, call: &CallRequest, result: &str) -> ToolCall {
    let args = parse_arguments(&call.arguments);
    let body = crate::tools::boundary::unwrap(result);
    let ok = succeeded(body);
    // A success's text was the model's, not the editor's; a refusal or failure says why.
    let detail = if ok { String::new() } else { body.to_string() };
    let fields = finished_fields(tools, &call.name, &args, ok, detail);
    let mut shown = started_call(tools, &call.id, &call.name, &args);
    shown.status = fields.status.unwrap_or_default();
    shown.content = fields.content.unwrap_or_default();
    shown
}

/// Whether a stored result was a success. The ledger keeps the text the model saw, not the typed outcome, and
/// `ToolOutcome::model_text` marks every other outcome with one of these prefixes.
fn succeeded(body: &str) -> bool {
    !["[denied: ", "[error] ", "[aborted by user]"]
        .iter()
        .any(|prefix| body.starts_with(prefix))
}

#[cfg(test)]
mod tests;
