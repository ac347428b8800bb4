//! `paicli serve`: the runtime API. Other programs drive the agent over HTTP on 127.0.0.1: threads (each one a
//! session in the ledger), turns, the agent's events as SSE (resumable with `Last-Event-ID`), cancel, and
//! approvals answered by POST. Every request carries `Authorization: Bearer $PAICLI_RUNTIME_API_KEY`.

mod api_error;
mod approver;
mod auth;
mod event_log;
mod routes;
mod thread;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::config::Overrides;
use crate::text::{Lang, Msg, labelled, tr, trf};
pub use auth::ApiKey;
use routes::{ServerState, router};

/// The variable holding the key every request must present.
pub const API_KEY_VAR: &str = "PAICLI_RUNTIME_API_KEY";

/// Where and how `paicli serve` listens.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub bind: IpAddr,
    pub port: u16,
    /// Allows a bind address other than loopback (the API can run commands: only for a trusted network).
    pub unsafe_bind: bool,
    /// The server's flags; each thread's config is loaded with them.
    pub overrides: Overrides,
    /// The project of threads that name none (`-C`, else the current directory).
    pub default_project: PathBuf,
}

impl ServeOptions {
    /// The default bind address: loopback only.
    pub const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
}

/// Why the server did not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("PAICLI_RUNTIME_API_KEY is not set; the runtime API needs a key")]
    NoApiKey,
    #[error("refusing to listen on {0}: only loopback unless --unsafe-bind is given")]
    NotLoopback(IpAddr),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

impl ServeError {
    /// The line to print, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let text = match self {
            ServeError::NoApiKey => tr(lang, Msg::ServeNoApiKey).to_string(),
            ServeError::NotLoopback(addr) => trf(lang, Msg::ServeNotLoopback, &[("addr", addr)]),
            ServeError::Bind { addr, source } => trf(
                lang,
                Msg::ServeCannotBind,
                &[("addr", addr), ("error", source)],
            ),
            ServeError::Serve(e) => trf(lang, Msg::ServeStopped, &[("error", e)]),
        };
        labelled(lang, Msg::ErrorPrefix, &text)
    }
}

/// The line `paicli serve` prints once it listens.
pub fn listening_text(lang: Lang, addr: SocketAddr) -> String {
    trf(
        lang,
        Msg::ServeListening,
        &[("url", &format!("http://{addr}"))],
    )
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    state: Arc<ServerState>,
}

impl Server {
    /// Checks the key and the bind address, then binds. `key` is the value of [`API_KEY_VAR`], read from the
    /// process environment only: a project's `.env` must not be able to choose the key.
    pub async fn bind(options: ServeOptions, key: Option<&str>) -> Result<Server, ServeError> {
        let key = key.and_then(ApiKey::new).ok_or(ServeError::NoApiKey)?;
        if !options.bind.is_loopback() && !options.unsafe_bind {
            return Err(ServeError::NotLoopback(options.bind));
        }
        let addr = SocketAddr::new(options.bind, options.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let state = Arc::new(ServerState {
            key,
            overrides: options.overrides,
            default_project: options.default_project,
            threads: Mutex::new(HashMap::new()),
            shutdown: CancellationToken::new(),
        });
        Ok(Server { listener, state })
    }

    /// The address it listens on (the port chosen for `--port 0`).
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        self.listener.local_addr().map_err(ServeError::Serve)
    }

    /// Serves until `stop` is cancelled, then cancels running turns and stops every thread's servers.
    pub async fn run(self, stop: CancellationToken) -> Result<(), ServeError> {
        let state = Arc::clone(&self.state);
        let shutdown = state.shutdown.clone();
        let served = axum::serve(self.listener, router(Arc::clone(&state)))
            .with_graceful_shutdown(async move {
                stop.cancelled().await;
                // Event streams never end by themselves; end them so the graceful shutdown can finish.
                shutdown.cancel();
            })
            .await;
        for thread in state.all_threads() {
            thread.shutdown().await;
        }
        served.map_err(ServeError::Serve)
    }
}
