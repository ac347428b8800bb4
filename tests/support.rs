//! Helpers shared by the integration tests: the scripted server and test doubles for the LLM layer.
#![allow(dead_code, unused_imports)]

pub mod agent_harness;
pub mod builtins;
pub mod cli;
pub mod confined;
pub mod outside_dir;
pub mod peers;
pub mod recording_sink;
pub mod scripted_server;
pub mod tokio_source;

pub use cli::{CliSandbox, run_with_stdin, stderr_of, stdout_of};
pub use confined::{kernel_confines, run_command};
pub use outside_dir::outside_dir;
pub use peers::{on_ci, skip_missing_peer};
pub use recording_sink::{RecordingSink, provider_for};
pub use scripted_server::{RecordedRequest, Reply, ReplyHandle, ScriptedCall, ScriptedServer};
