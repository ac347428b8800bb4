//! Local and small models (issue 25): cut-off replies, empty answers, the output limit, the served model and its
//! window, all through the built binary against the scripted server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cut_off;
mod discovery;
mod output_limit;

use std::process::Output;

use serde_json::Value;

use crate::support::{stderr_of, stdout_of};

/// The result object of `--output-format json`.
fn json_result(output: &Output) -> Value {
    serde_json::from_str(stdout_of(output).trim()).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            stdout_of(output),
            stderr_of(output)
        )
    })
}
