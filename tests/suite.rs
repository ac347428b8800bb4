//! Integration test modules (compiled into the single `all` test binary).

mod agent_loop;
mod executor;
mod fs_tools;
mod gates;
mod llm_client;
mod lsp_diagnostics;
mod oneshot_cli;
mod sse_fixtures;
mod sse_props;
