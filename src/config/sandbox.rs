//! `[sandbox]` settings: how `execute_command`'s children are confined (by the `sandbox` module). A project's own
//! files may only tighten them; the `tightens_*` checks are the settings table's judges for that.

use std::path::PathBuf;

use super::{ConfigError, EnvVars};

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

/// Resolved sandbox settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxSettings {
    pub mode: SandboxMode,
    /// Writable besides the project, the temp dir and the usual tool caches (`~` expanded).
    pub writable_roots: Vec<PathBuf>,
    /// Commands may open TCP connections and listen; `false` refuses both.
    pub network: bool,
    /// The project's `.git` is read-only to commands.
    pub protect_git: bool,
    /// Unix sockets outside the project that confined commands may still connect to (user settings only).
    pub allow_sockets: Vec<PathBuf>,
}

impl Default for SandboxSettings {
    fn default() -> Self {
        SandboxSettings {
            mode: SandboxMode::Auto,
            writable_roots: Vec::new(),
            network: true,
            protect_git: false,
            allow_sockets: Vec::new(),
        }
    }
}

/// `[sandbox]` in `config.toml`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxSection {
    pub mode: Option<SandboxMode>,
    pub writable_roots: Option<Vec<String>>,
    pub network: Option<bool>,
    pub protect_git: Option<bool>,
}

impl SandboxSection {
    /// Lays `top` over `self`.
    pub fn merge(&mut self, top: SandboxSection) {
        fn over<T>(slot: &mut Option<T>, v: Option<T>) {
            if v.is_some() {
                *slot = v;
            }
        }
        over(&mut self.mode, top.mode);
        over(&mut self.writable_roots, top.writable_roots);
        over(&mut self.network, top.network);
        over(&mut self.protect_git, top.protect_git);
    }
}

impl SandboxSettings {
    /// Applies the file section.
    pub fn apply_file(&mut self, s: &SandboxSection) {
        if let Some(mode) = s.mode {
            self.mode = mode;
        }
        if let Some(roots) = &s.writable_roots {
            self.writable_roots = roots.iter().map(|r| expand_home(r)).collect();
        }
        if let Some(network) = s.network {
            self.network = network;
        }
        if let Some(protect) = s.protect_git {
            self.protect_git = protect;
        }
    }

    /// Applies `PAICLI_SANDBOX_MODE`, `PAICLI_SANDBOX_NETWORK` and `PAICLI_SANDBOX_PROTECT_GIT`.
    pub fn apply_env(&mut self, env: &EnvVars) -> Result<(), ConfigError> {
        if let Some(mode) = env.parsed::<SandboxMode>("PAICLI_SANDBOX_MODE")? {
            self.mode = mode;
        }
        if let Some(network) = env.flag("PAICLI_SANDBOX_NETWORK")? {
            self.network = network;
        }
        if let Some(protect) = env.flag("PAICLI_SANDBOX_PROTECT_GIT")? {
            self.protect_git = protect;
        }
        Ok(())
    }
}

/// `~/x` → `$HOME/x`; anything else as written.
fn expand_home(root: &str) -> PathBuf {
    match (root.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(root),
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
pub(super) fn tightens_mode(value: &toml::Value) -> bool {
    text(value) == "required"
}

/// A project may add no writable roots.
pub(super) fn tightens_roots(value: &toml::Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}

/// A project may turn the network off, never on.
pub(super) fn tightens_network(value: &toml::Value) -> bool {
    matches!(text(value).as_str(), "false" | "0" | "no" | "off")
}

/// A project may protect `.git`, never unprotect it.
pub(super) fn tightens_protect_git(value: &toml::Value) -> bool {
    matches!(text(value).as_str(), "true" | "1" | "yes" | "on")
}
