//! Tools backed by MCP servers: one [`McpTool`] per server tool, plus `list_resources` / `read_resource` for
//! servers that offer resources. All are serial (a server tool may do anything) and go through the executor's
//! gates, spill and boundary like every tool.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::browser::{PageTracker, server_tool_traits};
use super::{Tool, ToolContext, ToolOutcome, ToolRegistry, ToolTraits};
use crate::mcp::browser_entry::CHROME_DEVTOOLS;
use crate::mcp::content::{call_outcome, render_items, render_resource_contents};
use crate::mcp::manager::{ServerLink, ToolPublisher};
use crate::mcp::names::tool_name;
use crate::mcp::schema::{cut_description, sanitize_schema};
use crate::mcp::{McpError, RemoteTool, ToolHints};
use crate::protocol::{Risk, ToolKind};

/// Characters a `read_resource` result may have before spill takes over.
const READ_RESOURCE_CHARS: usize = 200_000;

/// Publishes each MCP server's tools into the registry, one registry group per server.
pub struct RegistryPublisher {
    registry: Arc<ToolRegistry>,
    /// Follows the browser server's replies (which page is open).
    pages: Option<Arc<PageTracker>>,
}

impl RegistryPublisher {
    /// A publisher into `registry`.
    pub fn new(registry: Arc<ToolRegistry>) -> Arc<Self> {
        Arc::new(RegistryPublisher {
            registry,
            pages: None,
        })
    }

    /// A publisher into `registry` whose browser tools report the pages they see to `pages`.
    pub fn with_pages(registry: Arc<ToolRegistry>, pages: Arc<PageTracker>) -> Arc<Self> {
        Arc::new(RegistryPublisher {
            registry,
            pages: Some(pages),
        })
    }
}

/// The registry group holding one server's tools.
fn group(server: &str) -> String {
    format!("mcp:{server}")
}

impl ToolPublisher for RegistryPublisher {
    fn publish(&self, link: &Arc<ServerLink>, remote: &[RemoteTool]) -> usize {
        let pages = self.pages.as_ref().filter(|_| link.name == CHROME_DEVTOOLS);
        let tools = server_tools(link, remote, link.supports_resources(), pages);
        let count = tools.len();
        self.registry.replace_group(&group(&link.name), tools);
        count
    }

    fn withdraw(&self, server: &str) {
        self.registry.replace_group(&group(server), Vec::new());
        if let Some(pages) = &self.pages
            && server == CHROME_DEVTOOLS
        {
            pages.clear();
        }
    }
}

/// What every server tool is. A server's `readOnlyHint` annotation is its own claim about itself, and the server
/// may be one a cloned repository configured: so no server tool is trusted to be harmless. High risk, audited, and
/// what it returns is external content.
const SERVER_TOOL: ToolTraits = ToolTraits {
    external_content: true,
    ..ToolTraits::side_effect(Risk::High)
};

/// The kind of call a server tool shows as, from its hints: a read-only tool reads (or fetches, when it says it
/// reaches the world outside); anything else is `Other`. Display only: the traits above stay cautious.
fn hinted_kind(hints: ToolHints) -> ToolKind {
    match (hints.read_only, hints.open_world) {
        (true, true) => ToolKind::Fetch,
        (true, false) => ToolKind::Read,
        (false, _) => ToolKind::Other,
    }
}

/// The tools for one server's listing; `pages` follows what the browser server's replies show.
pub fn server_tools(
    link: &Arc<ServerLink>,
    remote: &[RemoteTool],
    resources: bool,
    pages: Option<&Arc<PageTracker>>,
) -> Vec<Arc<dyn Tool>> {
    let mut tools: Vec<Arc<dyn Tool>> = remote
        .iter()
        // A nameless tool cannot be called back; a broken listing entry must not take the others down.
        .filter(|tool| !tool.name.is_empty())
        .map(|tool| {
            let bridged = McpTool::new(Arc::clone(link), tool);
            let bridged = match pages {
                Some(pages) => bridged.observed_by(Arc::clone(pages)),
                None => bridged,
            };
            Arc::new(bridged) as Arc<dyn Tool>
        })
        .collect();
    if resources {
        tools.push(Arc::new(ListResources::new(Arc::clone(link))));
        tools.push(Arc::new(ReadResource::new(Arc::clone(link))));
    }
    tools
}

fn failure(e: McpError) -> ToolOutcome {
    match e {
        McpError::Cancelled => ToolOutcome::Cancelled {
            partial: String::new(),
        },
        other => ToolOutcome::failed(other.to_string()),
    }
}

