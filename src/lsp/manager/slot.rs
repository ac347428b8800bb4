//! One server's place in the manager: starting in the background, running, or failed (restarted on next use).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use tokio::task::AbortHandle;

use crate::lsp::server::{LspServer, ServerError, ServerSpec};
use crate::lsp::status::ServerState;

/// How long a server may take to answer `initialize` before it is killed. Longer than a batch's wait: a slow
/// starter (jdtls, a cold rust-analyzer) keeps starting in the background while the syntax check stands in, and
/// is used by a later batch once it is up.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);

type Ready = Shared<BoxFuture<'static, Result<Arc<LspServer>, ServerError>>>;

/// A server being started by a background task.
pub(super) struct Start {
    ready: Ready,
    abort: AbortHandle,
}

impl Start {
    /// Starts `spec` in `root` on a background task, bounded by [`STARTUP_LIMIT`].
    pub(super) fn spawn(spec: ServerSpec, root: PathBuf) -> Start {
        let task = tokio::spawn(async move {
            match tokio::time::timeout(STARTUP_LIMIT, LspServer::start(&spec, &root)).await {
                Ok(started) => started.map(Arc::new),
                Err(_) => Err(ServerError::Timeout {
                    method: "initialize".into(),
                }),
            }
        });
        let abort = task.abort_handle();
        let ready = async move {
            task.await.unwrap_or_else(|e| {
                Err(ServerError::Spawn {
                    command: String::new(),
                    reason: format!("start-up task ended: {e}"),
                })
            })
        }
        .boxed()
        .shared();
        Start { ready, abort }
    }

    /// True once the start-up has ended in failure (such a start is replaced, not waited for).
    pub(super) fn failed(&self) -> bool {
        self.ready.peek().is_some_and(Result::is_err)
    }

    /// Resolves when the server is up or has failed; any number of waiters may hold one.
    pub(super) fn ready(&self) -> Ready {
        self.ready.clone()
    }
}

/// Where one server stands.
pub(super) enum Slot {
    Starting(Start),
    Running(Arc<LspServer>),
    Failed(ServerError),
}

impl Slot {
    /// The state shown by `/lsp`.
    pub(super) fn state(&self) -> ServerState {
        match self {
            Slot::Starting(_) => ServerState::Starting,
            Slot::Running(server) if server.is_alive() => ServerState::Running,
            Slot::Running(_) => ServerState::Failed("the server exited".into()),
            Slot::Failed(ServerError::NotInstalled { .. }) => ServerState::NotInstalled,
            Slot::Failed(e) => ServerState::Failed(e.to_string()),
        }
    }

    /// Stops the server: a clean shutdown when running, the start-up task aborted (killing the child) otherwise.
    pub(super) async fn close(self) {
        match self {
            Slot::Starting(start) => start.abort.abort(),
            Slot::Running(server) => server.shutdown().await,
            Slot::Failed(_) => {}
        }
    }
}

/// True when `command` is a path to a file or names one in a `PATH` directory.
pub(super) fn on_path(command: &str) -> bool {
    if command.contains('/') {
        return Path::new(command).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(command).is_file()))
}
