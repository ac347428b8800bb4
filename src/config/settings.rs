//! The settings table: one row per setting with its file key, environment names, flag, default, a line of
//! documentation and whether a project's own files may set it. The loader's project filter, `/config`, the example
//! file's drift test and the flag check all read this table, so a setting is named once.

/// Whether `<project>/.paicli/config.toml` or `<project>/.env` may set a setting. A cloned repository is someone
/// else's: it may tighten, never loosen or redirect.
#[derive(Clone, Copy, Debug)]
pub enum Project {
    /// Any project file may set it.
    May,
    /// Only the user's own files, the environment and flags.
    Never,
    /// Only once the user trusts the project (`--trust-project`, `/trust`).
    Trusted,
    /// An endpoint that receives a key: only together with a key from the same project file, or when trusted.
    WithOwnKeyOrTrusted,
    /// Only values the function accepts as tightening (e.g. `false` for a switch that loosens a guard).
    TightenOnly(fn(&toml::Value) -> bool),
}

/// One setting.
#[derive(Debug)]
pub struct Setting {
    /// Dotted file key (`llm.base_url`); `<name>` stands for any table name. Also the name `/config` shows.
    pub key: &'static str,
    /// Whether `config.toml` accepts the key (some settings are environment-only).
    pub in_file: bool,
    /// Environment variables, highest precedence first; `<PREFIX>` is a provider's prefix (`DEEPSEEK`), `<KEY>`
    /// any provider's key variable.
    pub env: &'static [&'static str],
    /// The command-line flag, when there is one.
    pub flag: Option<&'static str>,
    /// The default as the example file writes it; empty when there is none or it is derived.
    pub default: &'static str,
    /// One line for `/config` and readers of the table.
    pub doc: &'static str,
    pub project: Project,
}

const fn row(key: &'static str, default: &'static str, doc: &'static str) -> Setting {
    Setting {
        key,
        in_file: true,
        env: &[],
        flag: None,
        default,
        doc,
        project: Project::May,
    }
}

