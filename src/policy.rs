//! Policies that decide what tools may do.

pub mod approval;
pub mod audit;
pub mod command_guard;
pub mod path_guard;
pub mod redact;
