//! Builds a ready agent from the resolved configuration and hosts its session (`app::Session`, the one every
//! front-end drives), and sets up logging.

pub mod agent_models;
pub mod channel_status;
pub mod exit_codes;
pub mod hints;
pub mod mcp_audit;
pub mod mcp_login;
pub mod mentions;
pub mod review;
pub mod served;
pub mod session;
pub mod sessions;
pub mod tasks;

use std::sync::Arc;

use crate::agent::context::prompt::{self, PromptFacts};
use crate::agent::{Agent, AgentOptions, MemoryGuardHook};
use crate::config::safe_read::{FileIssue, FileNotice};
use crate::config::{Config, ConfigError};
use crate::guard::command_guard::CommandGuard;
use crate::guard::control_files::ControlFiles;
use crate::guard::network::PageRules;
use crate::guard::path_guard::PathGuard;
use crate::guard::redact::Redactor;
use crate::index::CodeIndex;
use crate::llm::LlmError;
use crate::llm::client::{ClientOptions, OpenAiClient};
use crate::llm::lazy::LazyOpenAiClient;
use crate::llm::providers::RequestExtras;
use crate::lsp::LspManager;
use crate::mcp::browser_entry::Host;
use crate::mcp::{self, McpManager, StartOptions};
use crate::memory::MemoryStore;
use crate::policy::approval::{
    ApprovalClassifier, ApprovalHook, ApprovalHookOptions, Approver, NonInteractiveApprover,
    ProjectRuleStore, RuleSet,
};
use crate::policy::audit::AuditLog;
use crate::policy::exposure::ExposurePolicy;
use crate::protocol::{MemoryTaint, Notice, ToolTraitsLookup};
use crate::skills::SkillRoots;
use crate::snapshot::{SnapshotHook, SnapshotStore, StoreSettings};
use crate::tools::browser::{BrowserController, PageTracker, PageUrlHook};
use crate::tools::skill::SkillLibrary;
use crate::tools::{self, Executor, ExecutorOptions, SpillStore, ToolContext, ToolRegistry};

/// `max_tokens` of a classifier request: the answer is one short JSON object.
const CLASSIFIER_MAX_TOKENS: u32 = 300;

