//! The small interface paicli uses to talk to one connected MCP server, and the plain data it returns.

use async_trait::async_trait;
use serde_json::{Map, Value};

/// Why an MCP operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    /// The server's configuration is unusable (missing variable, neither command nor url, ...).
    #[error("{0}")]
    Config(String),
    /// The server could not be started or did not complete `initialize`.
    #[error("{0}")]
    Connect(String),
    /// A request got no answer in time.
    #[error("{what} timed out after {secs} s")]
    Timeout { what: String, secs: u64 },
    /// The user cancelled the call.
    #[error("cancelled")]
    Cancelled,
    /// The connection is gone (the server exited or the HTTP session ended).
    #[error("the server connection closed: {0}")]
    Closed(String),
    /// The server wants OAuth authorization and no usable tokens are stored.
    #[error("the server needs you to log in")]
    NeedsLogin,
    /// The server still refuses the request for want of OAuth scope, after the step-ups a session may run.
    #[error(
        "the server refused the request because it needs the OAuth scope `{scope}`, which authorizing again did not grant"
    )]
    ScopeRefused { scope: String },
    /// The server answered with a JSON-RPC error or something unreadable.
    #[error("{0}")]
    Server(String),
}

/// A tool as the server lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteTool {
    pub name: String,
    pub description: String,
    /// The raw `inputSchema` (sanitized later).
    pub input_schema: Value,
    /// What the server's `annotations` claim about it.
    pub hints: ToolHints,
}

/// A server's claims about one of its tools (MCP tool annotations), unset ones false. Its own word, so only what
/// a person sees follows them (the kind of call shown), never what a call may do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`: it changes nothing.
    pub read_only: bool,
    /// `openWorldHint: true`: it reaches things outside the server (the web, other services).
    pub open_world: bool,
}

impl ToolHints {
    /// The hints a tool's `annotations` object sets to `true` (anything else, or no object, leaves them false).
    pub fn from_annotations(annotations: Option<&Value>) -> ToolHints {
        let set = |key: &str| {
            annotations
                .and_then(|a| a.get(key))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        ToolHints {
            read_only: set("readOnlyHint"),
            open_world: set("openWorldHint"),
        }
    }
}

/// A `tools/call` reply: raw MCP content items (`{type: text|image|...}`) and the `isError` flag.
#[derive(Debug, Clone, PartialEq)]
pub struct CallReply {
    pub content: Vec<Value>,
    pub is_error: bool,
}

/// A resource as the server lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteResource {
    pub uri: String,
    pub name: String,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

/// A prompt template as the server lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemotePrompt {
    pub name: String,
    pub description: Option<String>,
    /// Argument names; a trailing `*` marks a required one.
    pub arguments: Vec<String>,
}

/// One connected server. Futures may be dropped at any time; a dropped call tells the server it was cancelled.
#[async_trait]
pub trait McpSession: Send + Sync {
    /// Every tool the server offers now.
    async fn list_tools(&self) -> Result<Vec<RemoteTool>, McpError>;
    /// Calls a tool.
    async fn call_tool(&self, name: &str, args: Map<String, Value>) -> Result<CallReply, McpError>;
    /// True when the server declared the resources capability.
    fn supports_resources(&self) -> bool;
    /// Every resource the server lists.
    async fn list_resources(&self) -> Result<Vec<RemoteResource>, McpError>;
    /// The contents of one resource: raw MCP items (`{uri, mimeType, text}` or `{uri, mimeType, blob}`).
    async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, McpError>;
    /// True when the server declared the prompts capability.
    fn supports_prompts(&self) -> bool;
    /// Every prompt template the server lists (shown to the user; paicli does not run prompts).
    async fn list_prompts(&self) -> Result<Vec<RemotePrompt>, McpError>;
    /// The protocol version `initialize` settled on.
    fn protocol_version(&self) -> Option<String>;
    /// True once the connection is gone.
    fn is_closed(&self) -> bool;
    /// Ends the session (stdio: close stdin, wait, then terminate; HTTP: end the session).
    async fn close(&self);
}

/// A notification from a server that the manager acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerEvent {
    /// `notifications/tools/list_changed`: list the tools again.
    ToolsChanged,
    /// `notifications/resources/list_changed`: forget the resource cache and list again.
    ResourcesChanged,
    /// `notifications/resources/updated`: forget the cached contents of this URI.
    ResourceUpdated(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_hints_set_to_true_count() {
        let hints = |v: Value| ToolHints::from_annotations(Some(&v));
        assert_eq!(
            hints(json!({"readOnlyHint": true, "openWorldHint": true})),
            ToolHints {
                read_only: true,
                open_world: true
            }
        );
        // The spec's default for openWorldHint is true, but only what a server says is taken.
        assert_eq!(
            hints(json!({"readOnlyHint": true})),
            ToolHints {
                read_only: true,
                open_world: false
            }
        );
        assert_eq!(hints(json!({"readOnlyHint": "yes"})), ToolHints::default());
        assert_eq!(ToolHints::from_annotations(None), ToolHints::default());
    }
}
