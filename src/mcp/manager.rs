//! Starts every configured server concurrently in the background, registers their tools as they become ready,
//! keeps them current on `tools/list_changed`, and shuts them down. Nothing here ever blocks the user: the first
//! turn waits at most the start-up budget, and late servers join when they are ready.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::config::{Launch, McpConfig, Origin, ServerConfig};
use super::elicit::{Elicitor, ElicitorSlot};
pub use super::link::ServerLink;
use super::oauth::TokenStore;
use super::refresh::{handle_event, load_resources, load_tools};
use super::rmcp_session;
use super::session::{McpError, RemotePrompt, RemoteResource, RemoteTool};
use super::stderr_ring::StderrRing;
use super::trust::TrustStore;
use crate::protocol::Notice;

/// Stderr lines quoted in a failure message.
pub(super) const FAILURE_TAIL_LINES: usize = 10;
/// How long a `tools/list` may take.
pub(super) const LIST_TIMEOUT: Duration = Duration::from_secs(30);

/// How the manager starts servers.
#[derive(Debug, Clone)]
pub struct StartOptions {
    /// `$PAICLI_HOME` (approvals live there).
    pub home: PathBuf,
    pub project_root: PathBuf,
    /// Limit on `initialize`.
    pub init_timeout: Duration,
    /// Default limit on one `tools/call` or `resources/read`.
    pub call_timeout: Duration,
    /// Approve (and remember) project servers not approved yet, instead of skipping them.
    pub trust_project: bool,
    /// The browser command (`PAICLI_BROWSER` / `BROWSER`) for a step-up authorization mid-session; without
    /// one, a server asking for more scope fails that call.
    pub browser: Option<String>,
}

/// Where a server stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerState {
    /// Configured to start on first use (the built-in browser server), not started yet.
    OnDemand,
    Starting,
    Ready,
    /// Could not start or was lost; the reason includes its last stderr lines.
    Failed(String),
    /// `"disabled": true` in its config.
    Disabled,
    /// A remote server that wants OAuth authorization: `paicli mcp login <name>`.
    NeedsLogin,
    /// A project server the user has not approved for this command line.
    NeedsApproval {
        command_line: String,
    },
}

impl ServerState {
    /// A one-word label for status lines.
    pub fn label(&self) -> &'static str {
        match self {
            ServerState::OnDemand => "on demand",
            ServerState::Starting => "starting",
            ServerState::Ready => "ready",
            ServerState::Failed(_) => "failed",
            ServerState::Disabled => "disabled",
            ServerState::NeedsApproval { .. } => "needs approval",
            ServerState::NeedsLogin => "needs login",
        }
    }
}

/// A snapshot of one server for `/mcp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerStatus {
    pub name: String,
    pub origin: Origin,
    pub state: ServerState,
    /// Tools registered (including the resource tools).
    pub tools: usize,
    pub resources: bool,
    /// Times the tool list was (re)loaded: 1 after start, +1 per `tools/list_changed`.
    pub tool_loads: u64,
    /// The MCP revision `initialize` settled on (ready servers only).
    pub protocol_version: Option<String>,
}

pub(super) struct Slot {
    origin: Origin,
    launch: Option<Launch>,
    state: ServerState,
    pub(super) tools: usize,
    pub(super) tool_loads: u64,
    stderr: Arc<StderrRing>,
    pub(super) link: Option<Arc<ServerLink>>,
}

pub(super) struct Inner {
    pub(super) publisher: Arc<dyn ToolPublisher>,
    options: StartOptions,
    servers: Mutex<BTreeMap<String, Slot>>,
    /// Servers still starting; the first turn waits for zero (bounded).
    starting: watch::Sender<usize>,
    notices: Mutex<Vec<Notice>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    /// Who answers servers' elicitation requests.
    elicitor: ElicitorSlot,
    /// Moves whenever a server's resource listing changes (the system prompt's index is rebuilt then only).
    pub(super) resources_generation: AtomicU64,
}

