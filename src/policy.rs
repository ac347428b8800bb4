//! Policies that decide what tools may do.

pub mod path_guard;
pub mod exposure;
pub mod network;
