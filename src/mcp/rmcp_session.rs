//! The only file that names `rmcp`: starts a stdio child or a streamable-HTTP session, runs `initialize`, and
//! adapts the SDK's peer to [`McpSession`]. Results are handed on as plain MCP JSON so nothing else depends on the
//! SDK's types.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, ReadResourceRequestParams, ResourceUpdatedNotificationParam,
};
use rmcp::service::ClientInitializeError;
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{Mutex, mpsc};

use super::config::Launch;
use super::elicit::{ElicitAnswer, ElicitRequest, ElicitorSlot};
use super::http_client::mcp_http_client;
use super::oauth::{self, TokenStore};
use super::session::{
    CallReply, McpError, McpSession, RemotePrompt, RemoteResource, RemoteTool, ServerEvent,
};
use super::stderr_ring::StderrRing;

/// How long closing a session may take before it is abandoned (the child is killed on drop).
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// Receives server notifications and requests: list changes go to the manager as [`ServerEvent`]s, elicitation
/// requests to the session's elicitor.
struct Handler {
    server: String,
    events: mpsc::UnboundedSender<ServerEvent>,
    elicitor: ElicitorSlot,
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        // The manager re-lists on its own task: listing from inside the service loop would wait on itself.
        let _ = self.events.send(ServerEvent::ToolsChanged);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.events.send(ServerEvent::ResourcesChanged);
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.events.send(ServerEvent::ResourceUpdated(params.uri));
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            // Only form mode is declared in our capabilities.
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let request = ElicitRequest {
            server: self.server.clone(),
            message,
            schema: serde_json::to_value(&requested_schema).unwrap_or(Value::Null),
        };
        let elicitor = self.elicitor.get();
        let answer = tokio::select! {
            answer = elicitor.elicit(&request) => answer,
            () = context.ct.cancelled() => ElicitAnswer::Cancel,
        };
        Ok(match answer {
            ElicitAnswer::Accept(values) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(values))
            }
            ElicitAnswer::Decline => ElicitResult::new(ElicitationAction::Decline),
            ElicitAnswer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    fn get_info(&self) -> ClientConfig {
        let mut implementation = Implementation::from_build_env();
        implementation.name = "paicli".into();
        implementation.version = env!("CARGO_PKG_VERSION").into();
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        let mut config = ClientConfig::new(capabilities, implementation);
        // The newest revision has no `initialize`; offer the newest one that has, and take the server's answer.
        config.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        config
    }
}

/// True when the server refused `initialize` for want of authorization (its 401 challenge).
fn needs_authorization(error: &ClientInitializeError) -> bool {
    let ClientInitializeError::TransportError { error, .. } = error else {
        return false;
    };
    // The transport's own error is a field, not a `source`, so the chain starts there.
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error.error.as_ref());
    while let Some(e) = cause {
        let challenged = e.downcast_ref::<AuthRequiredError>().is_some()
            || matches!(
                e.downcast_ref::<StreamableHttpError<reqwest::Error>>(),
                Some(StreamableHttpError::AuthRequired(_))
            );
        if challenged {
            return true;
        }
        cause = e.source();
    }
    false
}

/// The server's answer to `initialize` when it names a version we speak, else why not.
fn check_version(version: &ProtocolVersion) -> Result<(), McpError> {
    if ProtocolVersion::KNOWN_VERSIONS.contains(version) && version.has_initialize() {
        Ok(())
    } else {
        let known: Vec<&str> = ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .filter(|v| v.has_initialize())
            .map(ProtocolVersion::as_str)
            .collect();
        Err(McpError::Connect(format!(
            "the server speaks MCP {version}; paicli speaks {}",
            known.join(", ")
        )))
    }
}

/// Starts `launch` and completes `initialize` within `init_timeout`. Child stderr goes into `stderr`; every
/// notification the manager acts on goes to `events`; elicitation requests go to `elicitor`.
pub async fn connect(
    server: &str,
    launch: &Launch,
    stderr: Arc<StderrRing>,
    events: mpsc::UnboundedSender<ServerEvent>,
    elicitor: ElicitorSlot,
    tokens: &TokenStore,
    init_timeout: Duration,
) -> Result<Arc<dyn McpSession>, McpError> {
    let handler = Handler {
        server: server.to_string(),
        events,
        elicitor,
    };
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
            Launch::Http {
                url,
                headers,
                oauth: settings,
            } => {
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
                // A machine grant needs no person: fetch its token now rather than failing the server.
                if settings.is_machine() && !tokens.has_tokens() {
                    let quiet = |_: &str| {};
                    let browser = oauth::BrowserStep {
                        show: &quiet,
                        open: &quiet,
                    };
                    oauth::login(url, settings, tokens, browser)
                        .await
                        .map_err(|e| McpError::Connect(format!("OAuth: {e}")))?;
                }
                let authorized = oauth::authorized_client(url, tokens)
                    .await
                    .map_err(|e| McpError::Connect(format!("OAuth tokens unusable: {e}")))?;
                let result = match authorized {
                    Some(client) => {
                        handler
                            .serve(StreamableHttpClientTransport::with_client(client, config))
                            .await
                    }
                    None => {
                        handler
                            .serve(StreamableHttpClientTransport::with_client(
                                mcp_http_client()?,
                                config,
                            ))
                            .await
                    }
                };
                result.map_err(|e| {
                    if needs_authorization(&e) {
                        McpError::NeedsLogin
                    } else {
                        McpError::Connect(format!("initialize failed at {url}: {e}"))
                    }
                })
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
    if let Some(info) = peer.peer_info()
        && let Err(e) = check_version(&info.protocol_version)
    {
        let mut service = service;
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, service.close()).await;
        return Err(e);
    }
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

    fn protocol_version(&self) -> Option<String> {
        self.peer
            .peer_info()
            .map(|info| info.protocol_version.to_string())
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
