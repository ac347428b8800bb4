//! The TOML config file (`config.toml`). Unknown keys are errors so typos do not pass silently.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::{ApprovalMode, ConfigError, UiLanguage};

/// One config file; every field optional so layers merge field by field.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub llm: LlmSection,
    #[serde(default)]
    pub agent: AgentSection,
    #[serde(default)]
    pub tools: ToolsSection,
    #[serde(default)]
    pub approval: ApprovalSection,
    #[serde(default)]
    pub approvals: ApprovalsSection,
    #[serde(default)]
    pub shell: ShellSection,
    #[serde(default)]
    pub web: super::WebSection,
    #[serde(default)]
    pub mcp: McpSection,
    #[serde(default)]
    pub ui: UiSection,
    #[serde(default)]
    pub lsp: LspSection,
    #[serde(default)]
    pub sessions: SessionsSection,
    #[serde(default)]
    pub snapshots: SnapshotsSection,
    #[serde(default)]
    pub skills: SkillsSection,
    #[serde(default)]
    pub sandbox: super::SandboxSection,
    #[serde(default)]
    pub plan: super::PlanSection,
    #[serde(default)]
    pub index: IndexSection,
}

/// `[index]`: the code index behind `search_code`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexSection {
    pub enabled: Option<bool>,
    #[serde(default)]
    pub embeddings: EmbeddingsSection,
}

/// `[index.embeddings]`: an OpenAI-compatible `/embeddings` endpoint.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmbeddingsSection {
    pub url: Option<String>,
    pub model: Option<String>,
}

/// `[sessions]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionsSection {
    /// Days a session ledger is kept after its last write; 0 keeps them all. User files only.
    pub keep_days: Option<u64>,
}

/// `[llm]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmSection {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub connect_timeout_secs: Option<u64>,
    pub idle_timeout_secs: Option<u64>,
    /// Overrides the provider table's context window (tokens).
    pub context_window: Option<u64>,
    /// The output limit per reply (0 = none sent).
    pub max_output_tokens: Option<u32>,
    /// Whether the model takes images (overrides the vision table).
    pub vision: Option<bool>,
    #[serde(default)]
    pub retry: RetrySection,
}

/// `[llm.retry]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetrySection {
    pub max_attempts: Option<u32>,
    pub base_delay_ms: Option<u64>,
    pub max_delay_ms: Option<u64>,
}

/// `[agent]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSection {
    pub max_iterations: Option<u32>,
    pub token_budget: Option<u64>,
    pub stagnation_window: Option<usize>,
}

/// `[tools]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolsSection {
    pub command_timeout_secs: Option<u64>,
    pub command_inline_chars: Option<usize>,
    pub max_write_bytes: Option<usize>,
    pub batch_timeout_secs: Option<u64>,
    pub max_parallel: Option<usize>,
    #[serde(default)]
    pub offload: OffloadSection,
}

/// `[tools.offload]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffloadSection {
    pub enabled: Option<bool>,
    pub threshold_chars: Option<usize>,
}

/// `[approval]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalSection {
    pub mode: Option<ApprovalMode>,
}

/// `[approvals]`: saved approval rules (`"cargo test"` = a command prefix, `"tool:NAME"` = a whole tool).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalsSection {
    /// Run without asking. Only the user file may set it: a project must not approve its own commands.
    pub allow: Option<Vec<String>>,
    /// Never run, in any mode. Rules of every layer add up.
    pub deny: Option<Vec<String>>,
    /// `[approvals.projects]`: allow rules for one project each, keyed by its root (`p` at the approval prompt
    /// saves them). Only the user file may set it, like `allow`.
    #[serde(default)]
    pub projects: BTreeMap<String, Vec<String>>,
}

/// `[shell]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShellSection {
    /// Secret-looking variables commands still receive. Only the user file may set it.
    pub keep_env: Option<Vec<String>>,
}

/// `[mcp]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpSection {
    pub startup_wait_seconds: Option<u64>,
    pub initialize_timeout_seconds: Option<u64>,
    pub call_timeout_seconds: Option<u64>,
    pub trust_project_servers: Option<bool>,
}

/// `[ui]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiSection {
    pub language: Option<UiLanguage>,
}

/// `[lsp]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LspSection {
    pub enabled: Option<bool>,
    pub wait_ms: Option<u64>,
    pub max_diagnostics: Option<usize>,
    /// `[lsp.servers.<name>]`: a layer's entry replaces the same name's entry below it.
    #[serde(default)]
    pub servers: BTreeMap<String, LspServerSection>,
}

/// `[snapshots]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotsSection {
    pub enabled: Option<bool>,
    pub keep: Option<usize>,
    pub max_file_bytes: Option<u64>,
}

/// `[skills]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillsSection {
    /// Skills switched off (`/skill off NAME`). User files only: a project may add skills, never re-enable one.
    pub disabled: Option<Vec<String>>,
}

/// `[lsp.servers.<name>]`: a language server command and the file extensions it checks.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LspServerSection {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extensions without the dot (`["py", "pyi"]`); may be left out for a built-in server name.
    #[serde(default)]
    pub extensions: Vec<String>,
}

