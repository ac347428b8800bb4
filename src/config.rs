//! Layered settings: defaults < `$PAICLI_HOME/config.toml` < `<project>/.paicli/config.toml` < `.env` files <
//! environment < command-line flags. Resolved once and passed down; nothing reads the environment later.

pub mod browser;
mod env;
mod file;
pub mod json_store;
pub mod plan;
mod prices;
mod project;
pub mod project_id;
mod provenance;
mod provider;
pub mod providers;
pub mod sandbox;
pub mod saved_rules;
pub mod served;
pub mod settings;
pub mod trust;
mod values;
pub mod vision;
mod web;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use env::EnvVars;

pub use browser::{BrowserSection, BrowserSettings};
pub use file::{ConfigFile, LspServerSection};
pub use plan::{PlanLimits, PlanSection};
pub use project::{Refusal, RefusedSetting};
pub use project_id::project_id;
pub use provenance::{ConfigEntry, describe_config, mask_secret};
pub use provider::{resolve_endpoint, resolve_provider};
pub use providers::ResolvedProvider;
pub use sandbox::{SandboxMode, SandboxSection, SandboxSettings};
pub use served::{ServedModel, ServedWindow, WindowSource};
pub use trust::ProjectTrust;
pub use web::{DEFAULT_REQUESTS_PER_MINUTE, SearchProviderKind, WebSection, WebSettings};

/// Identical tool-call replies in a row that stop a turn, by default.
pub const DEFAULT_STAGNATION_WINDOW: usize = 5;
/// The runaway guard reminds at this streak; stagnation must need more, so the reminder comes first.
pub const RUNAWAY_REMINDER_THRESHOLD: usize = 3;

/// Checks a stagnation window: at least 2 and above the runaway reminder threshold.
pub fn validate_stagnation_window(window: usize) -> Result<usize, String> {
    if window < 2 || window <= RUNAWAY_REMINDER_THRESHOLD {
        return Err(format!(
            "must be at least 2 and greater than the runaway reminder threshold {RUNAWAY_REMINDER_THRESHOLD}"
        ));
    }
    Ok(window)
}

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
    /// Whether the flag named `flag` (`--model`) was given.
    pub fn has(&self, flag: &str) -> bool {
        match flag {
            "--provider" => self.provider.is_some(),
            "--model" => self.model.is_some(),
            "--base-url" => self.base_url.is_some(),
            "--max-iterations" => self.max_iterations.is_some(),
            "--token-budget" => self.token_budget.is_some(),
            "--max-output-tokens" => self.max_output_tokens.is_some(),
            "--approval" => self.approval.is_some(),
            "--trust-project-mcp" => self.trust_project_mcp,
            "--sandbox" => self.sandbox.is_some(),
            _ => false,
        }
    }
}

/// LLM transport settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmSettings {
    /// Flag > `PAICLI_PROVIDER` > config file.
    pub provider: Option<String>,
    /// Explicit choices (flag > `PAICLI_*`); these beat the provider's own variables.
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    /// Config-file values; the provider's own variables (`<PREFIX>_MODEL`, ...) beat these.
    pub file_model: Option<String>,
    pub file_base_url: Option<String>,
    pub file_api_key: Option<String>,
    /// `base_url` came from an untrusted project's `PAICLI_BASE_URL`: only a key from that `.env` goes with it.
    pub base_url_from_project: bool,
    /// `file_base_url` / `file_api_key` came from an untrusted project's `config.toml`.
    pub file_base_url_from_project: bool,
    pub file_api_key_from_project: bool,
    pub connect_timeout: Duration,
    pub idle_timeout: Duration,
    pub retry: RetrySettings,
    /// Overrides the provider table's context window (tokens); `None` = the table's value.
    pub context_window: Option<u64>,
    /// The output limit per reply: `None` = the provider's default, `Some(0)` = none sent.
    pub max_output_tokens: Option<u32>,
    /// What the server said it serves, asked at start (never read from a file).
    pub served: ServedModel,
    /// Whether the model takes images; `None` = the vision table's answer for the model.
    pub vision: Option<bool>,
}

