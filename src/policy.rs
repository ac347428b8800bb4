//! Policies that decide what tools may do.

pub mod exposure;
pub mod network;
pub mod path_guard;
