//! The diagnostics source the agent loop calls after edits: language servers started on demand and kept
//! running, with the tree-sitter syntax check for every file no server answered for in time.

mod slot;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::join_all;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::builtin_servers::BUILTIN_SERVERS;
use super::diagnostic::{Diagnostic, new_problems};
use super::server::{LspServer, ServerSpec};
use super::status::{LspStatus, ServerState, ServerStatus};
use super::syntax::check_syntax;
use super::{DiagnosticsReport, DiagnosticsSource};
use crate::config::{LspServerSection, LspSettings};
use crate::languages::Language;
use slot::Slot;

/// After a publish, how long to wait for another before taking it as the answer (see `server::wait`).
const SETTLE: Duration = Duration::from_millis(400);

/// Language servers for one project, and the memory of what each file's last check found.
pub struct LspManager {
    root: PathBuf,
    wait: Duration,
    max_diagnostics: usize,
    /// Configured servers first, then the built-ins they do not replace: the first match wins.
    specs: Vec<ServerSpec>,
    slots: Mutex<HashMap<String, Slot>>,
    /// Start-ups per server name, for `/lsp`.
    starts: Mutex<HashMap<String, u32>>,
    /// Each checked file's problems as of its last check: the baseline for "new".
    previous: Mutex<HashMap<PathBuf, Vec<Diagnostic>>>,
}

/// A file to check: where it is and what it holds now.
struct Checked {
    rel: PathBuf,
    abs: PathBuf,
    text: String,
}

impl LspManager {
    /// A manager for the project at `root` (canonical); no server starts until a file needs it.
    pub fn new(root: &Path, settings: &LspSettings) -> LspManager {
        LspManager {
            root: root.to_path_buf(),
            wait: settings.wait,
            max_diagnostics: settings.max_diagnostics,
            specs: server_specs(&settings.servers),
            slots: Mutex::default(),
            starts: Mutex::default(),
            previous: Mutex::default(),
        }
    }

    /// The servers (running, starting, failed, not installed) and what the last checks found, for `/lsp`.
    pub fn status(&self) -> LspStatus {
        let slots = lock(&self.slots);
        let starts = lock(&self.starts);
        let servers = self
            .specs
            .iter()
            .map(|spec| ServerStatus {
                name: spec.name.clone(),
                command: spec.command.clone(),
                state: match slots.get(&spec.name) {
                    Some(slot) => slot.state(),
                    None if slot::on_path(&spec.command) => ServerState::NotStarted,
                    None => ServerState::NotInstalled,
                },
                starts: starts.get(&spec.name).copied().unwrap_or(0),
            })
            .collect();
        let mut diagnostics: Vec<Diagnostic> =
            lock(&self.previous).values().flatten().cloned().collect();
        diagnostics.sort_by(|a, b| {
            (a.severity, &a.path, a.line, a.column).cmp(&(b.severity, &b.path, b.line, b.column))
        });
        LspStatus {
            servers,
            diagnostics,
        }
    }

    /// Stops every server cleanly (`shutdown`, `exit`, then kill). Called when paicli exits.
    pub async fn close(&self) {
        let slots: Vec<Slot> = lock(&self.slots).drain().map(|(_, s)| s).collect();
        join_all(slots.into_iter().map(Slot::close)).await;
    }

    /// The spec whose extensions include `rel`'s.
    fn spec_for(&self, rel: &Path) -> Option<&ServerSpec> {
        let ext = rel.extension()?.to_str()?.to_ascii_lowercase();
        self.specs.iter().find(|s| s.extensions.contains(&ext))
    }

