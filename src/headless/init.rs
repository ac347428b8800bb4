//! The `system`/`init` message that opens every turn, and the `initialize` answer: what the session offers
//! (tools in Claude's names, MCP servers with their state, skills), its model and permission mode.

use serde_json::{Value, json};

use std::sync::Arc;

use super::channel::Channel;
use super::flags::PermissionMode;
use super::sdk_mcp::{sdk_servers, take_sdk_servers};
use super::state::Headless;
use super::tool_limit::ToolLimit;
use crate::app::session::Session;
use crate::mcp::ServerState;
use crate::mcp::config::caller_servers;
use crate::tools::claude_names::to_claude_name;

/// paicli's version, where Claude Code reports its own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `system`/`init` message for the next turn.
pub async fn init_message(
    session: &Session,
    headless: &Headless,
    key_source: Option<&str>,
    limit: Option<&ToolLimit>,
    agents: Vec<String>,
) -> Value {
    let mut tools: Vec<String> = session
        .tools()
        .await
        .names()
        .iter()
        .filter(|name| limit.is_none_or(|l| l.allows(name)))
        .map(|name| to_claude_name(name).to_string())
        .collect();
    tools.sort();
    json!({
        "type": "system",
        "subtype": "init",
        "uuid": super::channel::uuid(),
        "session_id": headless.session_id,
        "cwd": session.config.project_root.display().to_string(),
        "tools": tools,
        "mcp_servers": mcp_servers(session),
        "model": headless.model(),
        "permissionMode": PermissionMode::of(session.approval_mode()).name(),
        "apiKeySource": key_source.unwrap_or("none"),
        "claude_code_version": VERSION,
        "version": VERSION,
        "slash_commands": [],
        "output_style": "default",
        "skills": skills(session),
        "agents": agents,
        "plugins": [],
    })
}

/// Starts the servers of `initialize`'s `mcpServers` (Claude's shape) as the caller's own, as `--mcp-config`
/// does; an SDK server (`"type": "sdk"`) is reached through `channel`. Returns the names added, or `None` when
/// `servers` is neither absent nor an object.
pub fn add_mcp_servers(
    session: &Session,
    servers: &Value,
    channel: &Arc<Channel>,
) -> Option<Vec<String>> {
    let map = match servers {
        Value::Null => return Some(Vec::new()),
        Value::Object(map) => map,
        _ => return None,
    };
    let mut entries: Vec<(String, Value)> =
        map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let sdk = take_sdk_servers(&mut entries);
    let lookup = |name: &str| session.config.env.get(name).map(str::to_string);
    let mut servers = caller_servers(&entries, &session.config.project_root, &lookup);
    servers.extend(sdk_servers(&sdk, channel));
    servers.sort_by(|a, b| a.name.cmp(&b.name));
    Some(session.services.mcp.add(servers))
}

/// The answer to `initialize`; `applied` are the servers its `mcpServers` added.
pub fn initialize_answer(
    session: &Session,
    headless: &Headless,
    applied: &[String],
    agents: Vec<Value>,
) -> Value {
    json!({
        "commands": [],
        "agents": agents,
        "output_style": "default",
        "available_output_styles": ["default"],
        "models": [{"value": headless.model(), "displayName": headless.model(), "description": ""}],
        "account": {},
        "claude_code_version": VERSION,
        "skills": skills(session),
        "mcp_servers_applied": applied,
    })
}

/// The MCP servers with their state in Claude's words.
pub fn mcp_servers(session: &Session) -> Vec<Value> {
    session
        .services
        .mcp
        .status()
        .iter()
        .map(|s| {
            let status = match &s.state {
                ServerState::Ready => "connected",
                ServerState::Starting | ServerState::OnDemand => "pending",
                ServerState::Failed(_) => "failed",
                ServerState::NeedsLogin => "needs-auth",
                ServerState::NeedsApproval { .. } => "pending",
                ServerState::Disabled => "disabled",
            };
            match &s.state {
                ServerState::Failed(reason) => {
                    json!({"name": s.name, "status": status, "error": reason})
                }
                _ => json!({"name": s.name, "status": status}),
            }
        })
        .collect()
}

fn skills(session: &Session) -> Vec<String> {
    session
        .services
        .skills
        .snapshot()
        .skills
        .iter()
        .map(|s| s.name.clone())
        .collect()
}
