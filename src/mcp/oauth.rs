//! OAuth 2.1 for remote MCP servers, through rmcp's authorization support: discovery from the server's 401
//! challenge (protected-resource and authorization-server metadata), dynamic client registration when offered,
//! PKCE, the browser step on a loopback redirect, and tokens kept in [`token_store`] (refreshed by rmcp before
//! they expire; a machine grant, which has no refresh token, runs again through [`MachineRenewal`]). `paicli mcp login <server>` and `/mcp login <server>` run [`login`]; connecting a server with
//! tokens goes through [`authorized_client`].

mod browser;
mod legacy;
mod machine;
mod renew;
pub mod settings;
pub mod token_store;

use std::time::Duration;

use rmcp::transport::AuthClient;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationRequest, AuthorizationSession, OAuthClientConfig,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::http_client::mcp_http_client;
pub use browser::open_browser;
pub use renew::{MachineRenewal, run_grant};
pub use settings::{Grant, OAuthSettings};
pub use token_store::{TokenFile, TokenStore};

/// How long the browser step may take before login gives up.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(300);
/// The client name sent with dynamic registration.
const CLIENT_NAME: &str = "paicli";

/// Why a login did not complete.
#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    #[error("the server answered without asking for authorization (no 401): nothing to log in to")]
    NotRequired,
    #[error("cannot reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("authorization failed: {0}")]
    Auth(String),
    #[error("cannot listen for the browser's redirect: {0}")]
    Listen(std::io::Error),
    #[error("the browser step did not finish within {} s", LOGIN_TIMEOUT.as_secs())]
    TimedOut,
    #[error("the redirect carried no authorization code: {0}")]
    BadRedirect(String),
    #[error("cannot save the tokens: {0}")]
    Save(std::io::Error),
    #[error("the server's `oauth` settings: {0}")]
    Config(String),
}

impl From<AuthError> for LoginError {
    fn from(e: AuthError) -> Self {
        LoginError::Auth(e.to_string())
    }
}

/// How the browser step reaches the person: `show` gets the URL to print, `open` may open a browser on it.
pub struct BrowserStep<'a> {
    pub show: &'a (dyn Fn(&str) + Send + Sync),
    pub open: &'a (dyn Fn(&str) + Send + Sync),
}

/// Logs in to the server at `url`, storing its tokens in `store`: the browser step, or for a machine grant
/// (`settings.grant`) the token request alone.
pub async fn login(
    url: &str,
    settings: &OAuthSettings,
    store: &TokenStore,
    browser: BrowserStep<'_>,
) -> Result<(), LoginError> {
    let challenge = challenge(url).await?;
    authorize(url, settings, store, browser, &challenge, None).await
}

/// [`login`] again for more scope, from a 403 `insufficient_scope` challenge mid-session. The client the first
/// login registered is reused (same id, secret and redirect URI) rather than registering another one.
pub async fn step_up(
    url: &str,
    settings: &OAuthSettings,
    store: &TokenStore,
    browser: BrowserStep<'_>,
    challenge: &str,
) -> Result<(), LoginError> {
    let stored = store
        .read()
        .map_err(LoginError::Save)?
        .and_then(StoredClient::of);
    authorize(url, settings, store, browser, challenge, stored).await
}

/// A dynamically registered client kept in the token file.
struct StoredClient {
    id: String,
    secret: Option<String>,
    redirect_uri: String,
}

impl StoredClient {
    fn of(file: TokenFile) -> Option<Self> {
        Some(StoredClient {
            id: file.credentials?.client_id,
            secret: file.client_secret,
            redirect_uri: file.redirect_uri?,
        })
    }

    /// A listener on the client's registered redirect port, when that port is free.
    async fn listener(&self) -> Option<TcpListener> {
        let port = url::Url::parse(&self.redirect_uri).ok()?.port()?;
        TcpListener::bind(("127.0.0.1", port)).await.ok()
    }
}

