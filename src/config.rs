//! Layered settings: defaults < `$PAICLI_HOME/config.toml` < `<project>/.paicli/config.toml` < `.env` files <
//! environment < command-line flags. Resolved once and passed down; nothing reads the environment later.
//!
//! Each setting is declared once, on the field that holds it (`settings::declare_settings!`): the loader, the
//! project filter, `/config`, the flags' help and `.paicli.example.toml` come from the declarations.

mod agent;
pub mod agents;
mod approvals;
pub mod beneath;
pub mod browser;
pub mod caller_mcp;
mod channels;
pub mod claude_settings;
mod env;
mod index;
pub mod instruction_files;
pub mod json_store;
mod layer;
mod llm;
mod load;
mod lsp;
mod mcp;
pub mod plan;
mod prices;
mod project;
pub mod project_id;
mod provenance;
mod provider;
pub mod providers;
pub mod safe_read;
pub mod sandbox;
pub mod saved_rules;
pub mod served;
pub mod settings;
mod snapshots;
mod tools;
pub mod trust;
pub mod vision;
mod web;

use std::path::PathBuf;

pub use env::EnvVars;

pub use agent::{
    AgentSettings, DEFAULT_STAGNATION_WINDOW, RUNAWAY_REMINDER_THRESHOLD,
    validate_stagnation_window,
};
pub use agents::AgentsSettings;
pub use approvals::{ApprovalRules, ShellSettings};
pub use browser::BrowserSettings;
pub use channels::{ChannelEdits, ChannelSettings, TelegramSettings, WechatSettings};
pub use index::IndexSettings;
pub use layer::ConfigFile;
pub use llm::{LlmSettings, RetrySettings};
pub use lsp::{LspServerSection, LspSettings};
pub use mcp::McpSettings;
pub use plan::PlanLimits;
pub use project::{Refusal, RefusedSetting};
pub use project_id::project_id;
pub use provenance::{ConfigEntry, describe_config, mask_secret};
pub use provider::{resolve_endpoint, resolve_provider};
pub use providers::ResolvedProvider;
pub use sandbox::{SandboxMode, SandboxSettings};
pub use served::{ServedModel, ServedWindow, WindowSource};
pub use snapshots::SnapshotSettings;
pub use tools::ToolSettings;
pub use trust::ProjectTrust;
pub use web::{DEFAULT_REQUESTS_PER_MINUTE, SearchProviderKind, WebSettings};

use settings::{Dir, List, Maybe, Plain, Present, Project, Text, declare_settings, setting};

/// Why the configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The message from `toml` names the line, column and key.
    #[error("invalid config file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("invalid value {value:?} for {key}: {reason}")]
    InvalidValue {
        key: String,
        value: String,
        reason: String,
    },
    #[error("unknown provider {name:?}; known providers: {known}")]
    UnknownProvider { name: String, known: String },
    #[error("no API key found: {hint}")]
    MissingApiKey { hint: String },
    #[error("{0}")]
    Incomplete(String),
    #[error("project directory {path} is not usable: {source}")]
    ProjectDir {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// How risky tool calls are approved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalMode {
    /// Every dangerous tool asks.
    Ask,
    /// Edits run; commands go to a classifier.
    #[default]
    Auto,
    /// Read-only tools until a plan is approved.
    Plan,
    /// Everything runs; the guards still apply.
    Full,
}

impl ApprovalMode {
    /// Every mode, in the order `/mode` and an editor's mode picker list them.
    pub const ALL: [ApprovalMode; 4] = [
        ApprovalMode::Auto,
        ApprovalMode::Plan,
        ApprovalMode::Ask,
        ApprovalMode::Full,
    ];

    /// The lowercase name, as `/mode`, `--approval` and the config spell it.
    pub fn name(self) -> &'static str {
        match self {
            ApprovalMode::Ask => "ask",
            ApprovalMode::Auto => "auto",
            ApprovalMode::Plan => "plan",
            ApprovalMode::Full => "full",
        }
    }
}

impl std::str::FromStr for ApprovalMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ask" => Ok(ApprovalMode::Ask),
            "auto" => Ok(ApprovalMode::Auto),
            "plan" => Ok(ApprovalMode::Plan),
            "full" => Ok(ApprovalMode::Full),
            other => Err(format!("expected ask, auto, plan or full, got {other:?}")),
        }
    }
}

