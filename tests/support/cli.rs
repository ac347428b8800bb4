//! The built `paicli` as a user runs it, for the CLI suites: a temp project and home, the binary with a clean
//! environment (no keys or config from the developer's machine), and the scripted server as its provider.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use super::ScriptedServer;

/// A temp project and a temp home for one test, and the environment variables every run gets.
pub struct CliSandbox {
    pub project: tempfile::TempDir,
    pub home: tempfile::TempDir,
    env: Vec<(String, String)>,
}

impl Default for CliSandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl CliSandbox {
    /// An empty project and an empty home.
    pub fn new() -> Self {
        CliSandbox {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            env: Vec::new(),
        }
    }

    /// Sets `name` to `value` for every run (`LANG`, a provider key).
    pub fn with_env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// `~/.paicli` of the temp home (`PAICLI_HOME`).
    pub fn paicli_home(&self) -> PathBuf {
        self.home.path().join(".paicli")
    }

    /// Writes the user's `~/.paicli/config.toml`.
    pub fn user_config(&self, text: &str) -> &Self {
        std::fs::create_dir_all(self.paicli_home()).unwrap();
        std::fs::write(self.paicli_home().join("config.toml"), text).unwrap();
        self
    }

    /// Writes `rel` in the project (its folders too).
    pub fn project_file(&self, rel: &str, text: &str) -> &Self {
        let path = self.project.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// The text of `rel` in the project.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.project.path().join(rel)).unwrap()
    }

    /// The binary with a clean environment (`PATH` and the sandbox's variables), state in the temp home, stdin closed, in no project.
    pub fn bare(&self) -> Command {
        let mut cmd = Command::cargo_bin("paicli").unwrap();
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.paicli_home())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null());
        cmd
    }

    /// [`CliSandbox::bare`] in the project (`-C`).
    pub fn paicli(&self) -> Command {
        let mut cmd = self.bare();
        cmd.arg("-C").arg(self.project.path());
        cmd
    }

    /// [`CliSandbox::paicli`] with `server` as the provider and `scripted-model` as the model.
    pub fn against(&self, server: &ScriptedServer) -> Command {
        let mut cmd = self.paicli();
        cmd.args(["--base-url", &server.url(), "--model", "scripted-model"]);
        cmd
    }
}

/// Runs `cmd` with `input` on a piped stdin.
pub fn run_with_stdin(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// What the run printed on stdout.
pub fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What the run printed on stderr.
pub fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