/// One tool of one MCP server.
pub struct McpTool {
    name: String,
    remote_name: String,
    description: String,
    parameters: Value,
    link: Arc<ServerLink>,
    traits: ToolTraits,
    /// Told every reply (the browser server's tools only).
    pages: Option<Arc<PageTracker>>,
}

impl McpTool {
    /// The bridge for `tool` of the server behind `link`.
    pub fn new(link: Arc<ServerLink>, tool: &RemoteTool) -> Self {
        let described = if tool.description.is_empty() {
            String::new()
        } else {
            format!("{} ", cut_description(&tool.description))
        };
        McpTool {
            name: tool_name(&link.name, &tool.name),
            remote_name: tool.name.clone(),
            description: format!(
                "{described}(MCP server: {}, tool: {})",
                link.name, tool.name
            ),
            parameters: sanitize_schema(&tool.input_schema),
            traits: ToolTraits {
                kind: hinted_kind(tool.hints),
                ..server_tool_traits(&link.name, &tool.name).unwrap_or(SERVER_TOOL)
            },
            link,
            pages: None,
        }
    }

    /// The same tool, telling `pages` what each reply shows.
    pub fn observed_by(mut self, pages: Arc<PageTracker>) -> Self {
        self.pages = Some(pages);
        self
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn traits(&self) -> ToolTraits {
        self.traits
    }
    fn parameters(&self) -> Value {
        self.parameters.clone()
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        match self
            .link
            .call_tool(&self.remote_name, args.clone(), &ctx.cancel)
            .await
        {
            Ok(reply) => {
                if let Some(pages) = &self.pages {
                    pages.observe(&render_items(&reply.content).0);
                }
                call_outcome(&reply)
            }
            Err(e) => failure(e),
        }
    }
}

/// `mcp__{server}__list_resources`.
pub struct ListResources {
    name: String,
    description: String,
    link: Arc<ServerLink>,
}

impl ListResources {
    /// The listing tool for the server behind `link`.
    pub fn new(link: Arc<ServerLink>) -> Self {
        ListResources {
            name: tool_name(&link.name, "list_resources"),
            description: format!(
                "List the resources (URIs with names and types) MCP server `{}` offers. (MCP server: {}, tool: \
                 resources/list)",
                link.name, link.name
            ),
            link,
        }
    }
}

#[async_trait]
impl Tool for ListResources {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Read,
            ..SERVER_TOOL
        }
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    async fn execute(&self, _args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        match self.link.list_resources(&ctx.cancel).await {
            Ok(resources) if resources.is_empty() => ToolOutcome::ok("(no resources)"),
            Ok(resources) => ToolOutcome::ok(
                resources
                    .iter()
                    .map(|r| {
                        let mut line = format!("{} ({})", r.uri, r.name);
                        if let Some(mime) = &r.mime_type {
                            line.push_str(&format!(" [{mime}]"));
                        }
                        if let Some(description) = &r.description {
                            line.push_str(&format!(": {description}"));
                        }
                        line
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Err(e) => failure(e),
        }
    }
}

/// `mcp__{server}__read_resource`.
pub struct ReadResource {
    name: String,
    description: String,
    link: Arc<ServerLink>,
}

impl ReadResource {
    /// The reading tool for the server behind `link`.
    pub fn new(link: Arc<ServerLink>) -> Self {
        ReadResource {
            name: tool_name(&link.name, "read_resource"),
            description: format!(
                "Read one resource of MCP server `{}` by URI. (MCP server: {}, tool: resources/read)",
                link.name, link.name
            ),
            link,
        }
    }
}

#[async_trait]
impl Tool for ReadResource {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn traits(&self) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Read,
            ..SERVER_TOOL
        }
    }
    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {"uri": {"type": "string", "description": "The resource URI, as listed."}},
            "required": ["uri"],
        })
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let Some(uri) = args.get("uri").and_then(Value::as_str) else {
            return ToolOutcome::failed("`uri` is required");
        };
        match self.link.read_resource(uri, &ctx.cancel).await {
            Ok(contents) => ToolOutcome::ok(render_resource_contents(
                &self.link.name,
                &contents,
                READ_RESOURCE_CHARS,
            )),
            Err(e) => failure(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_tool_shows_as_what_its_hints_say() {
        let hinted = |read_only, open_world| {
            hinted_kind(ToolHints {
                read_only,
                open_world,
            })
        };
        assert_eq!(hinted(true, false), ToolKind::Read);
        assert_eq!(hinted(true, true), ToolKind::Fetch);
        assert_eq!(hinted(false, true), ToolKind::Other);
        assert_eq!(hinted(false, false), ToolKind::Other);
    }
}
