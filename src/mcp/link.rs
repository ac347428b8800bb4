//! A ready server as its tools see it: calls with a deadline and cancellation, loss reporting, and the
//! resource cache (the listing and read contents), which `resources/list_changed` and `resources/updated`
//! invalidate.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::manager::{FAILURE_TAIL_LINES, Inner};
use super::session::{CallReply, McpError, McpSession, RemoteResource};
use super::stderr_ring::StderrRing;

/// What a server's resources looked like when last asked.
#[derive(Default)]
struct ResourceCache {
    list: Option<Vec<RemoteResource>>,
    contents: HashMap<String, Vec<Value>>,
}

/// A ready server: calls with limits and the resource cache.
pub struct ServerLink {
    pub name: String,
    pub(super) session: Arc<dyn McpSession>,
    stderr: Arc<StderrRing>,
    call_timeout: Duration,
    manager: Weak<Inner>,
    cache: Mutex<ResourceCache>,
}

impl ServerLink {
    pub(super) fn new(
        name: &str,
        session: Arc<dyn McpSession>,
        stderr: Arc<StderrRing>,
        call_timeout: Duration,
        manager: Weak<Inner>,
    ) -> Self {
        ServerLink {
            name: name.to_string(),
            session,
            stderr,
            call_timeout,
            manager,
            cache: Mutex::new(ResourceCache::default()),
        }
    }

    fn cache(&self) -> MutexGuard<'_, ResourceCache> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// True when the server offers resources (its tools then include `list_resources` / `read_resource`).
    pub fn supports_resources(&self) -> bool {
        self.session.supports_resources()
    }

    /// The negotiated protocol version (`None` before `initialize` finished).
    pub fn protocol_version(&self) -> Option<String> {
        self.session.protocol_version()
    }

    /// Calls `tool`; gives up after the call timeout or when `cancel` fires (the server is told it was
    /// cancelled). A lost connection marks the server failed.
    pub async fn call_tool(
        &self,
        tool: &str,
        args: Map<String, Value>,
        cancel: &CancellationToken,
    ) -> Result<CallReply, McpError> {
        let what = format!("tools/call `{tool}`");
        self.bounded(&what, self.session.call_tool(tool, args), cancel)
            .await
    }

    /// Reads one resource with the same limits as a call; answered from the cache until the server says the
    /// resource (or the list) changed.
    pub async fn read_resource(
        &self,
        uri: &str,
        cancel: &CancellationToken,
    ) -> Result<Vec<Value>, McpError> {
        if let Some(contents) = self.cache().contents.get(uri) {
            return Ok(contents.clone());
        }
        let contents = self
            .bounded("resources/read", self.session.read_resource(uri), cancel)
            .await?;
        self.cache()
            .contents
            .insert(uri.to_string(), contents.clone());
        Ok(contents)
    }

    /// Lists the server's resources with the same limits as a call; answered from the cache until
    /// `resources/list_changed`.
    pub async fn list_resources(
        &self,
        cancel: &CancellationToken,
    ) -> Result<Vec<RemoteResource>, McpError> {
        if let Some(list) = &self.cache().list {
            return Ok(list.clone());
        }
        let list = self
            .bounded("resources/list", self.session.list_resources(), cancel)
            .await?;
        self.cache().list = Some(list.clone());
        Ok(list)
    }

    /// The cached listing, if there is one (the system prompt's index reads it without asking the server).
    pub fn cached_resources(&self) -> Option<Vec<RemoteResource>> {
        self.cache().list.clone()
    }

    /// Forgets the listing and every read content (`resources/list_changed`).
    pub fn invalidate_resources(&self) {
        *self.cache() = ResourceCache::default();
    }

    /// Forgets the contents of one resource (`resources/updated`).
    pub fn invalidate_resource(&self, uri: &str) {
        self.cache().contents.remove(uri);
    }

    async fn bounded<T>(
        &self,
        what: &str,
        request: impl Future<Output = Result<T, McpError>>,
        cancel: &CancellationToken,
    ) -> Result<T, McpError> {
        // Dropping the request future (deadline or cancel) makes the SDK send `notifications/cancelled`.
        let result = tokio::select! {
            result = tokio::time::timeout(self.call_timeout, request) => match result {
                Ok(result) => result,
                Err(_) => Err(McpError::Timeout { what: what.to_string(), secs: self.call_timeout.as_secs() }),
            },
            () = cancel.cancelled() => Err(McpError::Cancelled),
        };
        if let Err(McpError::Closed(_)) = &result {
            self.lost();
        } else if result.is_err() && self.session.is_closed() {
            self.lost();
        }
        result.map_err(|e| match e {
            McpError::Closed(why) => {
                let tail = self.stderr.tail(FAILURE_TAIL_LINES);
                if tail.is_empty() {
                    McpError::Closed(format!("{why}; server `{}` exited", self.name))
                } else {
                    McpError::Closed(format!(
                        "{why}; server `{}` exited. Last stderr lines:\n{tail}",
                        self.name
                    ))
                }
            }
            other => other,
        })
    }

    fn lost(&self) {
        if let Some(inner) = self.manager.upgrade() {
            inner.fail(&self.name, "the connection closed (the server exited)");
        }
    }
}
