//! The provider table lives with the configuration as plain data; re-exported here for the client's callers.

pub use crate::config::providers::*;
