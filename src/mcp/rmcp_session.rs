//! The only file (with its `sdk_transport`) that names `rmcp`: starts a stdio child, a streamable-HTTP session or an
//! in-process SDK server, runs `initialize`, and adapts the peer to [`McpSession`]. Results are handed on as plain MCP
//! JSON so nothing else depends on the SDK's types.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, ReadResourceRequestParams, ResourceUpdatedNotificationParam,
};
use rmcp::service::ClientInitializeError;
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::auth::AuthorizationManager;
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess, WWWAuthenticateParams};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{Mutex, mpsc};

use super::config::Launch;
use super::elicit::{ElicitAnswer, ElicitRequest, ElicitorSlot};
use super::http_client::mcp_http_client;
use super::oauth::{self, OAuthSettings, TokenStore};
use super::session::{
    CallReply, McpError, McpSession, RemotePrompt, RemoteResource, RemoteTool, ServerEvent,
    ToolHints,
};
use super::stderr_ring::StderrRing;

mod sdk_transport;

/// Step-up authorizations one session may run: a server that keeps refusing (scopes it will never grant)
/// must not loop the person through the browser.
const MAX_STEP_UPS: u32 = 2;

/// Re-authorization mid-session (MCP's scope challenge handling): a 403 `insufficient_scope` runs the browser
/// step again for the scopes the challenge names, and the session's transport picks up the new token.
struct StepUp {
    server: String,
    url: String,
    settings: OAuthSettings,
    store: TokenStore,
    manager: Arc<Mutex<AuthorizationManager>>,
    browser: Option<String>,
    done: AtomicU32,
}

impl StepUp {
    /// Runs one step-up for `challenge`; false when none may run (no browser, or the limit reached).
    async fn authorize(&self, challenge: &str) -> Result<bool, McpError> {
        let Some(command) = &self.browser else {
            return Ok(false);
        };
        if self.done.fetch_add(1, Ordering::SeqCst) >= MAX_STEP_UPS {
            return Ok(false);
        }
        let base = url::Url::parse(&self.url).map_err(|e| McpError::Config(e.to_string()))?;
        let mut settings = self.settings.clone();
        if let Some(scope) = WWWAuthenticateParams::parse(challenge, &base).scope {
            settings.scopes = scope.split_whitespace().map(str::to_string).collect();
        }
        let server = self.server.clone();
        let show = move |auth_url: &str| {
            tracing::info!("MCP server `{server}` asks for more scope; authorizing at {auth_url}");
        };
        let open = |auth_url: &str| oauth::open_browser(command, auth_url);
        let browser = oauth::BrowserStep {
            show: &show,
            open: &open,
        };
        oauth::step_up(&self.url, &settings, &self.store, browser, challenge)
            .await
            .map_err(|e| McpError::Connect(format!("step-up authorization failed: {e}")))?;
        let mut manager = self.manager.lock().await;
        manager
            .initialize_from_store()
            .await
            .map_err(|e| McpError::Connect(format!("step-up tokens unusable: {e}")))?;
        Ok(true)
    }
}

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

/// What a remote server's authorization draws on: its token file, and the browser command for step-ups.
pub struct Authorization<'a> {
    pub tokens: &'a TokenStore,
    pub browser: Option<&'a str>,
}

/// Starts `launch` and completes `initialize` within `init_timeout`. Child stderr goes into `stderr`; every
/// notification the manager acts on goes to `events`; elicitation requests go to `elicitor`.
pub async fn connect(
    server: &str,
    launch: &Launch,
    stderr: Arc<StderrRing>,
    events: mpsc::UnboundedSender<ServerEvent>,
    elicitor: ElicitorSlot,
    auth: Authorization<'_>,
    init_timeout: Duration,
) -> Result<Arc<dyn McpSession>, McpError> {
    let Authorization { tokens, browser } = auth;
    let mut step_up = None;
    let mut renewal = None;
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
            Launch::Sdk(sdk) => handler
                .serve(sdk_transport::SdkTransport::new(sdk.clone()))
                .await
                .map_err(|e| McpError::Connect(format!("initialize failed: {e}"))),
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
                // A machine grant needs no person: fetch its token now (none yet, or the last one expired)
                // rather than failing the server.
                if settings.is_machine() && (!tokens.has_tokens() || tokens.token_expiring()) {
                    oauth::run_grant(url, settings, tokens)
                        .await
                        .map_err(|e| McpError::Connect(format!("OAuth: {e}")))?;
                }
                let authorized = oauth::authorized_client(url, tokens)
                    .await
                    .map_err(|e| McpError::Connect(format!("OAuth tokens unusable: {e}")))?;
                let result = match authorized {
                    Some(client) => {
                        renewal = settings.is_machine().then(|| {
                            oauth::MachineRenewal::new(
                                url,
                                settings,
                                tokens,
                                Arc::clone(&client.auth_manager),
                            )
                        });
                        step_up = Some(StepUp {
                            server: server.to_string(),
                            url: url.clone(),
                            settings: settings.clone(),
                            store: tokens.clone(),
                            manager: Arc::clone(&client.auth_manager),
                            browser: browser.map(str::to_string),
                            done: AtomicU32::new(0),
                        });
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
        step_up,
        renewal,
    }))
}