/// Every setting, grouped by section.
pub static SETTINGS: &[Setting] = &[
    Setting {
        env: &["PAICLI_PROVIDER"],
        flag: Some("--provider"),
        ..row(
            "llm.provider",
            "",
            "provider id; unset = the first provider whose key is set",
        )
    },
    Setting {
        env: &["PAICLI_MODEL", "<PREFIX>_MODEL"],
        flag: Some("--model"),
        ..row(
            "llm.model",
            "",
            "model name; unset = the provider's default, or the one model a local server lists",
        )
    },
    Setting {
        env: &["PAICLI_BASE_URL", "<PREFIX>_BASE_URL"],
        flag: Some("--base-url"),
        project: Project::WithOwnKeyOrTrusted,
        ..row(
            "llm.base_url",
            "",
            "OpenAI-compatible endpoint; unset = the provider's",
        )
    },
    Setting {
        env: &["PAICLI_API_KEY", "<KEY>"],
        ..row(
            "llm.api_key",
            "",
            "API key; better kept in the environment or a .env file",
        )
    },
    row(
        "llm.connect_timeout_secs",
        "60",
        "seconds to wait for the TCP/TLS connection",
    ),
    row(
        "llm.idle_timeout_secs",
        "300",
        "longest silence between two streamed chunks",
    ),
    Setting {
        env: &["PAICLI_CONTEXT_WINDOW"],
        ..row(
            "llm.context_window",
            "0",
            "context window in tokens (0 = the provider table's)",
        )
    },
    row(
        "llm.retry.max_attempts",
        "3",
        "attempts per request, including the first",
    ),
    row("llm.retry.base_delay_ms", "500", "first backoff delay"),
    row(
        "llm.retry.max_delay_ms",
        "30000",
        "longest backoff delay, also caps Retry-After",
    ),
    // io
    Setting {
        env: &["PAICLI_VISION"],
        ..row(
            "llm.vision",
            "",
            "whether the model takes images; unset = paicli's vision table",
        )
    },
    Setting {
        env: &["PAICLI_MAX_OUTPUT_TOKENS"],
        flag: Some("--max-output-tokens"),
        ..row(
            "llm.max_output_tokens",
            "",
            "output limit per reply, sent as max_tokens (unset = the provider's: 4096 for local engines; 0 = none)",
        )
    },
    Setting {
        in_file: false,
        env: &["XFYUN_LORA_ID"],
        ..row(
            "llm.xfyun_lora_id",
            "",
            "sent as the lora_id header to the xfyun provider",
        )
    },
    Setting {
        env: &["PAICLI_MAX_ITERATIONS"],
        flag: Some("--max-iterations"),
        ..row(
            "agent.max_iterations",
            "0",
            "model calls per task (0 = unlimited)",
        )
    },
    Setting {
        env: &["PAICLI_TOKEN_BUDGET"],
        flag: Some("--token-budget"),
        ..row(
            "agent.token_budget",
            "0",
            "input+output tokens per task (0 = unlimited)",
        )
    },
    Setting {
        env: &["PAICLI_STAGNATION_WINDOW"],
        ..row(
            "agent.stagnation_window",
            "5",
            "identical tool-call replies in a row that stop a task",
        )
    },
    Setting {
        env: &["PAICLI_COMMAND_TIMEOUT_SECS"],
        ..row(
            "tools.command_timeout_secs",
            "60",
            "execute_command wall-clock limit",
        )
    },
    row(
        "tools.command_inline_chars",
        "8000",
        "command output kept in the conversation",
    ),
    row(
        "tools.max_write_bytes",
        "5242880",
        "largest file write_file / edit_file produce",
    ),
    row(
        "tools.batch_timeout_secs",
        "90",
        "time limit for one batch of parallel read-only calls",
    ),
    row(
        "tools.max_parallel",
        "4",
        "read-only tool calls run at once (1-16)",
    ),
    Setting {
        env: &["PAICLI_TOOL_OFFLOAD_ENABLED"],
        ..row(
            "tools.offload.enabled",
            "true",
            "save long tool results to .paicli/tool-outputs/",
        )
    },
    Setting {
        env: &["PAICLI_TOOL_OFFLOAD_THRESHOLD_CHARS"],
        ..row(
            "tools.offload.threshold_chars",
            "32000",
            "results longer than this are saved",
        )
    },
    Setting {
        env: &["PAICLI_APPROVAL"],
        flag: Some("--approval"),
        project: Project::Never,
        ..row("approval.mode", "auto", "ask | auto | plan | full")
    },
    Setting {
        in_file: false,
        env: &["PAICLI_AUTO_CLASSIFIER_MODEL"],
        project: Project::Never,
        ..row(
            "approval.classifier_model",
            "",
            "model of the auto-mode command classifier",
        )
    },
    Setting {
        project: Project::Never,
        ..row("approvals.allow", "", "saved rules that run without asking")
    },
    Setting {
        project: Project::Never,
        ..row(
            "approvals.projects.<name>",
            "",
            "allow rules for the project whose root is <name> (saved by `p` at the approval prompt)",
        )
    },
    row(
        "approvals.deny",
        "",
        "saved rules that never run; every file's rules add up",
    ),
    Setting {
        project: Project::Never,
        ..row(
            "shell.keep_env",
            "",
            "secret-looking variables commands still receive",
        )
    },
    Setting {
        env: &["PAICLI_WEB_SEARCH_PROVIDER"],
        ..row(
            "web.search_provider",
            "",
            "zhipu | serpapi | searxng | tavily | brave",
        )
    },
    Setting {
        env: &["PAICLI_WEB_ALLOW_PRIVATE_HOSTS"],
        // A cloned repository could aim `web_fetch` at the cloud metadata service or the LAN.
        project: Project::TightenOnly(super::web::tightens_private_hosts),
        ..row(
            "web.allow_private_hosts",
            "false",
            "let web_fetch reach non-public addresses",
        )
    },
    Setting {
        env: &["PAICLI_WEB_FETCH_MAX_CHARS"],
        ..row(
            "web.fetch_max_chars",
            "8000",
            "characters web_fetch returns by default",
        )
    },
    Setting {
        env: &["PAICLI_WEB_REQUESTS_PER_MINUTE"],
        ..row(
            "web.requests_per_minute",
            "30",
            "web_fetch calls per minute (0 = unlimited)",
        )
    },
    Setting {
        env: &["PAICLI_WEB_ZHIPU_BASE_URL"],
        project: Project::Trusted,
        ..row(
            "web.zhipu_base_url",
            "https://open.bigmodel.cn",
            "Zhipu search endpoint",
        )
    },
    Setting {
        env: &["PAICLI_WEB_SERPAPI_BASE_URL"],
        project: Project::Trusted,
        ..row(
            "web.serpapi_base_url",
            "https://serpapi.com",
            "SerpAPI endpoint",
        )
    },
    Setting {
        env: &["PAICLI_WEB_TAVILY_BASE_URL"],
        project: Project::Trusted,
        ..row(
            "web.tavily_base_url",
            "https://api.tavily.com",
            "Tavily endpoint",
        )
    },
    Setting {
        env: &["PAICLI_WEB_BRAVE_BASE_URL"],
        project: Project::Trusted,
        ..row(
            "web.brave_base_url",
            "https://api.search.brave.com",
            "Brave Search endpoint",
        )
    },
    Setting {
        env: &["ZHIPU_SEARCH_ENGINE"],
        ..row(
            "web.zhipu_search_engine",
            "search_std",
            "Zhipu search engine",
        )
    },
    Setting {
        env: &["SEARXNG_URL"],
        ..row("web.searxng_url", "", "your SearXNG instance")
    },
    Setting {
        in_file: false,
        env: &["GLM_API_KEY"],
        ..row(
            "web.zhipu_api_key",
            "",
            "Zhipu search key (the GLM provider's key)",
        )
    },
    Setting {
        in_file: false,
        env: &["SERPAPI_KEY"],
        ..row("web.serpapi_key", "", "SerpAPI key")
    },
    Setting {
        in_file: false,
        env: &["TAVILY_API_KEY"],
        ..row("web.tavily_api_key", "", "Tavily key")
    },
    Setting {
        in_file: false,
        env: &["BRAVE_API_KEY"],
        ..row("web.brave_api_key", "", "Brave Search key")
    },
    Setting {
        env: &["PAICLI_MCP_STARTUP_WAIT_SECONDS"],
        ..row(
            "mcp.startup_wait_seconds",
            "8",
            "first turn's wait for MCP servers still starting",
        )
    },
    row(
        "mcp.initialize_timeout_seconds",
        "60",
        "limit on a server's initialize handshake",
    ),
    row(
        "mcp.call_timeout_seconds",
        "60",
        "limit on one MCP tool call or resource read",
    ),
    Setting {
        flag: Some("--trust-project-mcp"),
        project: Project::Never,
        ..row(
            "mcp.trust_project_servers",
            "false",
            "start project MCP servers without asking",
        )
    },
    // mcp (OAuth)
    Setting {
        in_file: false,
        env: &["PAICLI_BROWSER", "BROWSER"],
        project: Project::Never,
        ..row(
            "mcp.browser",
            "",
            "command that opens an MCP login's authorization URL (the URL is its last argument)",
        )
    },
    row("ui.language", "auto", "auto | en | zh"),
    Setting {
        in_file: false,
        env: &["NO_COLOR"],
        ..row("ui.no_color", "", "set to turn colours off")
    },
    Setting {
        env: &["PAICLI_LSP_ENABLED"],
        ..row(
            "lsp.enabled",
            "true",
            "check edited files with language servers",
        )
    },
    Setting {
        env: &["PAICLI_LSP_WAIT_MS"],
        ..row(
            "lsp.wait_ms",
            "3000",
            "longest wait for the servers per batch of edits",
        )
    },
    Setting {
        env: &["PAICLI_LSP_MAX_DIAGNOSTICS"],
        ..row(
            "lsp.max_diagnostics",
            "20",
            "diagnostics listed per message",
        )
    },
    Setting {
        project: Project::Trusted,
        ..row("lsp.servers.<name>.command", "", "language server program")
    },
    Setting {
        project: Project::Trusted,
        ..row("lsp.servers.<name>.args", "", "its arguments")
    },
    Setting {
        project: Project::Trusted,
        ..row(
            "lsp.servers.<name>.extensions",
            "",
            "file extensions it checks, without dots",
        )
    },
    // snapshots: a project's files may not switch off or shrink the user's undo.
    Setting {
        env: &["PAICLI_SNAPSHOTS_ENABLED"],
        project: Project::Never,
        ..row(
            "snapshots.enabled",
            "true",
            "snapshot the project before and after turns that change files (revert_turn, /restore, /rewind)",
        )
    },
    Setting {
        project: Project::Never,
        ..row("snapshots.keep", "50", "snapshots kept per project")
    },
    Setting {
        project: Project::Never,
        ..row(
            "snapshots.max_file_bytes",
            "5242880",
            "files larger than this are left out of snapshots",
        )
    },
    // skills: a project may add skills through its own folders, but never re-enable one the user switched off.
    Setting {
        project: Project::Never,
        ..row(
            "skills.disabled",
            "",
            "skills switched off (/skill off NAME); they leave the catalog and load_skill refuses them",
        )
    },
    Setting {
        // Clean-up removes every project's ledgers, so a cloned repository must not shorten it.
        project: Project::Never,
        ..row(
            "sessions.keep_days",
            "30",
            "days a session ledger is kept after its last write (0 = forever)",
        )
    },
    // index: the code index behind search_code. Its embedding server receives the project's code, so a project
    // file may not point it elsewhere until trusted.
    Setting {
        env: &["PAICLI_INDEX_ENABLED"],
        ..row(
            "index.enabled",
            "true",
            "offer search_code and /index, /search, /graph",
        )
    },
    Setting {
        env: &["PAICLI_EMBEDDINGS_URL"],
        project: Project::Trusted,
        ..row(
            "index.embeddings.url",
            "",
            "OpenAI-compatible /embeddings URL (e.g. http://localhost:11434/v1); unset = keyword ranking only",
        )
    },
    Setting {
        env: &["PAICLI_EMBEDDINGS_MODEL"],
        ..row(
            "index.embeddings.model",
            "nomic-embed-text",
            "embedding model",
        )
    },
    Setting {
        in_file: false,
        env: &["PAICLI_EMBEDDINGS_API_KEY"],
        project: Project::Never,
        ..row(
            "index.embeddings.api_key",
            "",
            "bearer token for the embedding server",
        )
    },
    Setting {
        in_file: false,
        env: &["PAICLI_HOME"],
        project: Project::Never,
        ..row("home", "~/.paicli", "where user state lives")
    },
    Setting {
        in_file: false,
        env: &["PAICLI_AUDIT_DIR"],
        project: Project::Never,
        ..row(
            "audit.dir",
            "$PAICLI_HOME/audit",
            "where the audit log goes",
        )
    },
    Setting {
        in_file: false,
        env: &["PAICLI_LOG"],
        ..row(
            "log.level",
            "info",
            "log level of $PAICLI_HOME/logs/paicli.log.*",
        )
    },
    // sandbox
    Setting {
        env: &["PAICLI_SANDBOX_MODE"],
        flag: Some("--sandbox"),
        project: Project::TightenOnly(super::sandbox::tightens_mode),
        ..row(
            "sandbox.mode",
            "auto",
            "auto | required | off: confine commands with Landlock / Seatbelt",
        )
    },
    Setting {
        project: Project::TightenOnly(super::sandbox::tightens_roots),
        ..row(
            "sandbox.writable_roots",
            "",
            "more folders commands may write to (besides the project, temp dir and tool caches)",
        )
    },
    Setting {
        env: &["PAICLI_SANDBOX_NETWORK"],
        project: Project::TightenOnly(super::sandbox::tightens_network),
        ..row(
            "sandbox.network",
            "true",
            "commands may open TCP connections and listen",
        )
    },
    Setting {
        env: &["PAICLI_SANDBOX_PROTECT_GIT"],
        project: Project::TightenOnly(super::sandbox::tightens_protect_git),
        ..row(
            "sandbox.protect_git",
            "false",
            "the project's .git is read-only to commands",
        )
    },
    // browser
    Setting {
        env: &["PAICLI_BROWSER_MCP_COMMAND"],
        project: Project::Never,
        ..row(
            "browser.mcp_command",
            "",
            "command line of the chrome-devtools MCP server; unset = chrome-devtools-mcp on PATH, else npx",
        )
    },
    Setting {
        env: &["PAICLI_BROWSER_EXECUTABLE", "CHROME_PATH"],
        project: Project::Never,
        ..row(
            "browser.executable",
            "",
            "Chrome or Chromium binary of the isolated browser; unset = the server's own search",
        )
    },
    Setting {
        env: &["PAICLI_BROWSER_HEADLESS"],
        ..row(
            "browser.headless",
            "true",
            "the isolated browser runs without a window",
        )
    },
    Setting {
        env: &["PAICLI_BROWSER_ALLOW_LOCAL"],
        project: Project::Never,
        ..row(
            "browser.allow_local",
            "false",
            "the browser may open loopback pages (localhost) the user did not name; never from a project's files",
        )
    },
    // plan
    Setting {
        env: &["PAICLI_PLAN_MAX_PARALLEL"],
        ..row(
            "plan.max_parallel",
            "2",
            "plan and team tasks (sub-agents) running at once (1-8)",
        )
    },
    Setting {
        env: &["PAICLI_PLAN_MAX_REPLANS"],
        ..row(
            "plan.max_replans",
            "2",
            "re-plans when failures leave a plan under 50% done (0-10)",
        )
    },
];

