//! MCP servers the caller names for one run (`--mcp-config`, the Agent SDK's `initialize`): the person's own
//! command line, never read from a file of the project, so they start without the project trust prompt.

use serde_json::Value;

/// The servers named on the command line, raw (each resolved on its own by the MCP client).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallerMcp {
    /// `(name, entry)` in Claude's `mcpServers` shape; a later one wins by name.
    pub servers: Vec<(String, Value)>,
    /// Only these: no servers from the user's or the project's mcp.json (`--strict-mcp-config`).
    pub strict: bool,
}
