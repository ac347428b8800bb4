//! One running language server: a child process in its own process group, spoken to over stdio with
//! Content-Length framing. A writer task owns stdin, a reader task routes responses to their callers, answers the
//! server's requests and stores `publishDiagnostics`; stderr goes to the log.

mod inbox;
mod wait;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::uri::file_uri;
pub use wait::SyncTicket;

/// How a server is started and which files it checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSpec {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// Lower-case extensions without the dot.
    pub extensions: Vec<String>,
}

/// Why talking to a server failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ServerError {
    #[error("`{command}` is not installed (not found on PATH)")]
    NotInstalled { command: String },
    #[error("cannot start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the server exited")]
    Exited,
    #[error("no answer to {method} in time")]
    Timeout { method: String },
    #[error("{method} failed: {message}")]
    Rpc { method: String, message: String },
}

type Pending = HashMap<i64, oneshot::Sender<Result<Value, String>>>;

/// Diagnostics a server pushed for one file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Published {
    /// Position in the server's stream of publishes, to tell "after my change" from "before".
    seq: u64,
    version: Option<i32>,
    diagnostics: Vec<lsp_types::Diagnostic>,
}

/// What the reader task and the server handle share.
pub(crate) struct Shared {
    name: String,
    root: PathBuf,
    pending: Mutex<Pending>,
    published: Mutex<HashMap<PathBuf, Published>>,
    /// Bumped on every publish and when the server exits, so waiters wake without polling.
    publishes: watch::Sender<u64>,
    alive: AtomicBool,
    outbox: mpsc::UnboundedSender<Value>,
}

/// An open document: what the server was last told.
struct OpenDoc {
    version: i32,
    text: String,
}

/// A started and initialized language server.
pub struct LspServer {
    shared: Arc<Shared>,
    child: tokio::sync::Mutex<Child>,
    pgid: Option<Pid>,
    tasks: Vec<JoinHandle<()>>,
    next_id: AtomicI64,
    /// The server answers `textDocument/diagnostic` (LSP 3.17 pull).
    pull: bool,
    docs: tokio::sync::Mutex<HashMap<PathBuf, OpenDoc>>,
}

impl LspServer {
    /// Spawns `spec` in `root` and runs the `initialize` handshake (without a time limit: callers bound it).
    pub async fn start(spec: &ServerSpec, root: &Path) -> Result<LspServer, ServerError> {
        let mut child = Command::new(&spec.command)
            .args(&spec.args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => ServerError::NotInstalled {
                    command: spec.command.clone(),
                },
                _ => ServerError::Spawn {
                    command: spec.command.clone(),
                    reason: e.to_string(),
                },
            })?;
        let pgid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        let spawn_err = |what: &str| ServerError::Spawn {
            command: spec.command.clone(),
            reason: format!("no {what} pipe"),
        };
        let stdin = child.stdin.take().ok_or_else(|| spawn_err("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| spawn_err("stdout"))?;
        let stderr = child.stderr.take().ok_or_else(|| spawn_err("stderr"))?;

        let (outbox, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            name: spec.name.clone(),
            root: root.to_path_buf(),
            pending: Mutex::default(),
            published: Mutex::default(),
            publishes: watch::channel(0).0,
            alive: AtomicBool::new(true),
            outbox,
        });
        let tasks = vec![
            tokio::spawn(inbox::write_loop(stdin, rx, spec.name.clone())),
            tokio::spawn(inbox::read_loop(
                BufReader::new(stdout),
                Arc::clone(&shared),
            )),
            tokio::spawn(log_stderr(BufReader::new(stderr), spec.name.clone())),
        ];
        let mut server = LspServer {
            shared,
            child: tokio::sync::Mutex::new(child),
            pgid,
            tasks,
            next_id: AtomicI64::new(1),
            pull: false,
            docs: tokio::sync::Mutex::default(),
        };
        let result = server
            .request("initialize", initialize_params(root), None)
            .await?;
        server.pull = result
            .pointer("/capabilities/diagnosticProvider")
            .is_some_and(|v| !v.is_null() && *v != Value::Bool(false));
        server.notify("initialized", json!({}));
        tracing::info!(
            server = spec.name,
            pull = server.pull,
            "language server initialized"
        );
        Ok(server)
    }

    /// The server's name from its spec.
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// False once the server's output has ended (it exited or crashed).
    pub fn is_alive(&self) -> bool {
        self.shared.alive.load(Ordering::SeqCst)
    }