/// The row of a dotted file key; `lsp.servers.pyright.command` finds `lsp.servers.<name>.command`.
pub fn for_file_key(key: &str) -> Option<&'static Setting> {
    let parts: Vec<&str> = key.split('.').collect();
    SETTINGS.iter().filter(|s| s.in_file).find(|s| {
        let row: Vec<&str> = s.key.split('.').collect();
        row.len() == parts.len()
            && row
                .iter()
                .zip(&parts)
                .all(|(r, p)| *r == "<name>" || r == p)
    })
}

/// The row an environment variable belongs to, if any.
pub fn for_env(name: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.env.iter().any(|pattern| env_matches(pattern, name)))
}

/// The row of a `/config` key.
pub fn find(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.key == key)
}

fn env_matches(pattern: &str, name: &str) -> bool {
    use super::providers::PROVIDERS;
    if pattern == "<KEY>" {
        return PROVIDERS.iter().any(|p| p.key_envs.contains(&name));
    }
    match pattern.strip_prefix("<PREFIX>") {
        Some(suffix) => PROVIDERS
            .iter()
            .filter(|p| !p.env_prefix.is_empty())
            .any(|p| name.strip_prefix(p.env_prefix) == Some(suffix)),
        None => pattern == name,
    }
}

#[cfg(test)]
mod tests;
