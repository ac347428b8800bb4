//! Integration test modules (compiled into the single `all` test binary).

mod executor;
mod sse_fixtures;
mod sse_props;
