//! `[mcp]`: how long paicli waits for MCP servers, and whether project servers start unasked.

use std::time::Duration;

use super::settings::{Plain, Project, Secs, declare_settings, setting};

declare_settings! {
    /// MCP client settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct McpSettings in config.mcp {
        /// The first turn waits at most this long for servers still starting; later ones join when ready.
        pub startup_wait: Duration = setting("mcp.startup_wait_secs", Secs(8))
            .aliases(&["mcp.startup_wait_seconds"])
            .env(&["PAICLI_MCP_STARTUP_WAIT_SECS", "PAICLI_MCP_STARTUP_WAIT_SECONDS"]),
        /// Limit on a server's initialize handshake.
        pub initialize_timeout: Duration = setting("mcp.initialize_timeout_secs", Secs(60))
            .aliases(&["mcp.initialize_timeout_seconds"]),
        /// Limit on one MCP tool call or resource read; the server is sent notifications/cancelled after it.
        pub call_timeout: Duration = setting("mcp.call_timeout_secs", Secs(60))
            .aliases(&["mcp.call_timeout_seconds"]),
        /// Start the project's MCP servers (.mcp.json, .paicli/mcp.json) without asking. Otherwise each runs only
        /// once approved for this project and command line (remembered in $PAICLI_HOME/mcp-trust.json).
        pub trust_project_servers: bool = setting("mcp.trust_project_servers", Plain(false))
            .flag("--trust-project-mcp")
            .project(Project::Never),
    }
}
