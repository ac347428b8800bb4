//! Keeping a ready server's tools and resource cache current: the first listings after `initialize`, and the
//! notifications (`tools/list_changed`, `resources/list_changed`, `resources/updated`) afterwards.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::link::ServerLink;
use super::manager::{Inner, LIST_TIMEOUT};
use super::session::{McpError, ServerEvent};

/// Acts on one notification; notifications of the same kind queued meanwhile are folded into it.
pub(super) async fn handle_event(
    inner: &Inner,
    link: &Arc<ServerLink>,
    event: ServerEvent,
    queued: &mut mpsc::UnboundedReceiver<ServerEvent>,
) {
    let mut tools = event == ServerEvent::ToolsChanged;
    let mut resources = event == ServerEvent::ResourcesChanged;
    if let ServerEvent::ResourceUpdated(uri) = &event {
        link.invalidate_resource(uri);
    }
    // Several notifications queued while listing need only one more listing of each kind.
    while let Ok(next) = queued.try_recv() {
        match next {
            ServerEvent::ToolsChanged => tools = true,
            ServerEvent::ResourcesChanged => resources = true,
            ServerEvent::ResourceUpdated(uri) => link.invalidate_resource(&uri),
        }
    }
    if resources {
        link.invalidate_resources();
        load_resources(inner, link).await;
    }
    if tools && let Err(e) = load_tools(inner, link).await {
        tracing::warn!("MCP server `{}`: refreshing tools failed: {e}", link.name);
    }
}

/// Fills the resource cache of `link` and moves the resource generation (the index may change).
pub(super) async fn load_resources(inner: &Inner, link: &Arc<ServerLink>) {
    let cancel = CancellationToken::new();
    match tokio::time::timeout(LIST_TIMEOUT, link.list_resources(&cancel)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => tracing::warn!("MCP server `{}`: resources/list failed: {e}", link.name),
        Err(_) => tracing::warn!("MCP server `{}`: resources/list timed out", link.name),
    }
    inner.resources_generation.fetch_add(1, Ordering::SeqCst);
}

/// Lists the server's tools and swaps them into the registry in one step.
pub(super) async fn load_tools(inner: &Inner, link: &Arc<ServerLink>) -> Result<(), McpError> {
    let remote = match tokio::time::timeout(LIST_TIMEOUT, link.session.list_tools()).await {
        Ok(result) => result?,
        Err(_) => {
            return Err(McpError::Timeout {
                what: "tools/list".into(),
                secs: LIST_TIMEOUT.as_secs(),
            });
        }
    };
    let mut servers = inner.servers();
    // Swap under the server map's lock so a concurrent failure cannot be overwritten by a stale listing.
    let Some(slot) = servers.get_mut(&link.name) else {
        return Ok(());
    };
    if slot.link.as_ref().is_none_or(|l| !Arc::ptr_eq(l, link)) {
        return Ok(());
    }
    slot.tools = inner.publisher.publish(link, &remote);
    slot.tool_loads += 1;
    Ok(())
}
