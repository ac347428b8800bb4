//! MCP client: server config (`mcp.json`), project-server approvals, the background manager, tool naming and
//! schema cleanup, result conversion, resources and `@server:uri` mentions. The wire protocol is the official
//! `rmcp` SDK, used only in [`rmcp_session`]; everything else sees the small [`McpSession`] trait.

pub mod browser_entry;
pub mod config;
pub mod content;
pub mod elicit;
mod http_client;
pub mod link;
pub mod manager;
pub mod mentions;
pub mod names;
pub mod oauth;
mod refresh;
mod rmcp_session;
pub mod schema;
pub mod sdk_relay;
pub mod session;
pub mod stderr_ring;
pub mod trust;

pub use config::{Launch, McpConfig, Origin, ServerConfig};
pub use elicit::{DefaultsElicitor, ElicitAnswer, ElicitRequest, Elicitor};
pub use manager::{McpManager, ServerLink, ServerState, ServerStatus, StartOptions, ToolPublisher};
pub use mentions::{MentionRead, expand_mentions, expand_mentions_observed};
pub use session::{
    CallReply, McpError, McpSession, RemotePrompt, RemoteResource, RemoteTool, ServerEvent,
    ToolHints,
};
