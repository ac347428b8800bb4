//! The headless protocol of Claude Code, so `claude -p` scripts and the Claude Agent SDKs drive paicli unchanged
//! (`docs/headless.md`): `--input-format stream-json` reads NDJSON user messages and control requests on stdin
//! and writes NDJSON messages on stdout; `-p --output-format json|stream-json` runs one task with the same
//! messages (`json` prints only the `result`). Each user message is one input to the app's session; this
//! front-end brings its event sink (`messages`), its approver (`approver`, with `--permission-prompt-tool stdio`)
//! and its plan reviewer.

mod approver;
mod caller_agents;
pub mod caller_settings;
mod channel;
mod control;
pub mod flags;
mod hook_messages;
mod init;
mod messages;
mod partials;
mod reader;
mod result;
mod runner;
mod running;
mod sdk_hooks;
mod sdk_mcp;
mod state;
pub mod structured;
mod tool_limit;
mod user_input;

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::agents::AgentCatalog;
use crate::app::session::{HostError, HostOptions, Input, Session};
use crate::app::sessions::{StartOptions, Started};
use crate::config::Config;
use crate::llm::providers::price_of;
use crate::protocol::Approver;
use crate::protocol::plan::{PlanReviewer, ProposeOnly, RunWithoutReview};
use crate::text::{Lang, Msg, file_notice, tr, trf};
use approver::ClientApprover;
use caller_agents::CallerAgents;
use channel::Channel;
use control::Setup;
use runner::Runner;
use running::RunningTurn;
use sdk_hooks::SdkHooks;
use state::Headless;
use structured::{Schema, SchemaError};
use tool_limit::{LimitHook, ToolLimit};

pub use flags::{HeadlessFlags, InputFormat, PermissionMode};

/// What stdout carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Only the `result` object (`-p --output-format json`).
    Json,
    /// Every message, one per line.
    StreamJson,
}

/// One headless run.
pub struct Launch {
    pub config: Config,
    pub start: StartOptions,
    pub flags: HeadlessFlags,
    pub output: Output,
    /// `-p`'s task; `None` reads user messages from stdin (`--input-format stream-json`).
    pub task: Option<Input>,
    /// Hook runs as system messages (`--include-hook-events`).
    pub hook_events: bool,
    /// The served context window still being asked for (see `app::discover_served_model`).
    pub window: Option<crate::app::WindowLookup>,
    pub lang: Lang,
    /// What stderr says about the session started (resumed, forked), worded by the caller.
    pub started_lines: StartedLines,
}

/// Words the session's start (resumed, forked) for stderr.
pub type StartedLines = Box<dyn Fn(&Started) -> Vec<String> + Send>;

/// Why a headless run could not start.
#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    Schema(#[from] SchemaError),
    #[error("no US dollar prices for {model} at {provider}")]
    NoPrices { provider: String, model: String },
    #[error("--permission-prompt-tool stdio needs --input-format stream-json")]
    PromptToolNeedsInput,
    #[error("--permission-prompt-tool {0} is not supported")]
    UnknownPromptTool(String),
    #[error("--mcp-config {0}")]
    McpConfig(String),
    #[error("--agents {0}")]
    Agents(String),
    #[error("--add-dir {dir}: {error}")]
    AddDir { dir: String, error: String },
    #[error("prompt file {file}: {error}")]
    PromptFile { file: String, error: String },
    #[error("--session-id {0} is not a UUID")]
    BadSessionId(String),
    #[error("--session-id {0}: a session with this id exists")]
    SessionIdTaken(String),
    #[error("--session-id with --resume needs --fork-session")]
    SessionIdWithResume,
}