    /// The running server for `spec`, starting it if needed; `None` when it is not ready by `deadline`. A dead
    /// server, or a start-up that failed since the last batch, is replaced by a new start.
    async fn server(&self, spec: &ServerSpec, deadline: Instant) -> Option<Arc<LspServer>> {
        loop {
            let (ready, fresh) = {
                let mut slots = lock(&self.slots);
                match slots.get(&spec.name) {
                    Some(Slot::Running(server)) if server.is_alive() => {
                        return Some(Arc::clone(server));
                    }
                    Some(Slot::Starting(start)) if !start.failed() => (start.ready(), false),
                    previous => {
                        if let Some(Slot::Running(_)) = previous {
                            tracing::warn!(
                                server = spec.name,
                                "language server died; restarting it"
                            );
                        }
                        *lock(&self.starts).entry(spec.name.clone()).or_default() += 1;
                        let start = slot::Start::spawn(spec.clone(), self.root.clone());
                        let ready = start.ready();
                        slots.insert(spec.name.clone(), Slot::Starting(start));
                        (ready, true)
                    }
                }
            };
            let outcome = tokio::time::timeout_at(deadline, ready).await.ok()?;
            let mut slots = lock(&self.slots);
            match outcome {
                Ok(server) => {
                    slots.insert(spec.name.clone(), Slot::Running(Arc::clone(&server)));
                    return Some(server);
                }
                Err(e) => {
                    tracing::warn!(server = spec.name, "language server unavailable: {e}");
                    slots.insert(spec.name.clone(), Slot::Failed(e));
                    if fresh {
                        return None;
                    }
                }
            }
        }
    }

    /// One server's diagnostics for `files`; files it did not answer for in time are left out.
    async fn server_diagnostics(
        &self,
        spec: &ServerSpec,
        files: &[&Checked],
        deadline: Instant,
    ) -> HashMap<PathBuf, Vec<Diagnostic>> {
        let Some(server) = self.server(spec, deadline).await else {
            return HashMap::new();
        };
        let mut tickets = Vec::with_capacity(files.len());
        for f in files {
            let language = Language::of(&f.rel).map_or("plaintext", |l| l.lsp_id(&f.rel));
            tickets.push(server.sync(&f.abs, language, f.text.clone()).await);
        }
        let answers = join_all(
            files
                .iter()
                .zip(tickets)
                .map(|(f, ticket)| server.diagnostics(&f.abs, ticket, deadline, SETTLE)),
        )
        .await;
        files
            .iter()
            .zip(answers)
            .filter_map(|(f, answer)| {
                let found = answer?
                    .iter()
                    .filter_map(|d| Diagnostic::from_lsp(f.rel.clone(), &spec.name, d))
                    .collect();
                Some((f.rel.clone(), found))
            })
            .collect()
    }

    /// Every file's current problems: the server's where it answered, else the syntax check's.
    async fn current_problems(
        &self,
        checked: &[Checked],
        deadline: Instant,
    ) -> Vec<(PathBuf, Vec<Diagnostic>)> {
        let mut groups: BTreeMap<&str, (&ServerSpec, Vec<&Checked>)> = BTreeMap::new();
        for f in checked {
            if let Some(spec) = self.spec_for(&f.rel) {
                groups
                    .entry(&spec.name)
                    .or_insert((spec, Vec::new()))
                    .1
                    .push(f);
            }
        }
        let from_servers: HashMap<PathBuf, Vec<Diagnostic>> = join_all(
            groups
                .values()
                .map(|(spec, files)| self.server_diagnostics(spec, files, deadline)),
        )
        .await
        .into_iter()
        .flatten()
        .collect();
        checked
            .iter()
            .map(|f| {
                let found = match from_servers.get(&f.rel) {
                    Some(found) => found.clone(),
                    None => check_syntax(&f.rel, &f.text),
                };
                (f.rel.clone(), found)
            })
            .collect()
    }

    /// Reads the files to check; a file that is gone or not text is forgotten.
    async fn read_files(&self, files: &[PathBuf]) -> Vec<Checked> {
        let mut checked: Vec<Checked> = Vec::new();
        for rel in files {
            if checked.iter().any(|c| &c.rel == rel) {
                continue;
            }
            let abs = self.root.join(rel);
            match tokio::fs::read_to_string(&abs).await {
                Ok(text) => checked.push(Checked {
                    rel: rel.clone(),
                    abs,
                    text,
                }),
                Err(e) => {
                    tracing::debug!("not checking {}: {e}", rel.display());
                    lock(&self.previous).remove(rel);
                }
            }
        }
        checked
    }
}

