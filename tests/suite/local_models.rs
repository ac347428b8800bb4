//! Local and small models (issue 25): cut-off replies, empty answers, the output limit, the served model and its
//! window, all through the built binary against the scripted server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cut_off;
mod discovery;
mod output_limit;

use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

/// A temp project and home; the binary runs with a clean environment.
struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        Sandbox {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    /// `paicli` with no keys from the developer's machine and state in the temp home.
    fn paicli(&self) -> Command {
        let mut cmd = Command::cargo_bin("paicli").unwrap();
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.home.path().join(".paicli"))
            .arg("-C")
            .arg(self.project.path())
            .stdin(Stdio::null());
        cmd
    }
}

fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

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
