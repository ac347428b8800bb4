//! Front-ends: everything that talks to the terminal or to a script.

pub mod answer;
pub mod approval_prompt;
pub mod commands;
pub mod elicit_form;
pub use crate::app::hints;
pub mod index_cli;
pub mod interrupt;
pub mod keyboard;
pub mod mcp_login;
pub mod oneshot;
pub mod plan_review;
pub mod render;
pub mod repl;
pub mod sessions;
pub mod startup;
pub mod wrap;
