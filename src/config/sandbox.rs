//! `[sandbox]` settings: how `execute_command`'s children are confined (by the `sandbox` module). A project's own
//! files may only tighten them; the `tightens_*` checks are the declarations' judges for that. A new field is one
//! declaration below (with its judge when a project may only tighten it).

use std::path::PathBuf;

use super::settings::{Paths, Plain, Project, declare_settings, setting};

/// Whether commands run in the OS sandbox.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// Sandboxed where the kernel supports it; otherwise one notice and commands run unconfined.
    #[default]
    Auto,
    /// Commands are refused where no sandbox is available.
    Required,
    /// Commands run unconfined (the command guard still checks them).
    Off,
}

impl SandboxMode {
    /// Every mode, loosest last.
    pub const ALL: [SandboxMode; 3] = [SandboxMode::Auto, SandboxMode::Required, SandboxMode::Off];

    /// The name used in config files and `/config`.
    pub fn label(self) -> &'static str {
        match self {
            SandboxMode::Auto => "auto",
            SandboxMode::Required => "required",
            SandboxMode::Off => "off",
        }
    }
}

impl std::str::FromStr for SandboxMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(SandboxMode::Auto),
            "required" => Ok(SandboxMode::Required),
            "off" => Ok(SandboxMode::Off),
            other => Err(format!("expected auto, required or off, got {other:?}")),
        }
    }
}

declare_settings! {
    /// Resolved sandbox settings. A project's own files may only tighten each (the `tightens_*` judges below).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SandboxSettings in config.sandbox {
        /// auto: confine commands where the kernel supports it (else one notice); required: refuse commands
        /// without it; off: run them unconfined (the command guard still checks them).
        pub mode: SandboxMode = setting("sandbox.mode", Plain(SandboxMode::Auto))
            .env(&["PAICLI_SANDBOX_MODE"])
            .flag("--sandbox")
            .project(Project::TightenOnly(tightens_mode)),
        /// More folders commands may write to, besides the project, the temp dir and the usual tool caches ("~/"
        /// is your home).
        pub writable_roots: Vec<PathBuf> = setting("sandbox.writable_roots", Paths)
            .project(Project::TightenOnly(tightens_roots)),
        /// Commands may open TCP connections and listen; false refuses both (Linux needs Landlock ABI 4, kernel
        /// 6.7+).
        pub network: bool = setting("sandbox.network", Plain(true))
            .env(&["PAICLI_SANDBOX_NETWORK"])
            .project(Project::TightenOnly(tightens_network)),
        /// The project's .git is read-only to commands (commits then need you).
        pub protect_git: bool = setting("sandbox.protect_git", Plain(false))
            .env(&["PAICLI_SANDBOX_PROTECT_GIT"])
            .project(Project::TightenOnly(tightens_protect_git)),
        /// Unix sockets outside the project that confined commands may still connect to: a daemon you trust
        /// them with (e.g. "~/.ssh/agent.sock" for git over SSH). Your own settings only.
        pub allow_sockets: Vec<PathBuf> = setting("sandbox.allow_sockets", Paths)
            .project(Project::Never),
    }
}

/// A value from a TOML file or a `.env` file (where everything is a string), as text.
fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.trim().to_ascii_lowercase(),
        other => other.to_string(),
    }
}

/// A project may require the sandbox, never relax it to `auto` or `off`.
fn tightens_mode(value: &toml::Value) -> bool {
    text(value) == "required"
}

/// A project may add no writable roots.
fn tightens_roots(value: &toml::Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}

/// A project may turn the network off, never on.
fn tightens_network(value: &toml::Value) -> bool {
    matches!(text(value).as_str(), "false" | "0" | "no" | "off")
}

/// A project may protect `.git`, never unprotect it.
fn tightens_protect_git(value: &toml::Value) -> bool {
    matches!(text(value).as_str(), "true" | "1" | "yes" | "on")
}