async fn authorize(
    url: &str,
    settings: &OAuthSettings,
    store: &TokenStore,
    browser: BrowserStep<'_>,
    challenge: &str,
    stored: Option<StoredClient>,
) -> Result<(), LoginError> {
    let mut manager = AuthorizationManager::new(url).await?;
    manager.set_credential_store(store.clone());
    let metadata = discover(&manager, url, Some(challenge))
        .await
        .map_err(LoginError::from)?;
    manager.set_metadata(metadata.clone());
    match settings.grant {
        Grant::ClientCredentials => {
            machine::client_credentials(manager, url, settings).await?;
            return remember(store, url, settings.client_secret.clone(), None);
        }
        Grant::CrossApp => {
            machine::cross_app(&metadata, url, settings, store).await?;
            return remember(store, url, None, None);
        }
        Grant::AuthorizationCode => {}
    }

    // A stored client is reused only on its registered redirect URI, so its port must be free again.
    let reused = match stored.filter(|_| settings.client_id.is_none()) {
        Some(client) => client.listener().await.map(|l| (client, l)),
        None => None,
    };
    let (reused, listener) = match reused {
        Some((client, listener)) => (Some(client), listener),
        None => (
            None,
            TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(LoginError::Listen)?,
        ),
    };
    let port = listener.local_addr().map_err(LoginError::Listen)?.port();
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");

    // Identity, in rmcp's order: a pre-registered client, a metadata document URL the server accepts, dynamic
    // registration. Registration is done here rather than inside the session, so the secret it hands out can
    // be kept for refreshes in later runs.
    let mut request = AuthorizationRequest::new(&redirect_uri).with_client_name(CLIENT_NAME);
    if !settings.scopes.is_empty() {
        request = request.with_scopes(settings.scopes.iter().cloned());
    }
    let mut secret = None;
    let takes_metadata_url = metadata
        .additional_fields
        .get("client_id_metadata_document_supported")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    if let Some(client) = reused {
        request = request.with_preregistered_client(&client.id);
        if let Some(s) = &client.secret {
            request = request.with_client_secret(s);
        }
        secret = client.secret;
    } else if let Some(client_id) = &settings.client_id {
        request = request.with_preregistered_client(client_id);
        if let Some(s) = &settings.client_secret {
            request = request.with_client_secret(s);
        }
        secret = settings.client_secret.clone();
    } else if let Some(document) = settings
        .client_metadata_url
        .as_ref()
        .filter(|_| takes_metadata_url)
    {
        request = request.with_client_metadata_url(document);
    } else if metadata.registration_endpoint.is_some() {
        let scopes = manager.select_scopes(None, &[]);
        let scope_refs: Vec<&str> = scopes.iter().map(String::as_str).collect();
        let registered = manager
            .register_client(CLIENT_NAME, &redirect_uri, &scope_refs)
            .await?;
        request = request.with_preregistered_client(&registered.client_id);
        if let Some(s) = &registered.client_secret {
            request = request.with_client_secret(s);
        }
        secret = registered.client_secret;
    }
    let session = AuthorizationSession::new(manager, request)
        .await
        .map_err(|(_, e)| LoginError::from(e))?;
    let auth_url = session.get_authorization_url().to_string();
    (browser.show)(&auth_url);
    (browser.open)(&auth_url);

    let callback = tokio::time::timeout(LOGIN_TIMEOUT, redirect(&listener, &redirect_uri))
        .await
        .map_err(|_| LoginError::TimedOut)??;
    session.handle_callback_url(&callback).await?;
    remember(store, url, secret, Some(redirect_uri))
}

/// The authorization server's metadata: rmcp's discovery (from the 401's `challenge` when there is one:
/// protected-resource metadata, then RFC 8414 / OIDC, then the legacy endpoints), or for a 2025-03-26 server
/// whose root metadata rmcp refuses, that metadata taken as it is when its endpoints are on the server's own
/// origin. Login and every later connection discover the same way, so tokens a login stored stay usable.
async fn discover(
    manager: &AuthorizationManager,
    url: &str,
    challenge: Option<&str>,
) -> Result<rmcp::transport::auth::AuthorizationMetadata, AuthError> {
    match manager.resolve_metadata_from_challenge(challenge).await {
        Ok(resolution) => Ok(resolution.metadata),
        Err(e) => legacy::root_metadata(url).await.ok_or(e),
    }
}