/// `ui.language`: the interactive UI's language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UiLanguage {
    /// From the locale variables (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    #[default]
    Auto,
    En,
    Zh,
}

impl UiLanguage {
    /// Every choice, as `ui.language` lists them.
    pub const ALL: [UiLanguage; 3] = [UiLanguage::Auto, UiLanguage::En, UiLanguage::Zh];

    /// The name the config file uses.
    pub fn name(self) -> &'static str {
        match self {
            UiLanguage::Auto => "auto",
            UiLanguage::En => "en",
            UiLanguage::Zh => "zh",
        }
    }
}

impl std::str::FromStr for UiLanguage {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        UiLanguage::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("expected auto, en or zh, got {s:?}"))
    }
}

/// Values given on the command line; they override everything else.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub max_iterations: Option<u32>,
    pub token_budget: Option<u64>,
    /// `--max-output-tokens` (0 = send no limit).
    pub max_output_tokens: Option<u32>,
    pub approval: Option<ApprovalMode>,
    /// `--trust-project-mcp`: start the project's MCP servers not approved yet.
    pub trust_project_mcp: bool,
    /// `--sandbox`: how commands are confined.
    pub sandbox: Option<SandboxMode>,
}

impl Overrides {
    /// The flags given, as `(flag, text)`: the loader hands each text to the setting that declares the flag, the
    /// same way as an environment variable's.
    pub fn given(&self) -> Vec<(&'static str, String)> {
        let number = |n: Option<u64>| n.map(|n| n.to_string());
        [
            ("--provider", self.provider.clone()),
            ("--model", self.model.clone()),
            ("--base-url", self.base_url.clone()),
            (
                "--max-iterations",
                number(self.max_iterations.map(u64::from)),
            ),
            ("--token-budget", number(self.token_budget)),
            (
                "--max-output-tokens",
                number(self.max_output_tokens.map(u64::from)),
            ),
            ("--approval", self.approval.map(|m| m.name().to_string())),
            (
                "--trust-project-mcp",
                self.trust_project_mcp.then(|| "true".to_string()),
            ),
            ("--sandbox", self.sandbox.map(|m| m.label().to_string())),
        ]
        .into_iter()
        .filter_map(|(flag, value)| Some((flag, value?)))
        .collect()
    }

    /// Whether the flag named `flag` (`--model`) was given.
    pub fn has(&self, flag: &str) -> bool {
        self.given().iter().any(|(f, _)| *f == flag)
    }
}