struct RmcpSession {
    peer: Peer<RoleClient>,
    service: Mutex<Option<RunningService<RoleClient, Handler>>>,
    /// For a remote server with tokens: how to ask for more scope when a call is refused for want of it.
    step_up: Option<StepUp>,
    /// For a machine grant: how to get a new token when the current one runs out.
    renewal: Option<oauth::MachineRenewal>,
}

impl RmcpSession {
    /// Runs `request`, and again after each step-up authorization a 403 `insufficient_scope` allows. A machine
    /// grant's token is renewed before the request when it is about to expire, and once after a 401.
    async fn stepping_up<T, F, Fut>(&self, request: F) -> Result<T, McpError>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<T, ServiceError>>,
    {
        let mut renewed = false;
        loop {
            let seen = match &self.renewal {
                Some(renewal) => {
                    renewal.renew_if_expiring().await.map_err(renewal_error)?;
                    renewal.generation()
                }
                None => 0,
            };
            let e = match request().await {
                Ok(value) => return Ok(value),
                Err(e) => e,
            };
            if let Some(challenge) = insufficient_scope(&e) {
                match &self.step_up {
                    Some(step_up) if step_up.authorize(&challenge).await? => continue,
                    _ => return Err(scope_refused(&challenge)),
                }
            }
            match &self.renewal {
                Some(renewal) if !renewed && e.auth_challenge().is_some() => {
                    renewal.renew(seen).await.map_err(renewal_error)?;
                    renewed = true;
                }
                _ => return Err(service_error(e)),
            }
        }
    }
}

fn renewal_error(e: oauth::LoginError) -> McpError {
    McpError::Connect(format!("OAuth: renewing the token failed: {e}"))
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

/// The error of a request still refused for want of scope (rmcp's own names the transport's Rust type).
fn scope_refused(challenge: &str) -> McpError {
    let scope = challenge
        .split("scope=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .filter(|scope| !scope.is_empty())
        .unwrap_or("?");
    McpError::ScopeRefused {
        scope: scope.to_string(),
    }
}

/// The `WWW-Authenticate` challenge of a 403 `insufficient_scope` refusal.
fn insufficient_scope(e: &ServiceError) -> Option<String> {
    e.auth_challenge()
        .filter(|c| c.contains("insufficient_scope"))
        .map(str::to_string)
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
        let tools = self.stepping_up(|| self.peer.list_all_tools()).await?;
        tools
            .iter()
            .map(|tool| {
                let json = to_json(tool)?;
                Ok(RemoteTool {
                    name: string_field(&json, "name").unwrap_or_default(),
                    description: string_field(&json, "description").unwrap_or_default(),
                    input_schema: json.get("inputSchema").cloned().unwrap_or(Value::Null),
                    hints: ToolHints::from_annotations(json.get("annotations")),
                })
            })
            .collect()
    }

    async fn call_tool(&self, name: &str, args: Map<String, Value>) -> Result<CallReply, McpError> {
        let params = CallToolRequestParams::new(name.to_string()).with_arguments(args);
        let result = self
            .stepping_up(|| self.peer.call_tool(params.clone()))
            .await?;
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
            .stepping_up(|| self.peer.read_resource(ReadResourceRequestParams::new(uri)))
            .await?;
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

#[cfg(test)]
mod step_up_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    async fn step_up(browser: Option<&str>, done: u32) -> StepUp {
        let home = std::env::temp_dir();
        StepUp {
            server: "s".into(),
            url: "http://127.0.0.1:9/mcp".into(),
            settings: OAuthSettings::default(),
            store: TokenStore::new(&home, "step-up-test-never-written"),
            manager: Arc::new(Mutex::new(
                AuthorizationManager::new("http://127.0.0.1:9/mcp")
                    .await
                    .unwrap(),
            )),
            browser: browser.map(str::to_string),
            done: AtomicU32::new(done),
        }
    }

    const CHALLENGE: &str = r#"Bearer error="insufficient_scope", scope="a b""#;

    #[tokio::test]
    async fn no_step_up_without_a_browser_or_past_the_limit() {
        // Neither case reaches the network (port 9 would refuse): the answer is "no retry".
        assert!(!step_up(None, 0).await.authorize(CHALLENGE).await.unwrap());
        let spent = step_up(Some("true"), MAX_STEP_UPS).await;
        assert!(!spent.authorize(CHALLENGE).await.unwrap());
        assert!(!spent.authorize(CHALLENGE).await.unwrap());
    }

    #[test]
    fn a_scope_still_refused_reads_as_a_sentence_naming_the_scope() {
        let text = scope_refused(CHALLENGE).to_string();
        assert_eq!(
            text,
            "the server refused the request because it needs the OAuth scope `a b`, which authorizing again \
             did not grant"
        );
    }

    #[tokio::test]
    async fn a_step_up_counts_against_the_limit_even_when_it_fails() {
        let once = step_up(Some("true"), MAX_STEP_UPS - 1).await;
        // The authorization itself fails (nothing listens), and the next one is refused outright.
        assert!(once.authorize(CHALLENGE).await.is_err());
        assert!(!once.authorize(CHALLENGE).await.unwrap());
    }
}
