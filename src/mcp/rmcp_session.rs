//! The only file that names `rmcp`: starts a stdio child or a streamable-HTTP session, runs `initialize`, and
//! adapts the SDK's peer to [`McpSession`]. Results are handed on as plain MCP JSON so nothing else depends on the
//! SDK's types.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{Mutex, mpsc};

use super::config::Launch;
use super::http_client::mcp_http_client;
use super::session::{CallReply, McpError, McpSession, RemotePrompt, RemoteResource, RemoteTool};
use super::stderr_ring::StderrRing;

/// How long closing a session may take before it is abandoned (the child is killed on drop).
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// Receives server notifications; only `tools/list_changed` matters to paicli.
struct Handler {
    tools_changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        // The manager re-lists on its own task: listing from inside the service loop would wait on itself.
        let _ = self.tools_changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        let mut implementation = Implementation::from_build_env();
        implementation.name = "paicli".into();
        implementation.version = env!("CARGO_PKG_VERSION").into();
        ClientConfig::new(ClientCapabilities::default(), implementation)
    }
}

/// Starts `launch` and completes `initialize` within `init_timeout`. Child stderr goes into `stderr`; every
/// `tools/list_changed` sends one `()` on `tools_changed`.
pub async fn connect(
    launch: &Launch,
    stderr: Arc<StderrRing>,
    tools_changed: mpsc::UnboundedSender<()>,
    init_timeout: Duration,
) -> Result<Arc<dyn McpSession>, McpError> {
    let handler = Handler { tools_changed };
    let serving = async {
        match launch {
            Launch::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args).envs(env).current_dir(cwd);
                let (child, child_stderr) = TokioChildProcess::builder(cmd)
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(|e| McpError::Connect(format!("cannot start `{command}`: {e}")))?;
                if let Some(pipe) = child_stderr {
                    let ring = Arc::clone(&stderr);
                    tokio::spawn(async move {
                        let mut lines = BufReader::new(pipe).lines();
                        while let Ok(Some(line)) = lines.next_line().await {
                            ring.push(line);
                        }
                    });
                }
                handler
                    .serve(child)
                    .await
                    .map_err(|e| McpError::Connect(format!("initialize failed: {e}")))
            }
            Launch::Http { url, headers } => {
                let mut custom = HashMap::new();
                for (name, value) in headers {
                    let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                        .map_err(|e| McpError::Config(format!("bad header name `{name}`: {e}")))?;
                    let value = reqwest::header::HeaderValue::from_str(value).map_err(|e| {
                        McpError::Config(format!("bad value for header `{name}`: {e}"))
                    })?;
                    custom.insert(name, value);
                }
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(custom);
                let transport =
                    StreamableHttpClientTransport::with_client(mcp_http_client()?, config);
                handler
                    .serve(transport)
                    .await
                    .map_err(|e| McpError::Connect(format!("initialize failed at {url}: {e}")))
            }
        }
    };
    let service = match tokio::time::timeout(init_timeout, serving).await {
        Ok(result) => result?,
        Err(_) => {
            return Err(McpError::Timeout {
                what: "initialize".into(),
                secs: init_timeout.as_secs(),
            });
        }
    };
    let peer = service.peer().clone();
    Ok(Arc::new(RmcpSession {
        peer,
        service: Mutex::new(Some(service)),
    }))
}

struct RmcpSession {
    peer: Peer<RoleClient>,
    service: Mutex<Option<RunningService<RoleClient, Handler>>>,
}

fn service_error(e: ServiceError) -> McpError {
    match e {
        ServiceError::TransportClosed => McpError::Closed("transport closed".into()),
        ServiceError::Timeout { timeout } => McpError::Timeout {
            what: "request".into(),
            secs: timeout.as_secs(),
        },
        other => McpError::Server(other.to_string()),
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, McpError> {
    serde_json::to_value(value).map_err(|e| McpError::Server(format!("unreadable reply: {e}")))
}

fn string_field(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

#[async_trait]
impl McpSession for RmcpSession {
    async fn list_tools(&self) -> Result<Vec<RemoteTool>, McpError> {
        let tools = self.peer.list_all_tools().await.map_err(service_error)?;
        tools
            .iter()
            .map(|tool| {
                let json = to_json(tool)?;
                Ok(RemoteTool {
                    name: string_field(&json, "name").unwrap_or_default(),
                    description: string_field(&json, "description").unwrap_or_default(),
                    input_schema: json.get("inputSchema").cloned().unwrap_or(Value::Null),
                })
            })
            .collect()
    }

    async fn call_tool(&self, name: &str, args: Map<String, Value>) -> Result<CallReply, McpError> {
        let params = CallToolRequestParams::new(name.to_string()).with_arguments(args);
        let result = self.peer.call_tool(params).await.map_err(service_error)?;
        let json = to_json(&result)?;
        Ok(CallReply {
            content: json
                .get("content")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            is_error: json
                .get("isError")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    }

    fn supports_resources(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.resources.is_some())
    }

    async fn list_resources(&self) -> Result<Vec<RemoteResource>, McpError> {
        let resources = self
            .peer
            .list_all_resources()
            .await
            .map_err(service_error)?;
        resources
            .iter()
            .map(|resource| {
                let json = to_json(resource)?;
                Ok(RemoteResource {
                    uri: string_field(&json, "uri").unwrap_or_default(),
                    name: string_field(&json, "name").unwrap_or_default(),
                    description: string_field(&json, "description"),
                    mime_type: string_field(&json, "mimeType"),
                })
            })
            .collect()
    }

    async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, McpError> {
        let result = self
            .peer
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .map_err(service_error)?;
        let json = to_json(&result)?;
        Ok(json
            .get("contents")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default())
    }

    fn supports_prompts(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.prompts.is_some())
    }

    async fn list_prompts(&self) -> Result<Vec<RemotePrompt>, McpError> {
        let prompts = self.peer.list_all_prompts().await.map_err(service_error)?;
        prompts
            .iter()
            .map(|prompt| {
                let json = to_json(prompt)?;
                let arguments = json
                    .get("arguments")
                    .and_then(Value::as_array)
                    .map(|args| {
                        args.iter()
                            .filter_map(|a| {
                                let name = string_field(a, "name")?;
                                let required =
                                    a.get("required").and_then(Value::as_bool) == Some(true);
                                Some(if required { format!("{name}*") } else { name })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Ok(RemotePrompt {
                    name: string_field(&json, "name").unwrap_or_default(),
                    description: string_field(&json, "description"),
                    arguments,
                })
            })
            .collect()
    }

    fn is_closed(&self) -> bool {
        self.peer.is_transport_closed()
    }

    async fn close(&self) {
        let Some(mut service) = self.service.lock().await.take() else {
            return;
        };
        if tokio::time::timeout(CLOSE_TIMEOUT, service.close())
            .await
            .is_err()
        {
            tracing::warn!("MCP session did not close within {CLOSE_TIMEOUT:?}; dropping it");
        }
    }
}