impl HeadlessError {
    /// The error for a person, in `lang` (the host's errors are worded by the caller, which knows them).
    pub fn describe(&self, lang: Lang) -> Option<String> {
        Some(match self {
            HeadlessError::Host(_) => return None,
            HeadlessError::Schema(e) => trf(lang, Msg::HeadlessBadSchema, &[("error", e)]),
            HeadlessError::NoPrices { provider, model } => trf(
                lang,
                Msg::HeadlessNoPrices,
                &[("provider", provider), ("model", model)],
            ),
            HeadlessError::PromptToolNeedsInput => {
                tr(lang, Msg::HeadlessPromptToolNeedsInput).to_string()
            }
            HeadlessError::UnknownPromptTool(tool) => {
                trf(lang, Msg::HeadlessUnknownPromptTool, &[("tool", tool)])
            }
            HeadlessError::McpConfig(error) => {
                trf(lang, Msg::HeadlessBadMcpConfig, &[("error", error)])
            }
            HeadlessError::Agents(error) => trf(lang, Msg::HeadlessBadAgents, &[("error", error)]),
            HeadlessError::AddDir { dir, error } => trf(
                lang,
                Msg::HeadlessBadAddDir,
                &[("dir", dir), ("error", error)],
            ),
            HeadlessError::PromptFile { file, error } => trf(
                lang,
                Msg::HeadlessBadPromptFile,
                &[("file", file), ("error", error)],
            ),
            HeadlessError::BadSessionId(id) => trf(lang, Msg::HeadlessBadSessionId, &[("id", id)]),
            HeadlessError::SessionIdTaken(id) => {
                trf(lang, Msg::HeadlessSessionIdTaken, &[("id", id)])
            }
            HeadlessError::SessionIdWithResume => {
                tr(lang, Msg::HeadlessSessionIdWithResume).to_string()
            }
        })
    }
}

/// The id of the new session (or fork): `--session-id`'s, a UUID no ledger has yet, or a fresh UUID, as Claude's
/// sessions are and SDK programs keep them. A resumed session keeps the id it has (`None`).
fn new_session_id(
    flags: &HeadlessFlags,
    start: &StartOptions,
    config: &Config,
) -> Result<Option<String>, HeadlessError> {
    let Some(text) = flags.session_id.as_deref() else {
        let resumed = start.resume.is_some() && !start.fork;
        return Ok((!resumed).then(channel::uuid));
    };
    let id = flags::uuid_session_id(text)
        .ok_or_else(|| HeadlessError::BadSessionId(text.to_string()))?;
    if start.resume.is_some() && !start.fork {
        return Err(HeadlessError::SessionIdWithResume);
    }
    let store = crate::session::ledger::SessionStore::new(&config.home);
    if store.all().iter().any(|s| s.id == id) {
        return Err(HeadlessError::SessionIdTaken(id));
    }
    Ok(Some(id))
}

/// The stderr line about flags accepted and ignored.
pub fn unknown_flags_note(lang: Lang, flags: &[String]) -> String {
    trf(
        lang,
        Msg::HeadlessUnknownFlags,
        &[("flags", &flags.join(", "))],
    )
}