/// `[llm.retry]`: attempts and backoff of one chat request (the client builds its retry policy from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetrySettings {
    /// Attempts including the first.
    pub max_attempts: u32,
    /// Wait after the first failure; doubles per further failure.
    pub base_delay: Duration,
    /// Longest wait, also the cap on a server's `Retry-After`.
    pub max_delay: Duration,
}

impl Default for RetrySettings {
    fn default() -> Self {
        RetrySettings {
            max_attempts: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

/// Agent-loop limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSettings {
    /// Model calls per user turn before the partial-result report; `None` = unlimited.
    pub max_iterations: Option<u32>,
    /// Cumulative input+output tokens per turn; `None` = unlimited.
    pub token_budget: Option<u64>,
    /// Identical tool-call replies in a row that stop a turn (≥ 4).
    pub stagnation_window: usize,
}

/// Tool execution settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolSettings {
    pub command_timeout: Duration,
    pub command_inline_chars: usize,
    pub max_write_bytes: usize,
    pub batch_timeout: Duration,
    pub max_parallel: usize,
    pub offload_enabled: bool,
    pub offload_threshold_chars: usize,
}

/// `[approvals]`: saved rules, as written (see `policy::approval::RuleSet`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApprovalRules {
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    /// `[approvals.projects]` rules saved for this project's root (they allow, like `allow`).
    pub project_allow: Vec<String>,
}

/// `[shell]`
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShellSettings {
    /// Secret-looking variables child processes still receive.
    pub keep_env: Vec<String>,
}

/// Diagnostics after edits (`[lsp]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LspSettings {
    pub enabled: bool,
    /// Longest wait for language servers per tool batch; then the syntax check stands in.
    pub wait: Duration,
    /// Diagnostics listed per injected message.
    pub max_diagnostics: usize,
    /// `[lsp.servers.<name>]` entries; they add to or replace the built-in servers of the same name.
    pub servers: std::collections::BTreeMap<String, LspServerSection>,
}

/// The side-git snapshots of the project's files (`[snapshots]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotSettings {
    pub enabled: bool,
    /// Snapshots kept per project.
    pub keep: usize,
    /// Files larger than this are left out of snapshots.
    pub max_file_bytes: u64,
}

/// The code index behind `search_code` (`[index]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexSettings {
    /// `search_code` is offered and `/index`, `/search`, `/graph` work.
    pub enabled: bool,
    /// The OpenAI-compatible `/embeddings` URL (or a base URL it is appended to); `None` = keywords only.
    pub embeddings_url: Option<String>,
    pub embeddings_model: String,
    /// `PAICLI_EMBEDDINGS_API_KEY`, sent as a bearer token.
    pub embeddings_api_key: Option<String>,
}

impl Default for IndexSettings {
    fn default() -> Self {
        IndexSettings {
            enabled: true,
            embeddings_url: None,
            embeddings_model: "nomic-embed-text".to_string(),
            embeddings_api_key: None,
        }
    }
}

/// The fully resolved configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// The project root (canonical): tools work inside it.
    pub project_root: PathBuf,
    /// `$PAICLI_HOME`, default `~/.paicli`: all user state lives under it.
    pub home: PathBuf,
    pub llm: LlmSettings,
    pub agent: AgentSettings,
    pub tools: ToolSettings,
    pub approval: ApprovalMode,
    pub approvals: ApprovalRules,
    pub shell: ShellSettings,
    /// `[web]`: search provider and `web_fetch` policy.
    pub web: WebSettings,
    pub mcp: McpSettings,
    /// `ui.language`.
    pub ui_language: UiLanguage,
    pub lsp: LspSettings,
    /// `sessions.keep_days`: days a session ledger is kept after its last write; 0 keeps them all.
    pub session_keep_days: u64,
    pub snapshots: SnapshotSettings,
    /// Skills the user switched off (`[skills] disabled`).
    pub skills_disabled: Vec<String>,
    /// `[sandbox]`: how commands are confined.
    pub sandbox: SandboxSettings,
    /// `[plan]`: how plan and team mode run their tasks.
    pub plan: PlanLimits,
    /// `[index]`: the code index.
    pub index: IndexSettings,
    /// `[browser]`: the built-in chrome-devtools MCP server.
    pub browser: BrowserSettings,
    /// The merged `.env` files and process environment.
    pub env: EnvVars,
    /// `PAICLI_AUDIT_DIR`, default `$PAICLI_HOME/audit`.
    pub audit_dir: PathBuf,
    /// `PAICLI_AUTO_CLASSIFIER_MODEL`: the auto-mode classifier's model; `None` = the session's.
    pub classifier_model: Option<String>,
    /// `PAICLI_LOG`: the log filter.
    pub log_level: String,
    /// `NO_COLOR` is set.
    pub no_color: bool,
    /// The user trusts this project with its current config files (`--trust-project`, `/trust`).
    pub trusted_project: bool,
    /// Settings the project's own files tried to set and that were ignored; the front-ends show them.
    pub refused: Vec<RefusedSetting>,
}

