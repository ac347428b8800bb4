//! Policies that decide what tools may do.

pub mod approval;
pub mod audit;
pub mod command_guard;
pub mod exposure;
pub mod network;
pub mod path_guard;
pub mod redact;
