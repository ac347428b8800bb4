//! Policies that decide what tools may do.

pub mod path_guard;