#[async_trait]
impl DiagnosticsSource for LspManager {
    async fn check(
        &self,
        files: &[PathBuf],
        cancel: &CancellationToken,
    ) -> Option<DiagnosticsReport> {
        let deadline = Instant::now() + self.wait;
        let checked = self.read_files(files).await;
        if checked.is_empty() {
            return None;
        }
        let current = tokio::select! {
            current = self.current_problems(&checked, deadline) => current,
            () = cancel.cancelled() => return None,
        };
        let mut fresh = Vec::new();
        let mut previous = lock(&self.previous);
        for (rel, found) in current {
            let before = previous.get(&rel).map(Vec::as_slice).unwrap_or_default();
            fresh.extend(new_problems(before, &found));
            previous.insert(rel, found);
        }
        DiagnosticsReport::of(&fresh, self.max_diagnostics)
    }
}

impl Drop for LspManager {
    fn drop(&mut self) {
        let slots: Vec<Slot> = lock(&self.slots).drain().map(|(_, s)| s).collect();
        if slots.is_empty() {
            return;
        }
        // A clean shutdown needs the runtime; without one, dropping the servers kills their process groups.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(join_all(slots.into_iter().map(Slot::close)));
        }
    }
}

/// Configured servers (with the built-in extensions when they name a built-in and give none), then the built-ins
/// they do not replace.
fn server_specs(configured: &BTreeMap<String, LspServerSection>) -> Vec<ServerSpec> {
    let builtin = |name: &str| BUILTIN_SERVERS.iter().find(|b| b.name == name);
    let mut specs: Vec<ServerSpec> = configured
        .iter()
        .map(|(name, s)| {
            let mut extensions: Vec<String> = s
                .extensions
                .iter()
                .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
                .collect();
            if extensions.is_empty()
                && let Some(b) = builtin(name)
            {
                extensions = b.extensions();
            }
            ServerSpec {
                name: name.clone(),
                command: s.command.clone(),
                args: s.args.clone(),
                extensions,
            }
        })
        .collect();
    specs.extend(
        BUILTIN_SERVERS
            .iter()
            .filter(|b| !configured.contains_key(b.name))
            .map(|b| ServerSpec {
                name: b.name.to_string(),
                command: b.command.to_string(),
                args: b.args.iter().map(|a| a.to_string()).collect(),
                extensions: b.extensions(),
            }),
    );
    specs
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(command: &str, extensions: &[&str]) -> LspServerSection {
        LspServerSection {
            command: command.into(),
            args: Vec::new(),
            extensions: extensions.iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn configured_servers_replace_builtins_by_name_and_win_by_extension() {
        let configured = BTreeMap::from([
            ("pyright".to_string(), section("my-pyright", &[])),
            ("mine".to_string(), section("my-ls", &[".C", "txt"])),
        ]);
        let settings = LspSettings {
            enabled: true,
            wait: Duration::from_millis(10),
            max_diagnostics: 20,
            servers: configured,
        };
        let lsp = LspManager::new(Path::new("/project"), &settings);
        let name = |file: &str| lsp.spec_for(Path::new(file)).map(|s| s.name.as_str());
        assert_eq!(name("a.c"), Some("mine"));
        assert_eq!(name("notes.TXT"), Some("mine"));
        assert_eq!(name("a.cpp"), Some("clangd"));
        assert_eq!(name("a.rs"), Some("rust-analyzer"));
        assert_eq!(name("README"), None);
        let py = lsp
            .spec_for(Path::new("a.pyi"))
            .map(|s| (s.name.as_str(), s.command.as_str()));
        assert_eq!(py, Some(("pyright", "my-pyright")));
        assert_eq!(lsp.specs.iter().filter(|s| s.name == "pyright").count(), 1);
    }
}