    /// Sends a request and waits for its result, until `deadline` if one is given.
    async fn request(
        &self,
        method: &str,
        params: Value,
        deadline: Option<Instant>,
    ) -> Result<Value, ServerError> {
        if !self.is_alive() {
            return Err(ServerError::Exited);
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = oneshot::channel();
        lock(&self.shared.pending).insert(id, tx);
        let sent = self.shared.outbox.send(message(Some(id), method, params));
        if sent.is_err() {
            lock(&self.shared.pending).remove(&id);
            return Err(ServerError::Exited);
        }
        let answer = match deadline {
            Some(d) => match tokio::time::timeout_at(d, rx).await {
                Ok(a) => a,
                Err(_) => {
                    lock(&self.shared.pending).remove(&id);
                    // Tell the server to stop working on it; servers may ignore this.
                    self.notify("$/cancelRequest", json!({ "id": id }));
                    return Err(ServerError::Timeout {
                        method: method.to_string(),
                    });
                }
            },
            None => rx.await,
        };
        match answer {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(message)) => Err(ServerError::Rpc {
                method: method.to_string(),
                message,
            }),
            Err(_) => Err(ServerError::Exited),
        }
    }

    /// Sends a notification (fire and forget).
    fn notify(&self, method: &str, params: Value) {
        let _ = self.shared.outbox.send(message(None, method, params));
    }

    /// Tells the server the current text of `path` (absolute): `didOpen` the first time, `didChange` with the full
    /// text after that. The ticket says which diagnostics answer this version.
    pub async fn sync(&self, path: &Path, language_id: &str, text: String) -> SyncTicket {
        let mut docs = self.docs.lock().await;
        let after_seq = *self.shared.publishes.borrow();
        let uri = file_uri(path);
        let version = match docs.get_mut(path) {
            Some(doc) if doc.text == text => {
                return SyncTicket {
                    version: doc.version,
                    after_seq,
                    unchanged: true,
                };
            }
            Some(doc) => {
                doc.version += 1;
                self.notify(
                    "textDocument/didChange",
                    json!({
                        "textDocument": { "uri": uri, "version": doc.version },
                        "contentChanges": [{ "text": text }],
                    }),
                );
                doc.text = text;
                doc.version
            }
            None => {
                self.notify(
                    "textDocument/didOpen",
                    json!({
                        "textDocument": {
                            "uri": uri, "languageId": language_id, "version": 1, "text": text,
                        }
                    }),
                );
                docs.insert(path.to_path_buf(), OpenDoc { version: 1, text });
                1
            }
        };
        // Some servers (clangd for headers, pyright for config) re-check on save too.
        self.notify(
            "textDocument/didSave",
            json!({ "textDocument": { "uri": file_uri(path) } }),
        );
        SyncTicket {
            version,
            after_seq,
            unchanged: false,
        }
    }

    /// Asks the server to stop (`shutdown`, then `exit`) and waits briefly for it; kills the group after that.
    pub async fn shutdown(&self) {
        if self.is_alive() {
            let deadline = Instant::now() + Duration::from_millis(1500);
            let _ = self.request("shutdown", Value::Null, Some(deadline)).await;
            self.notify("exit", Value::Null);
            let mut child = self.child.lock().await;
            let _ = tokio::time::timeout_at(deadline, child.wait()).await;
        }
        self.kill();
    }

    fn kill(&self) {
        if let Some(pgid) = self.pgid {
            // ESRCH (the group is already gone) is fine.
            let _ = killpg(pgid, Signal::SIGKILL);
        }
    }
}

impl Drop for LspServer {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        self.kill();
    }
}

/// Locks a std mutex, ignoring poisoning: the data (maps of pending calls and diagnostics) stays consistent.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A request (with `id`) or notification; null params are left out, as `shutdown` and `exit` expect.
fn message(id: Option<i64>, method: &str, params: Value) -> Value {
    let mut m = json!({ "jsonrpc": "2.0", "method": method });
    if let Some(id) = id {
        m["id"] = json!(id);
    }
    if !params.is_null() {
        m["params"] = params;
    }
    m
}

/// What paicli tells a server about itself: a plain client that wants diagnostics, pushed or pulled.
fn initialize_params(root: &Path) -> Value {
    let uri = file_uri(root);
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "project".into());
    json!({
        "processId": std::process::id(),
        "clientInfo": { "name": "paicli", "version": env!("CARGO_PKG_VERSION") },
        "rootPath": root.display().to_string(),
        "rootUri": uri,
        "workspaceFolders": [{ "uri": uri, "name": name }],
        "capabilities": {
            "workspace": { "configuration": true, "workspaceFolders": true },
            "window": { "workDoneProgress": true },
            "textDocument": {
                "synchronization": { "didSave": true, "dynamicRegistration": false },
                "publishDiagnostics": { "versionSupport": true, "relatedInformation": false },
                "diagnostic": { "dynamicRegistration": false, "relatedDocumentSupport": false },
            },
            "general": { "positionEncodings": ["utf-16"] },
        },
    })
}

/// Server stderr goes to the log, one line per event.
async fn log_stderr(mut stderr: BufReader<tokio::process::ChildStderr>, name: String) {
    let mut line = String::new();
    loop {
        line.clear();
        match stderr.read_line(&mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => tracing::debug!(server = name, "stderr: {}", line.trim_end()),
        }
    }
}
