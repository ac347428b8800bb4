//! Codex CLI as the comparison client: where its native binary is, and how to run it non-interactively against
//! the scripted server (a temporary `CODEX_HOME` whose `config.toml` names a Responses-API provider).
//!
//! `scripts/bench` installs `@openai/codex` with npm into `.ci/bench-codex`; the npm package's launcher is a
//! node script, and the platform package it depends on carries the real executable under
//! `vendor/<target triple>/bin/codex`. `PAICLI_BENCH_CODEX` names another binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The model Codex is told it talks to: one it knows, so it offers its usual tools (`apply_patch` included).
const MODEL: &str = "gpt-5.5";

/// An installed Codex: its native binary, version line, and a home configured for one scripted server URL.
pub struct Codex {
    binary: PathBuf,
    pub version: String,
    home: tempfile::TempDir,
}

impl Codex {
    /// The installed Codex, when there is one that runs.
    pub fn find() -> Option<Codex> {
        let binary = std::env::var_os("PAICLI_BENCH_CODEX")
            .map(PathBuf::from)
            .or_else(installed)?;
        let out = Command::new(&binary).arg("--version").output().ok()?;
        if !out.status.success() {
            return None;
        }
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let home = tempfile::tempdir().ok()?;
        Some(Codex {
            binary,
            version,
            home,
        })
    }

    /// `codex exec` on `task` in `project`, against the Responses API at `base_url`, approvals and sandbox off
    /// (the runs are confined to a temporary project), no git check.
    pub fn exec(&self, project: &Path, base_url: &str, task: &str) -> Command {
        let config = format!(
            "model = \"{MODEL}\"\nmodel_provider = \"bench\"\n\n[model_providers.bench]\nname = \"bench\"\n\
             base_url = \"{base_url}\"\nwire_api = \"responses\"\nenv_key = \"BENCH_API_KEY\"\n"
        );
        std::fs::write(self.home.path().join("config.toml"), config).unwrap();
        let mut cmd = Command::new(&self.binary);
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("CODEX_HOME", self.home.path())
            .env("BENCH_API_KEY", "bench")
            .args([
                "exec",
                "--dangerously-bypass-approvals-and-sandbox",
                "--skip-git-repo-check",
                "-C",
            ])
            .arg(project)
            .arg(task)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    }
}

/// `.ci/bench-codex/node_modules/@openai/codex-<platform>/vendor/<triple>/bin/codex`, the first that exists.
fn installed() -> Option<PathBuf> {
    let scope = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/bench-codex/node_modules/@openai");
    let platform_packages = std::fs::read_dir(scope)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("codex-"));
    for package in platform_packages {
        let Ok(triples) = std::fs::read_dir(package.path().join("vendor")) else {
            continue;
        };
        for triple in triples.filter_map(Result::ok) {
            let binary = triple.path().join("bin").join("codex");
            if binary.is_file() {
                return Some(binary);
            }
        }
    }
    None
}