/// Completes the token file with what rmcp does not keep: the URL the tokens belong to, the client secret and
/// the redirect URI (both needed for refreshes in later runs).
fn remember(
    store: &TokenStore,
    url: &str,
    secret: Option<String>,
    redirect_uri: Option<String>,
) -> Result<(), LoginError> {
    let mut file = store.read().map_err(LoginError::Save)?.unwrap_or_default();
    file.url = Some(url.to_string());
    file.client_secret = secret;
    file.redirect_uri = redirect_uri;
    store.write(&file).map_err(LoginError::Save)
}

/// The `WWW-Authenticate` header of the server's 401: to an unauthenticated `initialize`, or, for a server
/// that lets the handshake through and guards its methods, to the `tools/list` that follows it.
async fn challenge(url: &str) -> Result<String, LoginError> {
    let unreachable = |e: &dyn std::fmt::Display| LoginError::Unreachable {
        url: url.to_string(),
        reason: e.to_string(),
    };
    let client = mcp_http_client().map_err(|e| unreachable(&e))?;
    let initialize = serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION")}}
    });
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let mut session: Option<reqwest::header::HeaderValue> = None;
    for probe in [initialize, list] {
        let mut request = client
            .post(url)
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25");
        if let Some(id) = &session {
            request = request.header("Mcp-Session-Id", id.clone());
        }
        let reply = request
            .json(&probe)
            .send()
            .await
            .map_err(|e| unreachable(&e))?;
        if reply.status() == reqwest::StatusCode::UNAUTHORIZED {
            return Ok(reply
                .headers()
                .get(reqwest::header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("Bearer")
                .to_string());
        }
        if !reply.status().is_success() {
            break;
        }
        session = reply.headers().get("mcp-session-id").cloned();
    }
    Err(LoginError::NotRequired)
}

/// Waits for the browser's redirect to the loopback listener and returns its full URL; the browser is told it
/// may close the tab.
async fn redirect(listener: &TcpListener, redirect_uri: &str) -> Result<String, LoginError> {
    loop {
        let (mut socket, _) = listener.accept().await.map_err(LoginError::Listen)?;
        let mut buf = vec![0u8; 8192];
        let n = socket.read(&mut buf).await.map_err(LoginError::Listen)?;
        let head = String::from_utf8_lossy(&buf[..n]);
        let Some(target) = head
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("GET "))
            .and_then(|rest| rest.split(' ').next())
        else {
            continue;
        };
        if !target.starts_with("/callback") {
            let _ = socket
                .write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await;
            continue;
        }
        let body = "paicli: authorization received. You can close this tab.";
        let reply = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = socket.write_all(reply.as_bytes()).await;
        let base = redirect_uri.trim_end_matches("/callback");
        let full = format!("{base}{target}");
        if !full.contains("code=") {
            return Err(LoginError::BadRedirect(
                target.split("error=").nth(1).unwrap_or(target).to_string(),
            ));
        }
        return Ok(full);
    }
}

/// An HTTP client that sends the stored tokens of `store` (refreshing them before they expire), or `None` when
/// there are none.
pub async fn authorized_client(
    url: &str,
    store: &TokenStore,
) -> Result<Option<AuthClient<reqwest::Client>>, AuthError> {
    let Some(file) = store
        .read()
        .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?
    else {
        return Ok(None);
    };
    if file.url.as_deref() != Some(url) {
        return Ok(None);
    }
    let mut manager = AuthorizationManager::new(url).await?;
    manager.set_credential_store(store.clone());
    // Set before rmcp's own discovery would run (and refuse a 2025-03-26 server's root metadata).
    let metadata = discover(&manager, url, None).await?;
    manager.set_metadata(metadata);
    if !manager.initialize_from_store().await? {
        return Ok(None);
    }
    if let (Some(secret), Some(redirect), Some(credentials)) =
        (&file.client_secret, &file.redirect_uri, &file.credentials)
    {
        let config =
            OAuthClientConfig::new(&credentials.client_id, redirect).with_client_secret(secret);
        manager.configure_client(config)?;
    }
    let http = mcp_http_client().map_err(|e| AuthError::InternalError(e.to_string()))?;
    Ok(Some(AuthClient::new(http, manager)))
}

#[cfg(test)]
mod tests;