/// Runs the session until its task is done (`-p`) or stdin closes and the queued turns have run; `cancel`
/// (Ctrl-C) stops it. Returns the exit code: `-p`'s codes, or for a stream 0, or 1 when the last result was an
/// error other than an interrupt. Must run inside the Tokio runtime.
pub async fn run(launch: Launch, cancel: CancellationToken) -> Result<i32, HeadlessError> {
    let Launch {
        mut config,
        mut start,
        flags,
        output,
        task,
        hook_events,
        window,
        lang,
        started_lines,
    } = launch;
    let schema = flags
        .json_schema
        .as_deref()
        .map(Schema::from_flag)
        .transpose()?;
    let asks_client = match flags.permission_prompt_tool.as_deref() {
        None => false,
        // `dontAsk` never asks, the prompt tool notwithstanding.
        Some("stdio") if task.is_none() => flags.permission_mode != Some(PermissionMode::DontAsk),
        Some("stdio") => return Err(HeadlessError::PromptToolNeedsInput),
        Some(other) => return Err(HeadlessError::UnknownPromptTool(other.to_string())),
    };
    start.id = new_session_id(&flags, &start, &config)?;
    config.mcp_caller = flags.caller_mcp().map_err(HeadlessError::McpConfig)?;
    let caller_agents = flags.caller_agents().map_err(HeadlessError::Agents)?;
    // In-process servers are reached through the client, so only a stream has them; under `-p` they stay in the
    // config, where they are listed as failed.
    let sdk_servers = match task {
        None => sdk_mcp::take_sdk_servers(&mut config.mcp_caller.servers),
        Some(_) => Vec::new(),
    };
    let added = flags
        .added_dirs()
        .map_err(|(dir, error)| HeadlessError::AddDir { dir, error })?;
    // The file tools reach them through the path guard; commands may write them inside the sandbox.
    config.sandbox.writable_roots.extend(added.iter().cloned());
    config.added_dirs = added;
    let provider = config.provider().ok();
    let price = match (flags.max_budget_usd, &provider) {
        (None, _) => None,
        (Some(_), Some(p)) => match price_of(&p.id, &p.model).filter(|p| p.currency == "$") {
            Some(price) => Some(price),
            None => {
                return Err(HeadlessError::NoPrices {
                    provider: p.id.clone(),
                    model: p.model.clone(),
                });
            }
        },
        (Some(_), None) => None,
    };
    let provider_id = provider.as_ref().map(|p| p.id.clone());
    let key_source = provider.and_then(|p| p.key_source);
    let stdout: Box<dyn std::io::Write + Send> = Box::new(std::io::stdout());
    let channel = Arc::new(Channel::new(stdout));
    let running = Arc::new(RunningTurn::default());
    let client = Arc::new(ClientApprover::new(
        Arc::clone(&channel),
        Arc::clone(&running),
    ));
    let approver: Arc<dyn Approver> = if asks_client {
        client.clone()
    } else {
        Arc::new(crate::protocol::approval::NonInteractiveApprover)
    };
    // Claude's modes in use: `acceptEdits` asks about every command, as Claude's does.
    let options = HostOptions {
        start,
        files: None,
        // Claude's `auto` is the one mode that judges commands itself, as paicli's own `auto` does.
        no_classifier: flags
            .permission_mode
            .or_else(|| flags.client_default_mode())
            .is_some_and(|mode| mode != PermissionMode::Auto),
        window,
    };
    let mut session = Session::start(config, approver, options)?;
    let sdk_hooks = Arc::new(SdkHooks::new(Arc::clone(&channel), lang));
    session
        .services
        .hooks
        .set_callbacks(Arc::clone(&sdk_hooks) as Arc<dyn crate::hooks::HookCallbacks>);
    session.agent_mut().add_agents(caller_agents);
    let known_agents = session
        .agent_mut()
        .agent_catalog()
        .map(|c| AgentCatalog::clone(c))
        .unwrap_or_default();
    let limit = ToolLimit::of_flags(flags.tools.as_deref(), &flags.disallowed_tools);
    if let Some(limit) = &limit {
        session
            .agent_mut()
            .add_turn_hook(Arc::new(LimitHook(Arc::clone(limit))));
    }
    session
        .services
        .mcp
        .add(sdk_mcp::sdk_servers(&sdk_servers, &channel));
    let session = Arc::new(session);
    for file in session.file_notices() {
        eprintln!("paicli: {}", file_notice(lang, &file));
    }
    for line in started_lines(session.started()) {
        eprintln!("paicli: {line}");
    }
    let mut headless = Headless::new(
        channel,
        running,
        session.id().to_string(),
        session.model.clone(),
    );
    headless.partials = flags.include_partial_messages;
    headless.hook_events = hook_events;
    headless.quiet = output == Output::Json;
    headless.lang = lang;
    headless.set_budget(price, flags.max_budget_usd);
    headless.provider_id = provider_id;
    let setup = Arc::new(Setup::new(sdk_hooks, CallerAgents::new(known_agents)));
    setup.ask_prompt(
        flags.system_prompt.clone(),
        flags.append_system_prompt.clone(),
    );
    let reviewer: Arc<dyn PlanReviewer> = match (&task, asks_client) {
        (Some(_), _) => Arc::new(RunWithoutReview),
        (None, true) => client,
        (None, false) => Arc::new(ProposeOnly),
    };
    let runner = Runner {
        base_prompt: session.system_prompt().await,
        session: Arc::clone(&session),
        headless: Arc::new(headless),
        setup,
        schema,
        key_source,
        reviewer,
        limit,
        fallback_model: flags.fallback_model.clone(),
        mcp_waited: std::sync::atomic::AtomicBool::new(false),
    };
    let code = match task {
        Some(input) => runner.turn(input, &cancel).await.code,
        None => runner.stream(&cancel).await,
    };
    session.shutdown().await;
    Ok(code)
}