impl ConfigFile {
    /// Reads `path` as a raw table after checking it parses as a config file; `Ok(None)` when it does not exist.
    pub fn read_table(path: &Path) -> Result<Option<toml::Table>, ConfigError> {
        let Some(text) = read_text(path)? else {
            return Ok(None);
        };
        let parse_error = |message| ConfigError::Parse {
            path: path.to_path_buf(),
            message,
        };
        Self::parse(&text).map_err(parse_error)?;
        text.parse::<toml::Table>()
            .map(Some)
            .map_err(|e| parse_error(e.to_string().trim_end().to_string()))
    }

    /// A config file from a table already read (and filtered).
    pub fn from_table(table: toml::Table) -> Result<ConfigFile, String> {
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| e.to_string().trim_end().to_string())
    }

    /// Reads and parses `path`; `Ok(None)` when it does not exist.
    pub fn read(path: &Path) -> Result<Option<ConfigFile>, ConfigError> {
        let Some(text) = read_text(path)? else {
            return Ok(None);
        };
        Self::parse(&text)
            .map(Some)
            .map_err(|message| ConfigError::Parse {
                path: path.to_path_buf(),
                message,
            })
    }

    /// Parses TOML text; the error names the line, column and key.
    pub fn parse(text: &str) -> Result<ConfigFile, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
    }

    /// Lays `top` over `self`: fields set in `top` win.
    pub fn merge(&mut self, top: ConfigFile) {
        fn over<T>(slot: &mut Option<T>, v: Option<T>) {
            if v.is_some() {
                *slot = v;
            }
        }
        let (l, t) = (&mut self.llm, top.llm);
        over(&mut l.provider, t.provider);
        over(&mut l.model, t.model);
        over(&mut l.base_url, t.base_url);
        over(&mut l.api_key, t.api_key);
        over(&mut l.connect_timeout_secs, t.connect_timeout_secs);
        over(&mut l.idle_timeout_secs, t.idle_timeout_secs);
        over(&mut l.context_window, t.context_window);
        over(&mut l.max_output_tokens, t.max_output_tokens);
        over(&mut l.vision, t.vision);
        over(&mut l.retry.max_attempts, t.retry.max_attempts);
        over(&mut l.retry.base_delay_ms, t.retry.base_delay_ms);
        over(&mut l.retry.max_delay_ms, t.retry.max_delay_ms);
        over(&mut self.agent.max_iterations, top.agent.max_iterations);
        over(&mut self.agent.token_budget, top.agent.token_budget);
        over(
            &mut self.agent.stagnation_window,
            top.agent.stagnation_window,
        );
        let (s, t) = (&mut self.tools, top.tools);
        over(&mut s.command_timeout_secs, t.command_timeout_secs);
        over(&mut s.command_inline_chars, t.command_inline_chars);
        over(&mut s.max_write_bytes, t.max_write_bytes);
        over(&mut s.batch_timeout_secs, t.batch_timeout_secs);
        over(&mut s.max_parallel, t.max_parallel);
        over(&mut s.offload.enabled, t.offload.enabled);
        over(&mut s.offload.threshold_chars, t.offload.threshold_chars);
        over(&mut self.approval.mode, top.approval.mode);
        over(&mut self.approvals.allow, top.approvals.allow);
        if let Some(deny) = top.approvals.deny {
            self.approvals
                .deny
                .get_or_insert_with(Vec::new)
                .extend(deny);
        }
        self.approvals.projects.extend(top.approvals.projects);
        over(&mut self.shell.keep_env, top.shell.keep_env);
        self.web.merge(top.web);
        let (m, t) = (&mut self.mcp, top.mcp);
        over(&mut m.startup_wait_seconds, t.startup_wait_seconds);
        over(
            &mut m.initialize_timeout_seconds,
            t.initialize_timeout_seconds,
        );
        over(&mut m.call_timeout_seconds, t.call_timeout_seconds);
        over(&mut m.trust_project_servers, t.trust_project_servers);
        over(&mut self.ui.language, top.ui.language);
        over(&mut self.sessions.keep_days, top.sessions.keep_days);
        let (s, t) = (&mut self.lsp, top.lsp);
        over(&mut s.enabled, t.enabled);
        over(&mut s.wait_ms, t.wait_ms);
        over(&mut s.max_diagnostics, t.max_diagnostics);
        s.servers.extend(t.servers);
        let (s, t) = (&mut self.snapshots, top.snapshots);
        over(&mut s.enabled, t.enabled);
        over(&mut s.keep, t.keep);
        over(&mut s.max_file_bytes, t.max_file_bytes);
        over(&mut self.skills.disabled, top.skills.disabled);
        self.sandbox.merge(top.sandbox);
        self.plan.merge(top.plan);
        let (s, t) = (&mut self.index, top.index);
        over(&mut s.enabled, t.enabled);
        over(&mut s.embeddings.url, t.embeddings.url);
        over(&mut s.embeddings.model, t.embeddings.model);
    }
}

fn read_text(path: &Path) -> Result<Option<String>, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ConfigError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}