/// Why the agent could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(transparent)]
    ServedModel(#[from] served::ServedModelError),
    #[error("cannot use project root {path}: {source}")]
    ProjectRoot {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

pub use served::{WindowLookup, discover_served, discover_served_model};
pub use session::{HostError, HostOptions, Input, Ran, RunAs, Session};

/// The agent for `config`: client, built-in tools, executor, path guard, spill store, system prompt, and approval
/// in `config.approval` mode with nobody to ask (as `paicli -p` runs). No MCP servers.
pub fn build_agent(config: &Config) -> Result<Agent, SetupError> {
    let hook = build_approval_hook(config, Arc::new(NonInteractiveApprover))?;
    build_agent_with_approval(config, hook)
}

/// [`build_agent`] with a given approval hook (the REPL passes one whose approver asks at the terminal and keeps
/// a handle to switch modes).
pub fn build_agent_with_approval(config: &Config, hook: ApprovalHook) -> Result<Agent, SetupError> {
    build_agent_on(config, hook).map(|parts| parts.agent)
}

/// The background services of a session: MCP servers and language servers. Shut them down before exiting.
pub struct Services {
    pub mcp: McpManager,
    /// `None` when `[lsp]` is disabled.
    pub lsp: Option<Arc<LspManager>>,
    /// Snapshots of the project's files (off when disabled or `git` is missing).
    pub snapshots: SnapshotHook,
    /// The session's skills (`load_skill`, `/skill`).
    pub skills: Arc<SkillLibrary>,
    /// The code index `search_code` uses (`None` when `index.enabled = false`); `/index`, `/search`, `/graph`.
    pub index: Option<Arc<CodeIndex>>,
    /// The browser behind the browser tools and `/browser` (`None` when mcp.json disables `chrome-devtools`).
    pub browser: Option<Arc<BrowserController>>,
    /// What the session read that it did not write (the approval gate asks before a global memory save after it).
    pub memory_taint: Arc<MemoryTaint>,
    /// Instruction files refused or cut while the system prompt was built; the front-ends say each once.
    pub file_notices: Vec<FileNotice>,
    /// The person's hooks (`/hooks`); the session host fires the session events.
    pub hooks: crate::hooks::Hooks,
}

impl Services {
    /// Stops every MCP server and language server cleanly, after the last post-turn snapshot is written.
    pub async fn shutdown(&self) {
        if let Some(store) = self.snapshots.store().cloned() {
            let _ = tokio::task::spawn_blocking(move || store.wait_pending()).await;
        }
        self.mcp.shutdown().await;
        if let Some(lsp) = &self.lsp {
            lsp.close().await;
        }
    }
}

/// The agent with everything a session has: MCP servers starting in the background (their tools join as they
/// become ready) and diagnostics after edits. Must be called inside a Tokio runtime; call
/// [`Services::shutdown`] before exiting.
pub fn build_session(config: &Config, hook: ApprovalHook) -> Result<(Agent, Services), SetupError> {
    let AgentParts {
        mut agent,
        registry,
        snapshots,
        skills,
        index,
        memory_taint,
        file_notices,
        hooks,
    } = build_agent_on(config, hook.clone())?;
    let lsp = build_lsp(config);
    if let Some(lsp) = &lsp {
        agent.set_diagnostics(Arc::clone(lsp) as Arc<dyn crate::lsp::DiagnosticsSource>);
    }
    let pages = Arc::new(PageTracker::default());
    let mut file_notices = file_notices;
    let mcp = start_mcp_observed(
        config,
        Arc::clone(&registry),
        Some(Arc::clone(&pages)),
        &mut file_notices,
    );
    agent.set_resource_index(mcp.clone());
    let browser = build_browser(config, &mcp, &registry, &pages);
    if browser.is_some() {
        hook.watch_pages(pages);
    }
    // `-p`'s answer; the REPL puts its form in front of this (audited as the person's).
    let audit = mcp_audit::McpAudit::new(config);
    mcp.set_elicitor(audit.elicitor(
        Arc::new(mcp::DefaultsElicitor),
        crate::policy::audit::ApprovedBy::Policy,
    ));
    Ok((
        agent,
        Services {
            mcp,
            lsp,
            snapshots,
            skills,
            index,
            browser,
            memory_taint,
            file_notices,
            hooks,
        },
    ))
}

/// The session's browser: the built-in `chrome-devtools` server (started on first use) and the three browser
/// tools, registered in their own group. `None` when mcp.json disables `chrome-devtools`.
fn build_browser(
    config: &Config,
    mcp: &McpManager,
    registry: &ToolRegistry,
    pages: &Arc<PageTracker>,
) -> Option<Arc<BrowserController>> {
    let browser = BrowserController::install(
        mcp,
        &config.browser,
        Host::current(&config.project_root),
        Arc::clone(pages),
        // A first `npx` start downloads the server; a browser launch takes seconds on a slow machine.
        config.mcp.initialize_timeout,
    )?;
    registry.replace_group("browser", tools::browser::browser_tools(&browser));
    Some(browser)
}

/// Loads the `mcp.json` files and starts their servers in the background, adding tools to `registry`.
pub fn start_mcp(config: &Config, registry: Arc<ToolRegistry>) -> McpManager {
    start_mcp_observed(config, registry, None, &mut Vec::new())
}

/// [`start_mcp`], with the browser server's tools reporting the pages they see to `pages`.
fn start_mcp_observed(
    config: &Config,
    registry: Arc<ToolRegistry>,
    pages: Option<Arc<PageTracker>>,
    file_notices: &mut Vec<FileNotice>,
) -> McpManager {
    let lookup = |name: &str| config.env.get(name).map(str::to_string);
    // `--strict-mcp-config`: only the caller's servers, none from mcp.json.
    let mut servers = if config.mcp_caller.strict {
        mcp::McpConfig::default()
    } else {
        mcp::config::load(&config.home, &config.project_root, &lookup)
    };
    file_notices.append(&mut servers.file_notices);
    let caller =
        mcp::config::caller_servers(&config.mcp_caller.servers, &config.project_root, &lookup);
    let servers = servers.with_caller(caller);
    let publisher = match pages {
        Some(pages) => crate::tools::mcp::RegistryPublisher::with_pages(registry, pages),
        None => crate::tools::mcp::RegistryPublisher::new(registry),
    };
    McpManager::start(
        servers,
        publisher,
        StartOptions {
            home: config.home.clone(),
            project_root: config.project_root.clone(),
            init_timeout: config.mcp.initialize_timeout,
            call_timeout: config.mcp.call_timeout,
            trust_project: config.mcp.trust_project_servers,
            browser: config
                .env
                .get("PAICLI_BROWSER")
                .or_else(|| config.env.get("BROWSER"))
                .map(str::to_string),
        },
    )
}

/// The path guard of `config`'s project, with the folders added for this run (`--add-dir`).
pub fn project_guard(config: &Config) -> Result<PathGuard, SetupError> {
    PathGuard::with_added(&config.project_root, &config.added_dirs).map_err(|source| {
        SetupError::ProjectRoot {
            path: config.project_root.clone(),
            source,
        }
    })
}

/// Where the audit log lives: `audit.dir` (`PAICLI_AUDIT_DIR`, else `$PAICLI_HOME/audit`); the hook writes there,
/// `/audit` reads.
pub fn audit_dir(config: &Config) -> std::path::PathBuf {
    config.audit_dir.clone()
}

/// The approval hook for `config`: its mode and `[approvals]` rules, the auto-mode classifier (same provider,
/// no thinking, small `max_tokens`, model `PAICLI_AUTO_CLASSIFIER_MODEL` if set), the audit log in
/// `$PAICLI_HOME/audit` (or `PAICLI_AUDIT_DIR`), and `approver` for questions to a person.
pub fn build_approval_hook(
    config: &Config,
    approver: Arc<dyn Approver>,
) -> Result<ApprovalHook, SetupError> {
    build_approval_hook_with(config, approver, true)
}

/// [`build_approval_hook`], without the classifier when `classify` is false: then `auto` runs edits and asks
/// about every command (Claude's `acceptEdits`, for the headless front-end).
pub fn build_approval_hook_with(
    config: &Config,
    approver: Arc<dyn Approver>,
    classify: bool,
) -> Result<ApprovalHook, SetupError> {
    let provider = config.provider()?;
    let secrets = sessions::configured_secrets(config);
    let audit_dir = audit_dir(config);

    let mut classifier_provider = provider;
    classifier_provider.extras = RequestExtras::None;
    classifier_provider.max_tokens = Some(CLASSIFIER_MAX_TOKENS);
    if let Some(model) = &config.classifier_model {
        classifier_provider.model.clone_from(model);
    }
    // Built on the first command the classifier judges: most sessions never pay for a second TLS setup.
    let classifier_client = LazyOpenAiClient::new(
        classifier_provider,
        ClientOptions::from_settings(&config.llm),
    );

    let guard = project_guard(config)?;
    // One table for the gate and the command guard: building it resolves about a hundred paths.
    let control = control_files(config);
    Ok(ApprovalHook::new(ApprovalHookOptions {
        mode: config.approval,
        allow: RuleSet::from_strings(
            &[
                &config.approvals.allow[..],
                &config.approvals.project_allow[..],
            ]
            .concat(),
        ),
        deny: RuleSet::from_strings(&config.approvals.deny),
        approver,
        classifier: classify.then(|| ApprovalClassifier::new(Arc::new(classifier_client))),
        audit: Some(Arc::new(AuditLog::new(audit_dir, Redactor::new(secrets)))),
        command_guard: Some(CommandGuard::with_control_files(
            Arc::new(guard),
            Some(config.home.clone()),
            control.clone(),
        )),
        control_files: Some(control),
        project_rules: Some(ProjectRuleStore {
            home: config.home.clone(),
            root: config.project_root.clone(),
        }),
        sandboxed_commands: build_sandbox(config).is_active(),
    }))
}

/// The control paths of `config`'s session: `$PAICLI_HOME`'s, the project's, the folders added for this run
/// (`--add-dir`), and the git directories any of their `.git` files link to.
fn control_files(config: &Config) -> ControlFiles {
    let linked: Vec<_> = std::iter::once(&config.project_root)
        .chain(&config.added_dirs)
        .flat_map(|root| crate::sandbox::linked_git_dirs(root, Some(&config.home)))
        .collect();
    ControlFiles::new(&config.home, &config.project_root)
        .with_added_roots(&config.added_dirs)
        .with_git_dirs(&linked)
}

/// The snapshot hook for `config`: off when `snapshots.enabled = false`, or (with one notice) when the store
/// cannot be opened, e.g. because `git` is missing. Labelled with `session` until the front-end sets its id.
pub fn build_snapshots(config: &Config, guard: &PathGuard, session: &str) -> SnapshotHook {
    if !config.snapshots.enabled {
        return SnapshotHook::off(None);
    }
    let settings = StoreSettings {
        keep: config.snapshots.keep,
        max_file_bytes: config.snapshots.max_file_bytes,
    };
    match SnapshotStore::open(&config.home, Arc::new(guard.clone()), settings) {
        Ok(store) => SnapshotHook::new(Arc::new(store), session),
        Err(e) => {
            tracing::warn!("snapshots off: {e}");
            SnapshotHook::off(Some(Notice::SnapshotsOff {
                error: e.to_string(),
            }))
        }
    }
}

/// A session id for snapshot labels when the front-end has none: the start time, to the second.
fn default_session_id() -> String {
    chrono::Utc::now().format("%Y%m%d-%H%M%S").to_string()
}

/// The code index of the project, or `None` when `index.enabled = false`.
pub fn build_index(config: &Config) -> Option<Arc<CodeIndex>> {
    config.index.enabled.then(|| {
        Arc::new(CodeIndex::new(
            &config.home,
            &config.project_root,
            &config.index,
        ))
    })
}

/// What `build_agent_on` makes besides the agent: its registry (MCP servers add tools later), the snapshot hook
/// (the front-end restores snapshots), the skill library (`/skill`) and the code index (`/search`).
struct AgentParts {
    agent: Agent,
    registry: Arc<ToolRegistry>,
    snapshots: SnapshotHook,
    skills: Arc<SkillLibrary>,
    index: Option<Arc<CodeIndex>>,
    memory_taint: Arc<MemoryTaint>,
    file_notices: Vec<FileNotice>,
    hooks: crate::hooks::Hooks,
}

/// Where the session's hooks are declared.
pub fn hook_paths(config: &Config) -> crate::hooks::HookPaths {
    crate::hooks::HookPaths {
        paicli_home: config.home.clone(),
        user_home: config.env.get("HOME").map(std::path::PathBuf::from),
        project_root: config.project_root.clone(),
        caller: config.claude_caller.clone(),
    }
}

/// The session's hooks: the user's, and the project's once trusted.
pub fn build_hooks(config: &Config) -> crate::hooks::Hooks {
    let paths = hook_paths(config);
    let trusted = crate::hooks::trust::project_hooks_trusted(&paths);
    crate::hooks::Hooks::load(&paths, trusted)
}

/// The agent with the built-in tools, and the parts a session keeps beside it.
fn build_agent_on(config: &Config, hook: ApprovalHook) -> Result<AgentParts, SetupError> {
    let provider = config.provider()?;
    let context_window = config.context_window(&provider);
    let vision = provider.vision;
    let image_limits = provider.image_limits;
    let models = agent_models::ConfiguredModels::new(provider.clone(), &config.llm, &config.env);
    let client = OpenAiClient::new(provider, ClientOptions::from_settings(&config.llm))?;

    let root = config.project_root.clone();
    let memory = Arc::new(MemoryStore::new(&config.home, &root));
    let guard = project_guard(config)?;
    // The library keeps the guard's read roots in step with the enabled skills' folders.
    let skills = Arc::new(SkillLibrary::load(
        skill_roots(config),
        &config.skills_disabled,
        guard.read_roots().clone(),
    ));
    let snapshots = build_snapshots(config, &guard, &default_session_id());
    let index = build_index(config);
    let spill = SpillStore::new(
        &root,
        config.tools.offload_enabled,
        config.tools.offload_threshold_chars,
    );
    // One value for what the calls get and what the descriptions and the prompt say they get.
    let limits = tool_limits(config);
    // What the session read that it did not write: the memory guard records it, the approval gate asks before a
    // global save after it, `save_memory` stores it with the fact. Tools resolve write targets beneath the
    // guard's root, so reads are compared beneath it too.
    let memory_taint = Arc::new(MemoryTaint::new(guard.root()));
    let mut builtins = tools::builtin_tools(&tools::Builtins {
        limits: &limits,
        spill: &spill,
        web: &config.web,
        memory: &memory,
        memory_taint: &memory_taint,
        skills: &skills,
        snapshots: &snapshots,
        index: index.as_ref(),
    });
    if config.agents.task_list {
        builtins.push(Arc::new(tools::task_list::UpdatePlan));
    }
    let mut file_notices = Vec::new();
    // With the agent tool off, only the built-in agents remain (`/review` runs the reviewer).
    let catalog = if config.agents.enabled {
        let mut found = crate::agents::discover(&agent_roots(config));
        file_notices.append(&mut found.file_notices);
        let listed = found
            .agents
            .iter()
            .map(|a| (a.name.as_str(), a.description.as_str()));
        builtins.push(Arc::new(tools::delegate::AgentTool::new(listed)));
        Arc::new(found)
    } else {
        Arc::new(crate::agents::AgentCatalog::built_in())
    };
    let registry = Arc::new(ToolRegistry::with_tools(builtins));

    match tools::spill::remove_stale(&guard, tools::spill::STALE_AFTER) {
        Err(tools::spill::SpillFolderError::Linked(_)) => file_notices.push(FileNotice {
            path: root.join(tools::spill::SPILL_DIR),
            issue: FileIssue::SpillFolderLinked,
        }),
        Err(e) => tracing::warn!("could not clean old tool outputs: {e}"),
        Ok(_) => {}
    }
    // Temp files of writes a kill interrupted; a bounded walk, off the path to the first request.
    let sweep_guard = guard.clone();
    std::thread::spawn(move || {
        let report = tools::fs::remove_stale_temps(&sweep_guard, tools::fs::STALE_AFTER);
        tracing::debug!("stale temp sweep: {report:?}");
    });
    let executor = Executor::new(
        Arc::clone(&registry),
        ExecutorOptions {
            max_parallel: config.tools.max_parallel,
            batch_timeout: config.tools.batch_timeout,
            ..ExecutorOptions::default()
        },
    );
    let facts = PromptFacts::of(&spill);
    let system_prompt = prompt::with_skill_catalog(
        prompt::build_system_prompt(&root, &config.home, &facts, &mut file_notices),
        &skills.catalog(),
    );
    let ctx = ToolContext {
        root,
        guard: Arc::new(guard),
        spill: Arc::new(spill),
        cancel: tokio_util::sync::CancellationToken::new(),
        limits,
        gates: Vec::new(),
        progress: crate::tools::Progress::default(),
        files: None,
        delegation: None,
    };
    let mut agent = Agent::new(
        Arc::new(client),
        Arc::clone(&registry),
        executor,
        ctx,
        system_prompt,
        AgentOptions {
            max_iterations: config.agent.max_iterations,
            token_budget: config.agent.token_budget,
            stagnation_window: config.agent.stagnation_window,
            context_window,
        },
    );
    agent.set_memory(memory);
    agent.set_delegation(crate::agent::delegation::DelegationSetup {
        catalog,
        models: Arc::new(models),
        roles: crate::agent::delegation::RoleModels {
            planner: config.plan.planner_model.clone(),
            worker: config.plan.worker_model.clone(),
            reviewer: config.plan.reviewer_model.clone(),
        },
    });
    agent.set_vision(vision);
    agent.set_image_limits(image_limits);
    // Gates run in hook order. Policy refusals come first so nobody is asked to approve a call that would be
    // refused anyway; approval (which may ask a person, and writes the audit log) comes last.
    agent.add_turn_hook(Arc::new(ExposurePolicy::new(
        Arc::clone(&registry) as Arc<dyn ToolTraitsLookup>
    )));
    agent.add_turn_hook(Arc::new(MemoryGuardHook::new(Arc::clone(&memory_taint))));
    hook.watch_memory(Arc::clone(&memory_taint));
    // Every page the browser is asked to open (inert for sessions without the browser's tools).
    agent.add_turn_hook(Arc::new(PageUrlHook::new(PageRules::new(
        config.browser.allow_local,
    ))));
    // PreToolUse hooks before approval: a hook's deny spares the person a question, its `ask` reaches them.
    let hooks = build_hooks(config);
    hooks.set_permission_mode(crate::hooks::permission_mode_name(hook.mode().name()));
    agent.add_turn_hook(Arc::new(crate::hooks::gate::ToolHooks::new(hooks.clone())));
    hook.watch_hooks(Arc::new(hooks.clone()));
    agent.set_lifecycle(Arc::new(hooks.clone()));
    agent.add_turn_hook(Arc::new(hook));
    // After approval: only a call that will run is worth a snapshot.
    agent.add_turn_hook(Arc::new(snapshots.clone()));
    Ok(AgentParts {
        agent,
        registry,
        snapshots,
        skills,
        index,
        memory_taint,
        file_notices,
        hooks,
    })
}

/// Where the agent definitions' layers live: the user's home, `$PAICLI_HOME` and the project root.
pub fn agent_roots(config: &Config) -> crate::agents::AgentRoots {
    crate::agents::AgentRoots {
        user_home: config.env.get("HOME").map(std::path::PathBuf::from),
        claude_sources: config.claude_caller.sources,
        paicli_home: config.home.clone(),
        project_root: config.project_root.clone(),
    }
}

/// Where the skill layers live: the user's home, `$PAICLI_HOME` and the project root.
pub fn skill_roots(config: &Config) -> SkillRoots {
    SkillRoots {
        // From the resolved environment (not the process), so tests and embedders choose it.
        user_home: config.env.get("HOME").map(std::path::PathBuf::from),
        paicli_home: config.home.clone(),
        project_root: config.project_root.clone(),
    }
}

/// Limits handed to every tool call, from `[tools]` and `[shell]`; commands may also write to `$PAICLI_HOME`.
pub fn tool_limits(config: &Config) -> tools::ToolLimits {
    tools::ToolLimits {
        command_timeout: config.tools.command_timeout,
        command_inline_chars: config.tools.command_inline_chars,
        max_write_bytes: config.tools.max_write_bytes,
        keep_env: config.shell.keep_env.clone(),
        paicli_home: Some(config.home.clone()),
        sandbox: build_sandbox(config),
        confinement: crate::protocol::Confinement::default(),
    }
}

/// The session's sandbox from `[sandbox]`, with the tool caches under the user's home and those the
/// environment moved (`CARGO_HOME`, ...).
pub fn build_sandbox(config: &Config) -> crate::sandbox::Sandbox {
    let caches = crate::sandbox::tool_caches(dirs::home_dir().as_deref(), |var| {
        config.env.get(var).map(str::to_string)
    });
    crate::sandbox::Sandbox::new(config.sandbox.clone(), caches)
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

/// Log lines queued for the writer thread before new ones are dropped.
const LOG_QUEUE_LINES: usize = 4096;

/// Starts compiling the first turn's text patterns (exposure, memory guard) on a background thread, so they are
/// ready by the time the first task is classified instead of delaying its request. Call once, first thing.
pub fn prewarm_patterns() {
    let spawned = std::thread::Builder::new()
        .name("paicli-prewarm".into())
        .spawn(|| {
            lower_this_threads_priority();
            // In the order the first turn needs them: the ledger's redaction as the session starts, then the
            // task's classification.
            crate::guard::redact::prewarm();
            crate::guard::urls::prewarm();
            crate::policy::exposure::prewarm();
            crate::agent::context::memory_guard::prewarm();
        });
    // Without the thread the patterns simply compile on first use.
    drop(spawned);
}

/// Puts the calling thread at the lowest normal priority (nice 19; on Linux a thread's own). The prewarm is work
/// for a spare core: on a two-core machine at full priority it took CPU from the start-up it is meant to shorten.
/// A thread that needs a pattern being compiled still gets it, only later; never an idle-only class, which could
/// leave that thread waiting on a busy machine.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `gettid` names this thread. A failure leaves the priority as
    // it was, which is harmless.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19);
    }
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
    // The default queue of 128k lines is allocated and touched up front: ~4 MB and a millisecond or two of page
    // faults before the first request. A session logs far less than this between two writes of the worker.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .finish(appender);
    let filter = tracing_subscriber::EnvFilter::try_new(&config.log_level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .ok()?;
    Some(guard)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn tool_limits_carry_kept_variables_and_the_home_write_root() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            "[shell]\nkeep_env = [\"NPM_TOKEN\"]\n[tools]\ncommand_timeout_secs = 7\n",
        )
        .unwrap();
        let env = vec![("PAICLI_HOME".to_string(), home.path().display().to_string())];
        let config =
            Config::load_with_env(project.path(), env, &crate::config::Overrides::default())
                .unwrap();
        let limits = tool_limits(&config);
        assert_eq!(limits.keep_env, ["NPM_TOKEN"]);
        assert_eq!(limits.paicli_home.as_ref(), Some(&config.home));
        assert_eq!(limits.command_timeout, std::time::Duration::from_secs(7));
    }
}
