//! Tool calls DeepSeek wrote as DSML text instead of `tool_calls`.

use crate::llm::dsml::{self, DsmlScan};
use crate::llm::{ChatResponse, ToolSpec};
use crate::protocol::{AgentEvent, EventSink, Notice};

/// DeepSeek sometimes writes tool calls as DSML text instead of `tool_calls` (spec §4). One valid block that calls
/// only offered tools becomes real calls; other DSML is shown as text with a notice that nothing was executed.
/// `held` is the answer text the stream guard kept off the screen.
pub(super) fn resolve_dsml(
    mut response: ChatResponse,
    tools: &[ToolSpec],
    held: &str,
    events: &dyn EventSink,
) -> ChatResponse {
    let show_held = || {
        if !held.is_empty() {
            events.emit(AgentEvent::TextDelta {
                text: held.to_string(),
            });
        }
    };
    if !response.tool_calls.is_empty() {
        show_held();
        return response;
    }
    let offered: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    match dsml::scan(&response.content, &offered) {
        DsmlScan::None => show_held(),
        DsmlScan::Calls { calls, text } => {
            events.emit(AgentEvent::Notice {
                notice: Notice::DsmlCallsRun { calls: calls.len() },
            });
            response.content = text;
            response.tool_calls = calls;
        }
        DsmlScan::Leftover { why } => {
            show_held();
            events.emit(AgentEvent::Notice {
                notice: Notice::DsmlNotRun { why },
            });
        }
    }
    response
}