/// MCP client settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpSettings {
    /// The first turn waits at most this long for servers still starting; later ones join when ready.
    pub startup_wait: Duration,
    pub initialize_timeout: Duration,
    /// Default limit on one MCP tool call.
    pub call_timeout: Duration,
    /// Start (and remember) project-level servers without asking.
    pub trust_project_servers: bool,
}

impl Config {
    /// Loads every layer for `project_dir`, reading the process environment.
    pub fn load(project_dir: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        Self::load_with_env(project_dir, std::env::vars().collect(), overrides)
    }

    /// Loads every layer with an explicit process environment (tests pass their own).
    pub fn load_with_env(
        project_dir: &Path,
        process_env: Vec<(String, String)>,
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        let project_root =
            project_dir
                .canonicalize()
                .map_err(|source| ConfigError::ProjectDir {
                    path: project_dir.to_path_buf(),
                    source,
                })?;
        let home = paicli_home(&process_env);
        let trusted = ProjectTrust::load(&home).is_trusted(&project_root);
        let mut refused = Vec::new();

        let user_env = env::read_dotenv(&home.join(".env"))?;
        let project_env_path = project_root.join(".env");
        let mut project_env = env::read_dotenv(&project_env_path)?;
        project::filter_env(
            &project_env_path,
            &mut project_env,
            &process_env,
            trusted,
            &mut refused,
        );
        let env = EnvVars::from_layers(user_env, project_env, process_env, !trusted);

        let mut file = ConfigFile::default();
        if let Some(layer) = ConfigFile::read(&home.join("config.toml"))? {
            file.merge(layer);
        }
        let project_path = project_root.join(".paicli/config.toml");
        let mut project_llm = (false, false);
        if let Some(mut table) = ConfigFile::read_table(&project_path)? {
            project::filter_file(&project_path, &mut table, trusted, &mut refused);
            let mut layer =
                ConfigFile::from_table(table).map_err(|message| ConfigError::Parse {
                    path: project_path.clone(),
                    message,
                })?;
            project_llm = (layer.llm.base_url.is_some(), layer.llm.api_key.is_some());
            // A root with a dot in it is not one table key to the filter above; a project never saves rules.
            layer.approvals.projects.clear();
            file.merge(layer);
        }
        let mut config = Config::defaults(project_root, home, env);
        config.apply_file(&file);
        if !trusted {
            (
                config.llm.file_base_url_from_project,
                config.llm.file_api_key_from_project,
            ) = project_llm;
        }
        config.trusted_project = trusted;
        config.refused = refused;
        config.apply_env()?;
        config.apply_overrides(overrides);
        config.validate()?;
        Ok(config)
    }

