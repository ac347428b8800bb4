//! MCP servers that live inside the client process (the Agent SDKs' in-process servers, `"type": "sdk"`): paicli
//! reaches them through whoever started it, which carries each JSON-RPC message and brings back the answer. The
//! front-end that has such a client provides the [`SdkRelay`]; the manager starts the server over it like any other.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

/// Carries one JSON-RPC message to the in-process server `server` and returns what it answered (for a
/// notification, an acknowledgement to ignore). `Err` when the client could not deliver it.
#[async_trait]
pub trait SdkRelay: Send + Sync {
    async fn carry(&self, server: &str, message: Value) -> Result<Value, String>;
}

/// An in-process server: its name as the client knows it and the relay that reaches it.
#[derive(Clone)]
pub struct SdkServer {
    pub name: String,
    pub relay: Arc<dyn SdkRelay>,
}

impl fmt::Debug for SdkServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SdkServer")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Two handles are the same server when they name it and reach it through the same relay.
impl PartialEq for SdkServer {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && Arc::ptr_eq(&self.relay, &other.relay)
    }
}

impl Eq for SdkServer {}
