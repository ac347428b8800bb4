//! The SDKs' in-process MCP servers (`"type": "sdk"` in `--mcp-config` or `initialize`'s `mcpServers`): each
//! JSON-RPC message paicli's MCP client sends one travels to the client as a `control_request` `mcp_message`
//! (`server_name`, `message`), and the `mcp_response` in its answer is the server's reply. The servers start like any
//! other, so their tools reach the model as `mcp__<server>__<tool>`.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::channel::Channel;
use crate::mcp::config::CALLER_SOURCE;
use crate::mcp::sdk_relay::{SdkRelay, SdkServer};
use crate::mcp::{Launch, Origin, ServerConfig};

/// The relay over the protocol's control channel.
pub struct ControlRelay(pub Arc<Channel>);

#[async_trait]
impl SdkRelay for ControlRelay {
    async fn carry(&self, server: &str, message: Value) -> Result<Value, String> {
        let answer = self
            .0
            .request(json!({"subtype": "mcp_message", "server_name": server, "message": message}))
            .await?;
        answer
            .get("mcp_response")
            .cloned()
            .ok_or_else(|| format!("the client's answer has no mcp_response: {answer}"))
    }
}

/// Takes the in-process servers out of `entries` (name and entry, Claude's shape); returns their names.
pub fn take_sdk_servers(entries: &mut Vec<(String, Value)>) -> Vec<String> {
    let (sdk, others): (Vec<_>, Vec<_>) = std::mem::take(entries)
        .into_iter()
        .partition(|(_, entry)| entry["type"] == "sdk");
    *entries = others;
    let mut names: Vec<String> = sdk.into_iter().map(|(name, _)| name).collect();
    names.dedup();
    names
}

/// The servers `names`, reached through `channel`, as the caller's own.
pub fn sdk_servers(names: &[String], channel: &Arc<Channel>) -> Vec<ServerConfig> {
    let relay: Arc<dyn SdkRelay> = Arc::new(ControlRelay(Arc::clone(channel)));
    names
        .iter()
        .map(|name| ServerConfig {
            name: name.clone(),
            origin: Origin::User,
            source: PathBuf::from(CALLER_SOURCE),
            disabled: false,
            launch: Ok(Launch::Sdk(SdkServer {
                name: name.clone(),
                relay: Arc::clone(&relay),
            })),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::channel::capture::Buffer;
    use super::*;

    #[test]
    fn sdk_entries_are_taken_out_and_the_others_stay() {
        let mut entries = vec![
            ("calc".to_string(), json!({"type": "sdk", "name": "calc"})),
            ("files".to_string(), json!({"command": "server"})),
        ];
        assert_eq!(take_sdk_servers(&mut entries), ["calc"]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].0, "files");
    }

    #[tokio::test]
    async fn a_message_goes_out_as_mcp_message_and_the_mcp_response_comes_back() {
        let buffer = Buffer::default();
        let channel = Arc::new(Channel::new(Box::new(buffer.clone())));
        let relay = ControlRelay(Arc::clone(&channel));
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let carried = tokio::spawn(async move { relay.carry("calc", ping).await });
        while buffer.lines().is_empty() {
            tokio::task::yield_now().await;
        }
        let sent = &buffer.lines()[0];
        assert_eq!(sent["request"]["subtype"], "mcp_message");
        assert_eq!(sent["request"]["server_name"], "calc");
        assert_eq!(sent["request"]["message"]["method"], "ping");
        let pong = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
        channel.resolve(
            &json!({"subtype": "success", "request_id": sent["request_id"],
            "response": {"mcp_response": pong}}),
        );
        assert_eq!(carried.await.unwrap(), Ok(pong));
    }
}
