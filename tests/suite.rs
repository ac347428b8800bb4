//! Integration test modules (compiled into the single `all` test binary).

mod sse_fixtures;
mod sse_props;