    fn defaults(project_root: PathBuf, home: PathBuf, env: EnvVars) -> Config {
        Config {
            project_root,
            llm: LlmSettings {
                provider: None,
                model: None,
                base_url: None,
                api_key: None,
                file_model: None,
                file_base_url: None,
                file_api_key: None,
                base_url_from_project: false,
                file_base_url_from_project: false,
                file_api_key_from_project: false,
                connect_timeout: Duration::from_secs(60),
                idle_timeout: Duration::from_secs(300),
                retry: RetrySettings::default(),
                context_window: None,
                max_output_tokens: None,
                served: ServedModel::default(),
                vision: None,
            },
            agent: AgentSettings {
                max_iterations: None,
                token_budget: None,
                stagnation_window: DEFAULT_STAGNATION_WINDOW,
            },
            tools: ToolSettings {
                command_timeout: Duration::from_secs(60),
                command_inline_chars: 8000,
                max_write_bytes: 5 * 1024 * 1024,
                batch_timeout: Duration::from_secs(90),
                max_parallel: 4,
                offload_enabled: true,
                offload_threshold_chars: 32_000,
            },
            approval: ApprovalMode::default(),
            approvals: ApprovalRules::default(),
            shell: ShellSettings::default(),
            web: WebSettings::default(),
            mcp: McpSettings {
                startup_wait: Duration::from_secs(8),
                initialize_timeout: Duration::from_secs(60),
                call_timeout: Duration::from_secs(60),
                trust_project_servers: false,
            },
            ui_language: UiLanguage::default(),
            session_keep_days: 30,
            lsp: LspSettings {
                enabled: true,
                wait: Duration::from_millis(3000),
                max_diagnostics: 20,
                servers: std::collections::BTreeMap::new(),
            },
            snapshots: SnapshotSettings {
                enabled: true,
                keep: 50,
                max_file_bytes: 5 * 1024 * 1024,
            },
            skills_disabled: Vec::new(),
            sandbox: SandboxSettings::default(),
            browser: BrowserSettings::default(),
            plan: PlanLimits::default(),
            index: IndexSettings::default(),
            audit_dir: home.join("audit"),
            home,
            env,
            classifier_model: None,
            log_level: "info".to_string(),
            no_color: false,
            trusted_project: false,
            refused: Vec::new(),
        }
    }

    fn apply_file(&mut self, f: &ConfigFile) {
        let llm = &f.llm;
        set(&mut self.llm.provider, llm.provider.clone().map(Some));
        self.llm.file_model.clone_from(&llm.model);
        self.llm.file_base_url.clone_from(&llm.base_url);
        self.llm.file_api_key.clone_from(&llm.api_key);
        set(
            &mut self.llm.connect_timeout,
            llm.connect_timeout_secs.map(Duration::from_secs),
        );
        set(
            &mut self.llm.idle_timeout,
            llm.idle_timeout_secs.map(Duration::from_secs),
        );
        set(
            &mut self.llm.retry.max_attempts,
            llm.retry.max_attempts.map(|n| n.max(1)),
        );
        set(
            &mut self.llm.retry.base_delay,
            llm.retry.base_delay_ms.map(Duration::from_millis),
        );
        set(
            &mut self.llm.retry.max_delay,
            llm.retry.max_delay_ms.map(Duration::from_millis),
        );
        set(
            &mut self.agent.max_iterations,
            f.agent.max_iterations.map(nonzero),
        );
        set(
            &mut self.agent.token_budget,
            f.agent.token_budget.map(nonzero),
        );
        set(&mut self.agent.stagnation_window, f.agent.stagnation_window);
        set(
            &mut self.llm.context_window,
            llm.context_window.map(nonzero),
        );
        set(
            &mut self.llm.max_output_tokens,
            llm.max_output_tokens.map(Some),
        );
        set(&mut self.llm.vision, llm.vision.map(Some));
        let t = &f.tools;
        set(
            &mut self.tools.command_timeout,
            t.command_timeout_secs.map(Duration::from_secs),
        );
        set(&mut self.tools.command_inline_chars, t.command_inline_chars);
        set(&mut self.tools.max_write_bytes, t.max_write_bytes);
        set(
            &mut self.tools.batch_timeout,
            t.batch_timeout_secs.map(Duration::from_secs),
        );
        set(
            &mut self.tools.max_parallel,
            t.max_parallel.map(|n| n.clamp(1, 16)),
        );
        set(&mut self.tools.offload_enabled, t.offload.enabled);
        set(
            &mut self.tools.offload_threshold_chars,
            t.offload.threshold_chars,
        );
        set(&mut self.approval, f.approval.mode);
        set(&mut self.approvals.allow, f.approvals.allow.clone());
        set(&mut self.approvals.deny, f.approvals.deny.clone());
        let root = self.project_root.display().to_string();
        set(
            &mut self.approvals.project_allow,
            f.approvals.projects.get(&root).cloned(),
        );
        set(&mut self.shell.keep_env, f.shell.keep_env.clone());
        self.web.apply_file(&f.web);
        let m = &f.mcp;
        let secs = |v: Option<u64>| v.map(Duration::from_secs);
        set(&mut self.mcp.startup_wait, secs(m.startup_wait_seconds));
        set(
            &mut self.mcp.initialize_timeout,
            secs(m.initialize_timeout_seconds),
        );
        set(&mut self.mcp.call_timeout, secs(m.call_timeout_seconds));
        set(&mut self.mcp.trust_project_servers, m.trust_project_servers);
        set(&mut self.ui_language, f.ui.language);
        set(&mut self.lsp.enabled, f.lsp.enabled);
        set(&mut self.lsp.wait, f.lsp.wait_ms.map(Duration::from_millis));
        set(&mut self.lsp.max_diagnostics, f.lsp.max_diagnostics);
        self.lsp.servers.clone_from(&f.lsp.servers);
        set(&mut self.session_keep_days, f.sessions.keep_days);
        set(&mut self.snapshots.enabled, f.snapshots.enabled);
        set(&mut self.snapshots.keep, f.snapshots.keep);
        set(
            &mut self.snapshots.max_file_bytes,
            f.snapshots.max_file_bytes,
        );
        set(&mut self.skills_disabled, f.skills.disabled.clone());
        self.sandbox.apply_file(&f.sandbox);
        self.browser.apply_file(&f.browser);
        self.plan.apply_file(&f.plan);
        set(&mut self.index.enabled, f.index.enabled);
        let e = &f.index.embeddings;
        set(
            &mut self.index.embeddings_url,
            e.url
                .clone()
                .map(|u| Some(u).filter(|u| !u.trim().is_empty())),
        );
        set(&mut self.index.embeddings_model, e.model.clone());
    }

