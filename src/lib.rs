//! paicli: a terminal coding agent for any OpenAI-compatible model.
//!
//! The binary (`src/main.rs`) is thin; everything lives here so integration tests drive the same code.

pub mod acp;
pub mod agent;
pub mod agents;
pub mod app;
pub mod channels;
pub mod config;
pub mod guard;
pub mod headless;
pub mod hooks;
pub mod index;
pub mod languages;
pub mod llm;
pub mod lsp;
pub mod mcp;
pub mod memory;
pub mod plan;
pub mod policy;
pub mod protocol;
pub mod sandbox;
pub mod serve;
pub mod session;
pub mod skills;
pub mod snapshot;
pub mod text;
pub mod tools;
pub mod ui;