declare_settings! {
    /// The fully resolved configuration.
    #[derive(Clone, Debug)]
    pub struct Config in config {
        /// The project root (canonical): tools work inside it.
        pub project_root: PathBuf,
        /// `$PAICLI_HOME`, default `~/.paicli`: all user state lives under it.
        pub home: PathBuf,
        /// `[llm]`: provider, model, endpoint, key and transport limits.
        pub llm: LlmSettings,
        /// `[agent]`: limits of one task.
        pub agent: AgentSettings,
        /// `[tools]`: limits of the built-in tools.
        pub tools: ToolSettings,
        /// How risky tool calls are approved: ask | auto | plan | full.
        ///   ask:  every write, edit, command, revert and MCP call asks you first.
        ///   auto: edits run; commands go to a small model classifier (fails closed); revert_turn and MCP calls are
        ///         denied; the 3rd denial in a row in one task asks you. `paicli -p` cannot ask, so those are
        ///         denied with a message naming the flag that allows them.
        ///   plan: read-only tools only.
        ///   full: everything runs. In every mode the command guard and the project fence still apply.
        pub approval: ApprovalMode = setting("approval.mode", Plain(ApprovalMode::Auto))
            .env(&["PAICLI_APPROVAL"])
            .flag("--approval")
            .project(Project::Never),
        /// The auto-mode command classifier's model (same provider and key); unset = the session's.
        pub classifier_model: Option<String> = setting("approval.classifier_model", Maybe::UNSET)
            .env_only(&["PAICLI_AUTO_CLASSIFIER_MODEL"])
            .project(Project::Never),
        /// `[approvals]`: saved rules.
        pub approvals: ApprovalRules,
        /// `[shell]`
        pub shell: ShellSettings,
        /// `[web]`: search provider and `web_fetch` policy.
        pub web: WebSettings,
        /// `[mcp]`
        pub mcp: McpSettings,
        /// MCP servers the caller names for this run (`--mcp-config`); never from a file.
        pub mcp_caller: caller_mcp::CallerMcp,
        /// Which of Claude Code's settings files are read and the hooks of `--settings` for this run; never from
        /// a file.
        pub claude_caller: claude_settings::ClaudeCaller,
        /// Folders outside the project the file tools may read and write for this run (`--add-dir`, canonical);
        /// never from a file.
        pub added_dirs: Vec<PathBuf>,
        /// Language of the interactive UI: auto (from LC_ALL / LC_MESSAGES / LANG) | en | zh.
        pub ui_language: UiLanguage = setting("ui.language", Plain(UiLanguage::Auto)),
        /// Set to turn colours off.
        pub no_color: bool = setting("ui.no_color", Present).env_only(&["NO_COLOR"]),
        /// `[lsp]`
        pub lsp: LspSettings,
        /// Ledgers not written to for this many days are removed at start-up; 0 keeps them all. Clean-up removes
        /// every project's ledgers, so a cloned repository must not shorten it.
        pub session_keep_days: u64 = setting("sessions.keep_days", Plain(30)).project(Project::Never),
        /// `[snapshots]`
        pub snapshots: SnapshotSettings,
        /// Skills switched off (/skill off NAME writes this list): they leave the catalog and load_skill refuses
        /// them. A project may add skills through its own folders, never switch one back on.
        pub skills_disabled: Vec<String> = setting("skills.disabled", List).project(Project::Never),
        /// `[sandbox]`: how commands are confined.
        pub sandbox: SandboxSettings,
        /// `[plan]`: how plan and team mode run their tasks.
        pub plan: PlanLimits,
        /// `[agents]`: sub-agents the model runs and its task list.
        pub agents: AgentsSettings,
        /// `[index]`: the code index.
        pub index: IndexSettings,
        /// `[browser]`: the built-in chrome-devtools MCP server.
        pub browser: BrowserSettings,
        /// `[channels]`: chat channels (Telegram, WeChat) and their policy.
        pub channels: ChannelSettings,
        /// The merged `.env` files and process environment.
        pub env: EnvVars,
        /// Where the audit log goes; default $PAICLI_HOME/audit (one audit-YYYY-MM-DD.jsonl per day, mode 0600,
        /// secrets redacted, for every write/edit/command/revert/MCP call).
        pub audit_dir: PathBuf = setting("audit.dir", Dir)
            .env_only(&["PAICLI_AUDIT_DIR"])
            .project(Project::Never),
        /// Log level of $PAICLI_HOME/logs/paicli.log.* (error, warn, info, debug, trace).
        pub log_level: String = setting("log.level", Text("info")).env_only(&["PAICLI_LOG"]),
        /// The user trusts this project with its current config files (`--trust-project`, `/trust`).
        pub trusted_project: bool,
        /// Settings the project's own files tried to set and that were ignored; the front-ends show them.
        pub refused: Vec<RefusedSetting>,
        /// Config and `.env` files refused by the safe reader (a link out of their folder, not a regular file,
        /// too large); the front-ends show them.
        pub file_notices: Vec<safe_read::FileNotice>,
    }
}

impl Config {
    /// The context window to plan compaction for: `[llm] context_window` if set, else what the server reported
    /// for this model, else the provider table's.
    pub fn context_window(&self, provider: &ResolvedProvider) -> u64 {
        self.llm
            .context_window
            .or_else(|| self.served_window(provider).map(|w| w.tokens))
            .unwrap_or(provider.context_window)
    }

    /// Where [`Config::context_window`] takes its number from.
    pub fn window_source(&self, provider: &ResolvedProvider) -> WindowSource {
        if self.llm.context_window.is_some() {
            WindowSource::Configured
        } else if let Some(w) = self.served_window(provider) {
            WindowSource::Server(w.source)
        } else {
            WindowSource::Table
        }
    }

    /// The server's window, when it was reported for this provider's model.
    fn served_window(&self, provider: &ResolvedProvider) -> Option<&ServedWindow> {
        self.llm
            .served
            .window
            .as_ref()
            .filter(|w| w.model == provider.model)
    }

    /// Fixes the provider, model, endpoint and key (see [`resolve_provider`]).
    pub fn provider(&self) -> Result<ResolvedProvider, ConfigError> {
        resolve_provider(&self.llm, &self.env)
    }
}

#[cfg(test)]
mod tests;
