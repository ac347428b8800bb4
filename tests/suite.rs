//! Integration test modules (compiled into the single `all` test binary).

mod agent_loop;
mod approval;
mod conversation;
mod executor;
mod fs_tools;
mod gates;
mod layers;
mod live_output;
mod llm_client;
mod long_tasks;
mod lsp_diagnostics;
mod mcp_conformance;
mod mcp_servers;
mod oneshot_cli;
mod oneshot_language;
mod project_files_cli;
mod render_snapshots;
mod repl_tmux;
mod safety_cli;
mod sessions_cli;
mod snapshot_undo;
mod sse_fixtures;
mod sse_props;
mod traits;
mod web;
