//! Builds a ready agent from the resolved configuration, and sets up logging.

use std::sync::Arc;

use crate::agent::{Agent, AgentOptions, prompt};
use crate::config::{Config, ConfigError};
use crate::llm::LlmError;
use crate::llm::client::OpenAiClient;
use crate::lsp::LspManager;
use crate::policy::path_guard::PathGuard;
use crate::tools::{self, Executor, ExecutorOptions, SpillStore, ToolContext, ToolRegistry};

/// Why the agent could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("cannot use project root {path}: {source}")]
    ProjectRoot {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// The agent for `config`: client, core tools, executor, path guard, spill store and system prompt.
pub fn build_agent(config: &Config) -> Result<Agent, SetupError> {
    let provider = config.provider()?;
    let client = OpenAiClient::new(provider, config.client_options())?;

    let mut registry = ToolRegistry::new();
    for tool in tools::core_tools() {
        registry.register(tool);
    }
    let registry = Arc::new(registry);

    let root = config.project_root.clone();
    let guard = PathGuard::new(&root).map_err(|source| SetupError::ProjectRoot {
        path: root.clone(),
        source,
    })?;
    if let Err(e) = tools::spill::remove_stale(&root, tools::spill::STALE_AFTER) {
        tracing::warn!("could not clean old tool outputs: {e}");
    }
    let spill = SpillStore::new(
        &root,
        config.tools.offload_enabled,
        config.tools.offload_threshold_chars,
    );
    let executor = Executor::new(
        Arc::clone(&registry),
        ExecutorOptions {
            max_parallel: config.tools.max_parallel,
            batch_timeout: config.tools.batch_timeout,
            ..ExecutorOptions::default()
        },
    );
    let ctx = ToolContext {
        root: root.clone(),
        guard: Arc::new(guard),
        spill: Arc::new(spill),
        cancel: tokio_util::sync::CancellationToken::new(),
        limits: config.tool_limits(),
        gates: Vec::new(),
    };
    let system_prompt = prompt::build_system_prompt(&root, &config.home);
    Ok(Agent::new(
        Arc::new(client),
        registry,
        executor,
        ctx,
        system_prompt,
        AgentOptions {
            max_iterations: config.agent.max_iterations,
            token_budget: config.agent.token_budget,
        },
    ))
}

/// The diagnostics source for the agent loop (language servers plus the syntax check); `None` when `[lsp]` is
/// disabled. Nothing starts until a file needs checking. Call `close()` on it before exiting so servers shut
/// down cleanly.
pub fn build_lsp(config: &Config) -> Option<Arc<LspManager>> {
    config
        .lsp
        .enabled
        .then(|| Arc::new(LspManager::new(&config.project_root, &config.lsp)))
}

/// Sends logs to `$PAICLI_HOME/logs/paicli.log.YYYY-MM-DD`, never to the terminal. Level from `PAICLI_LOG`
/// (default `info`). Keep the returned guard alive until exit so buffered lines are written.
pub fn init_logging(config: &Config) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    let dir = config.home.join("logs");
    std::fs::create_dir_all(&dir).ok()?;
    let appender = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix("paicli.log")
        .max_log_files(7)
        .build(&dir)
        .ok()?;
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter =
        tracing_subscriber::EnvFilter::try_new(config.env.get("PAICLI_LOG").unwrap_or("info"))
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .ok()?;
    Some(guard)
}