impl Inner {
    pub(super) fn servers(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Slot>> {
        self.servers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn notice(&self, notice: Notice) {
        tracing::info!("{notice}");
        self.notices
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(notice);
    }

    fn track(&self, task: JoinHandle<()>) {
        self.tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(task);
    }

    fn set_state(&self, name: &str, state: ServerState) {
        if let Some(slot) = self.servers().get_mut(name) {
            slot.state = state;
        }
    }

    /// Marks `name` failed, drops its tools, and says why (with its last stderr lines).
    pub(super) fn fail(&self, name: &str, reason: &str) {
        let tail = self
            .servers()
            .get(name)
            .map(|slot| slot.stderr.tail(FAILURE_TAIL_LINES))
            .unwrap_or_default();
        let message = if tail.is_empty() {
            reason.to_string()
        } else {
            format!("{reason}\nlast stderr lines:\n{tail}")
        };
        self.publisher.withdraw(name);
        self.resources_generation.fetch_add(1, Ordering::SeqCst);
        if let Some(slot) = self.servers().get_mut(name) {
            slot.state = ServerState::Failed(message.clone());
            slot.tools = 0;
            slot.link = None;
        }
        self.notice(Notice::McpServerFailed {
            server: name.to_string(),
            error: message,
        });
    }
}

/// Where servers' tools go. The tools layer implements it (`tools::mcp::RegistryPublisher`) and turns each
/// listing into callable tools, so this module never depends on the tool registry.
pub trait ToolPublisher: Send + Sync {
    /// Replaces the tools of `link`'s server with `remote`'s; returns how many tools the server now offers.
    fn publish(&self, link: &Arc<ServerLink>, remote: &[RemoteTool]) -> usize;
    /// Withdraws every tool of `server`.
    fn withdraw(&self, server: &str);
}

/// Every MCP server of the session. Cheap to clone.
#[derive(Clone)]
pub struct McpManager {
    inner: Arc<Inner>,
}

impl McpManager {
    /// Starts every enabled, approved server in the background and returns at once. Must run inside a Tokio
    /// runtime. Tools are published through `publisher` as servers become ready.
    pub fn start(
        config: McpConfig,
        publisher: Arc<dyn ToolPublisher>,
        options: StartOptions,
    ) -> McpManager {
        let (starting, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            publisher,
            options,
            servers: Mutex::new(BTreeMap::new()),
            starting,
            notices: Mutex::new(Vec::new()),
            tasks: Mutex::new(Vec::new()),
            elicitor: ElicitorSlot::default(),
            resources_generation: AtomicU64::new(0),
        });
        for error in config.file_errors {
            inner.notice(Notice::McpConfigSkipped {
                error: error.to_string(),
            });
        }
        let manager = McpManager { inner };
        manager.add(config.servers);
        manager
    }

    /// Adds `servers` and starts the enabled, approved ones in the background (a server named like one
    /// already there is skipped). Returns the names added.
    pub fn add(&self, servers: Vec<ServerConfig>) -> Vec<String> {
        let mut trust = TrustStore::load(&self.inner.options.home);
        let mut added = Vec::new();
        let mut to_start = Vec::new();
        for server in servers {
            if self.inner.servers().contains_key(&server.name) {
                continue;
            }
            let state = initial_state(&server, &mut trust, &self.inner);
            if state == ServerState::Starting {
                to_start.push(server.name.clone());
            }
            added.push(server.name.clone());
            self.inner.servers().insert(
                server.name.clone(),
                Slot {
                    origin: server.origin,
                    launch: server.launch.ok(),
                    state,
                    tools: 0,
                    tool_loads: 0,
                    stderr: Arc::new(StderrRing::new()),
                    link: None,
                },
            );
        }
        for name in to_start {
            self.spawn_start(name);
        }
        added
    }

    fn spawn_start(&self, name: String) {
        self.inner.starting.send_modify(|n| *n += 1);
        let inner = Arc::clone(&self.inner);
        let task = tokio::spawn(async move {
            start_server(&inner, &name).await;
            inner.starting.send_modify(|n| *n = n.saturating_sub(1));
        });
        self.inner.track(task);
    }

    /// Adds a server that starts only when [`McpManager::ensure_ready`] asks for it, unless a server of that name
    /// is configured already (the user's entry wins). True when it was added.
    pub fn add_on_demand(&self, name: &str, launch: Launch) -> bool {
        let mut servers = self.inner.servers();
        if servers.contains_key(name) {
            return false;
        }
        servers.insert(
            name.to_string(),
            Slot {
                origin: Origin::User,
                launch: Some(launch),
                state: ServerState::OnDemand,
                tools: 0,
                tool_loads: 0,
                stderr: Arc::new(StderrRing::new()),
                link: None,
            },
        );
        true
    }

    /// Starts `name` if it waits to be started on demand, then waits (at most `limit`) until it is ready.
    pub async fn ensure_ready(
        &self,
        name: &str,
        limit: Duration,
    ) -> Result<Arc<ServerLink>, String> {
        let mut rx = self.inner.starting.subscribe();
        let start = {
            let mut servers = self.inner.servers();
            let slot = servers
                .get_mut(name)
                .ok_or_else(|| format!("no MCP server named `{name}`"))?;
            let idle = slot.state == ServerState::OnDemand;
            if idle {
                slot.state = ServerState::Starting;
            }
            idle
        };
        if start {
            self.spawn_start(name.to_string());
        }
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let state = self.slot_state(name)?.0;
            match state {
                ServerState::Ready => {
                    return self
                        .link(name)
                        .ok_or_else(|| format!("MCP server `{name}` stopped"));
                }
                ServerState::Starting => {
                    match tokio::time::timeout_at(deadline, rx.changed()).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) | Err(_) => {
                            return Err(format!(
                                "MCP server `{name}` did not start within {} s",
                                limit.as_secs()
                            ));
                        }
                    }
                }
                ServerState::Failed(reason) => return Err(reason),
                other => {
                    return Err(format!(
                        "MCP server `{name}` is not available ({}; see /mcp)",
                        other.label()
                    ));
                }
            }
        }
    }

    /// Stops `name`, gives it `launch`, and leaves it to start on demand again; its tools are withdrawn in one
    /// step, and the next [`McpManager::ensure_ready`] publishes the new server's tools in one step.
    pub async fn relaunch_on_demand(&self, name: &str, launch: Launch) -> Result<(), String> {
        self.slot_state(name)?;
        self.stop_server(name).await;
        if let Some(slot) = self.inner.servers().get_mut(name) {
            slot.launch = Some(launch);
            slot.state = ServerState::OnDemand;
        }
        Ok(())
    }

    /// Waits until no server is starting, or `limit` passed. True when all finished starting.
    pub async fn wait_for_startup(&self, limit: Duration) -> bool {
        let mut rx = self.inner.starting.subscribe();
        tokio::time::timeout(limit, rx.wait_for(|n| *n == 0))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Approves a project server for this project and command line, remembers it, and starts it.
    pub fn approve(&self, name: &str) -> Result<(), String> {
        let command_line = match self.inner.servers().get(name).map(|s| s.state.clone()) {
            Some(ServerState::NeedsApproval { command_line }) => command_line,
            Some(_) => return Err(format!("MCP server `{name}` does not need approval")),
            None => return Err(format!("no MCP server named `{name}`")),
        };
        let mut trust = TrustStore::load(&self.inner.options.home);
        trust
            .approve(&self.inner.options.project_root, &command_line)
            .map_err(|e| format!("cannot save the approval: {e}"))?;
        self.inner.set_state(name, ServerState::Starting);
        self.spawn_start(name.to_string());
        Ok(())
    }

    /// Every server, sorted by name.
    pub fn status(&self) -> Vec<ServerStatus> {
        self.inner
            .servers()
            .iter()
            .map(|(name, slot)| ServerStatus {
                name: name.clone(),
                origin: slot.origin,
                state: slot.state.clone(),
                tools: slot.tools,
                resources: slot
                    .link
                    .as_ref()
                    .is_some_and(|l| l.session.supports_resources()),
                tool_loads: slot.tool_loads,
                protocol_version: slot.link.as_ref().and_then(|l| l.protocol_version()),
            })
            .collect()
    }

    /// The kept stderr lines of `name` (oldest first), or `None` for an unknown server.
    pub fn logs(&self, name: &str) -> Option<Vec<String>> {
        self.inner
            .servers()
            .get(name)
            .map(|slot| slot.stderr.lines())
    }

    /// Notices for the user since the last call (skipped servers, failures, config problems).
    pub fn take_notices(&self) -> Vec<Notice> {
        std::mem::take(
            &mut *self
                .inner
                .notices
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Stops `name` if it runs and starts it again from its configuration (tools are withdrawn meanwhile).
    pub async fn restart(&self, name: &str) -> Result<(), String> {
        let (state, launchable) = self.slot_state(name)?;
        match state {
            ServerState::NeedsApproval { .. } => {
                return Err(format!(
                    "MCP server `{name}` is not approved yet: /mcp approve {name}"
                ));
            }
            ServerState::Disabled => {
                return Err(format!(
                    "MCP server `{name}` is disabled: /mcp enable {name}"
                ));
            }
            _ if !launchable => {
                return Err(format!(
                    "MCP server `{name}` has no usable configuration (see /mcp)"
                ));
            }
            _ => {}
        }
        self.stop_server(name).await;
        self.inner.set_state(name, ServerState::Starting);
        self.spawn_start(name.to_string());
        Ok(())
    }

    /// Stops `name` and withdraws its tools for the rest of this session (the config files are not changed).
    pub async fn disable(&self, name: &str) -> Result<(), String> {
        let (state, _) = self.slot_state(name)?;
        if state == ServerState::Disabled {
            return Err(format!("MCP server `{name}` is already disabled"));
        }
        self.stop_server(name).await;
        self.inner.set_state(name, ServerState::Disabled);
        Ok(())
    }

    /// Starts a disabled server for this session; a project server still needs its approval.
    pub fn enable(&self, name: &str) -> Result<(), String> {
        let (state, _) = self.slot_state(name)?;
        if state != ServerState::Disabled {
            return Err(format!("MCP server `{name}` is not disabled"));
        }
        let (origin, launch) = {
            let servers = self.inner.servers();
            let slot = servers
                .get(name)
                .ok_or_else(|| format!("no MCP server named `{name}`"))?;
            (slot.origin, slot.launch.clone())
        };
        let launch =
            launch.ok_or_else(|| format!("MCP server `{name}` has no usable configuration"))?;
        if origin == Origin::Project {
            let command_line = launch.command_line();
            let trust = TrustStore::load(&self.inner.options.home);
            if !trust.is_approved(&self.inner.options.project_root, &command_line) {
                self.inner
                    .set_state(name, ServerState::NeedsApproval { command_line });
                return Err(format!(
                    "MCP server `{name}` comes from the project and is not approved yet: /mcp approve {name}"
                ));
            }
        }
        self.inner.set_state(name, ServerState::Starting);
        self.spawn_start(name.to_string());
        Ok(())
    }

    /// The resources of a ready server (none when it does not declare the capability).
    pub async fn resources(&self, name: &str) -> Result<Vec<RemoteResource>, String> {
        let link = self
            .link(name)
            .ok_or_else(|| format!("MCP server `{name}` is not ready"))?;
        if !link.session.supports_resources() {
            return Ok(Vec::new());
        }
        link.list_resources(&CancellationToken::new())
            .await
            .map_err(|e| e.to_string())
    }

    /// The prompt templates of a ready server.
    pub async fn prompts(&self, name: &str) -> Result<Vec<RemotePrompt>, String> {
        let link = self
            .link(name)
            .ok_or_else(|| format!("MCP server `{name}` is not ready"))?;
        if !link.session.supports_prompts() {
            return Ok(Vec::new());
        }
        tokio::time::timeout(LIST_TIMEOUT, link.session.list_prompts())
            .await
            .map_err(|_| format!("prompts/list timed out after {} s", LIST_TIMEOUT.as_secs()))?
            .map_err(|e| e.to_string())
    }

    /// Makes `elicitor` answer every server's elicitation requests from now on (the default accepts with the
    /// schema's defaults when they cover every required field, else declines).
    pub fn set_elicitor(&self, elicitor: Arc<dyn Elicitor>) {
        self.inner.elicitor.set(elicitor);
    }

    /// A number that moves whenever some server's resource listing changed.
    pub fn resources_generation(&self) -> u64 {
        self.inner.resources_generation.load(Ordering::SeqCst)
    }

    /// The cached resource listings of ready servers, by server name (servers without resources left out).
    pub fn cached_resources(&self) -> Vec<(String, Vec<RemoteResource>)> {
        self.inner
            .servers()
            .iter()
            .filter_map(|(name, slot)| {
                let list = slot.link.as_ref()?.cached_resources()?;
                (!list.is_empty()).then(|| (name.clone(), list))
            })
            .collect()
    }

    fn slot_state(&self, name: &str) -> Result<(ServerState, bool), String> {
        self.inner
            .servers()
            .get(name)
            .map(|slot| (slot.state.clone(), slot.launch.is_some()))
            .ok_or_else(|| format!("no MCP server named `{name}`"))
    }

    /// Closes the server's session (if any) and withdraws its tools.
    async fn stop_server(&self, name: &str) {
        let link = self.inner.servers().get_mut(name).and_then(|slot| {
            slot.tools = 0;
            slot.link.take()
        });
        self.inner.publisher.withdraw(name);
        self.inner
            .resources_generation
            .fetch_add(1, Ordering::SeqCst);
        if let Some(link) = link {
            link.session.close().await;
        }
    }

    /// The link to a ready server.
    pub fn link(&self, name: &str) -> Option<Arc<ServerLink>> {
        self.inner
            .servers()
            .get(name)
            .and_then(|slot| slot.link.clone())
    }

    /// True when a server of that name is configured (in any state).
    pub fn has_server(&self, name: &str) -> bool {
        self.inner.servers().contains_key(name)
    }

    /// Closes every session (stdio children get stdin closed, then a terminate, then a kill) and drops the tools.
    pub async fn shutdown(&self) {
        let tasks = std::mem::take(
            &mut *self
                .inner
                .tasks
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for task in tasks {
            task.abort();
        }
        let links: Vec<(String, Arc<ServerLink>)> = self
            .inner
            .servers()
            .iter_mut()
            .filter_map(|(name, slot)| slot.link.take().map(|l| (name.clone(), l)))
            .collect();
        let closes = links.iter().map(|(name, link)| {
            self.inner.publisher.withdraw(name);
            link.session.close()
        });
        futures_util::future::join_all(closes).await;
    }
}

fn initial_state(server: &ServerConfig, trust: &mut TrustStore, inner: &Inner) -> ServerState {
    if server.disabled {
        return ServerState::Disabled;
    }
    let launch = match &server.launch {
        Ok(launch) => launch,
        Err(reason) => {
            inner.notice(Notice::McpNotStarted {
                server: server.name.clone(),
                reason: reason.to_string(),
            });
            return ServerState::Failed(reason.clone());
        }
    };
    if server.origin == Origin::Project {
        let root = &inner.options.project_root;
        let command_line = launch.command_line();
        if !trust.is_approved(root, &command_line) {
            if !inner.options.trust_project {
                inner.notice(Notice::McpNeedsApproval {
                    server: server.name.clone(),
                    source: server.source.display().to_string(),
                    command: command_line.clone(),
                });
                return ServerState::NeedsApproval { command_line };
            }
            if let Err(e) = trust.approve(root, &command_line) {
                inner.notice(Notice::McpApprovalNotSaved {
                    server: server.name.clone(),
                    error: e.to_string(),
                });
            }
        }
    }
    ServerState::Starting
}

async fn start_server(inner: &Arc<Inner>, name: &str) {
    let Some((launch, stderr)) = inner
        .servers()
        .get(name)
        .and_then(|slot| Some((slot.launch.clone()?, Arc::clone(&slot.stderr))))
    else {
        return;
    };
    let (events_tx, mut events_rx) = mpsc::unbounded_channel();
    let session = match rmcp_session::connect(
        name,
        &launch,
        Arc::clone(&stderr),
        events_tx,
        inner.elicitor.clone(),
        rmcp_session::Authorization {
            tokens: &TokenStore::new(&inner.options.home, name),
            browser: inner.options.browser.as_deref(),
        },
        inner.options.init_timeout,
    )
    .await
    {
        Ok(session) => session,
        Err(McpError::NeedsLogin) => {
            inner.set_state(name, ServerState::NeedsLogin);
            inner.notice(Notice::McpNeedsLogin {
                server: name.to_string(),
            });
            return;
        }
        Err(e) => {
            inner.fail(name, &e.to_string());
            return;
        }
    };
    let link = Arc::new(ServerLink::new(
        name,
        Arc::clone(&session),
        stderr,
        inner.options.call_timeout,
        Arc::downgrade(inner),
    ));
    if let Some(slot) = inner.servers().get_mut(name) {
        slot.link = Some(Arc::clone(&link));
    }
    if let Err(e) = load_tools(inner, &link).await {
        inner.fail(name, &format!("tools/list failed: {e}"));
        session.close().await;
        return;
    }
    if link.supports_resources() {
        load_resources(inner, &link).await;
    }
    inner.set_state(name, ServerState::Ready);
    let weak = Arc::downgrade(inner);
    let listener = tokio::spawn(async move {
        while let Some(event) = events_rx.recv().await {
            let Some(inner) = weak.upgrade() else { return };
            handle_event(&inner, &link, event, &mut events_rx).await;
        }
    });
    inner.track(listener);
}