    /// The generic `PAICLI_*` variables; provider-specific ones are read by [`resolve_provider`].
    fn apply_env(&mut self) -> Result<(), ConfigError> {
        let env = self.env.clone();
        set(
            &mut self.llm.provider,
            env.get("PAICLI_PROVIDER").map(|v| Some(v.to_string())),
        );
        set(
            &mut self.llm.model,
            env.get("PAICLI_MODEL").map(|v| Some(v.to_string())),
        );
        if let Some(url) = env.get("PAICLI_BASE_URL") {
            self.llm.base_url = Some(url.to_string());
            self.llm.base_url_from_project = env.from_project("PAICLI_BASE_URL");
        }
        set(
            &mut self.llm.api_key,
            env.get("PAICLI_API_KEY").map(|v| Some(v.to_string())),
        );
        if let Some(v) = env.parsed::<u32>("PAICLI_MAX_ITERATIONS")? {
            self.agent.max_iterations = nonzero(v);
        }
        if let Some(v) = env.parsed::<u64>("PAICLI_TOKEN_BUDGET")? {
            self.agent.token_budget = nonzero(v);
        }
        if let Some(v) = env.parsed::<usize>("PAICLI_STAGNATION_WINDOW")? {
            self.agent.stagnation_window = v;
        }
        if let Some(v) = env.parsed::<u64>("PAICLI_CONTEXT_WINDOW")? {
            self.llm.context_window = nonzero(v);
        }
        if let Some(v) = env.parsed::<u32>("PAICLI_MAX_OUTPUT_TOKENS")? {
            self.llm.max_output_tokens = Some(v);
        }
        if let Some(v) = env.flag("PAICLI_VISION")? {
            self.llm.vision = Some(v);
        }
        if let Some(v) = env.parsed::<u64>("PAICLI_COMMAND_TIMEOUT_SECS")? {
            self.tools.command_timeout = Duration::from_secs(v);
        }
        if let Some(v) = env.flag("PAICLI_TOOL_OFFLOAD_ENABLED")? {
            self.tools.offload_enabled = v;
        }
        if let Some(v) = env.parsed::<usize>("PAICLI_TOOL_OFFLOAD_THRESHOLD_CHARS")? {
            self.tools.offload_threshold_chars = v;
        }
        if let Some(v) = env.parsed::<ApprovalMode>("PAICLI_APPROVAL")? {
            self.approval = v;
        }
        self.web.apply_env(&env)?;
        if let Some(v) = env.parsed::<u64>("PAICLI_MCP_STARTUP_WAIT_SECONDS")? {
            self.mcp.startup_wait = Duration::from_secs(v);
        }
        if let Some(v) = env.flag("PAICLI_LSP_ENABLED")? {
            self.lsp.enabled = v;
        }
        if let Some(v) = env.parsed::<u64>("PAICLI_LSP_WAIT_MS")? {
            self.lsp.wait = Duration::from_millis(v);
        }
        if let Some(v) = env.parsed::<usize>("PAICLI_LSP_MAX_DIAGNOSTICS")? {
            self.lsp.max_diagnostics = v;
        }
        if let Some(v) = env.flag("PAICLI_SNAPSHOTS_ENABLED")? {
            self.snapshots.enabled = v;
        }
        self.sandbox.apply_env(&env)?;
        self.browser.apply_env(&env)?;
        self.plan.apply_env(&env)?;
        if let Some(v) = env.flag("PAICLI_INDEX_ENABLED")? {
            self.index.enabled = v;
        }
        if let Some(url) = env.get("PAICLI_EMBEDDINGS_URL") {
            self.index.embeddings_url = Some(url.to_string()).filter(|u| !u.trim().is_empty());
        }
        if let Some(model) = env.get("PAICLI_EMBEDDINGS_MODEL") {
            self.index.embeddings_model = model.to_string();
        }
        self.index.embeddings_api_key = env.get("PAICLI_EMBEDDINGS_API_KEY").map(str::to_string);
        if let Some(dir) = env.get("PAICLI_AUDIT_DIR") {
            self.audit_dir = PathBuf::from(dir);
        }
        self.classifier_model = env.get("PAICLI_AUTO_CLASSIFIER_MODEL").map(str::to_string);
        if let Some(level) = env.get("PAICLI_LOG") {
            self.log_level = level.to_string();
        }
        self.no_color = env.get("NO_COLOR").is_some();
        Ok(())
    }

    fn apply_overrides(&mut self, o: &Overrides) {
        set(&mut self.llm.provider, o.provider.clone().map(Some));
        set(&mut self.llm.model, o.model.clone().map(Some));
        if let Some(url) = &o.base_url {
            self.llm.base_url = Some(url.clone());
            self.llm.base_url_from_project = false;
        }
        set(
            &mut self.agent.max_iterations,
            o.max_iterations.map(nonzero),
        );
        set(&mut self.agent.token_budget, o.token_budget.map(nonzero));
        set(
            &mut self.llm.max_output_tokens,
            o.max_output_tokens.map(Some),
        );
        set(&mut self.approval, o.approval);
        self.mcp.trust_project_servers |= o.trust_project_mcp;
        set(&mut self.sandbox.mode, o.sandbox);
    }

    /// Rejects settings that are valid one by one but not as used.
    fn validate(&self) -> Result<(), ConfigError> {
        validate_stagnation_window(self.agent.stagnation_window).map_err(|reason| {
            ConfigError::InvalidValue {
                key: "agent.stagnation_window".to_string(),
                value: self.agent.stagnation_window.to_string(),
                reason,
            }
        })?;
        Ok(())
    }

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

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

/// 0 means "unlimited" in files, flags and variables.
fn nonzero<T: PartialEq + Default>(v: T) -> Option<T> {
    if v == T::default() { None } else { Some(v) }
}

/// `$PAICLI_HOME`, else `~/.paicli`, else `./.paicli-home` when no home directory is known.
fn paicli_home(process_env: &[(String, String)]) -> PathBuf {
    if let Some((_, v)) = process_env
        .iter()
        .find(|(k, v)| k == "PAICLI_HOME" && !v.is_empty())
    {
        return PathBuf::from(v);
    }
    match dirs::home_dir() {
        Some(h) => h.join(".paicli"),
        None => PathBuf::from(".paicli-home"),
    }
}

#[cfg(test)]
mod tests;
