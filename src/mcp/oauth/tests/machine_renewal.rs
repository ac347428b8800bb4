//! A machine grant's token runs out: the client-credentials grant runs again (never a refresh it has no
//! refresh token for), before a request when the stored token is about to expire, once after a 401, and at
//! connect when the last run left an expired token. Against a stand-in that is both the authorization server and
//! a small MCP server accepting only the tokens it issued.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::super::{Grant, OAuthSettings, TokenFile, TokenStore};
use super::{Request, Response, metadata, serve};
use crate::mcp::config::Launch;
use crate::mcp::elicit::ElicitorSlot;
use crate::mcp::rmcp_session::{Authorization, connect};
use crate::mcp::session::McpSession;
use crate::mcp::stderr_ring::StderrRing;

/// What the stand-in saw and what it accepts.
#[derive(Default)]
struct Standin {
    /// Bodies of the token requests, in order.
    token_requests: Mutex<Vec<String>>,
    /// Tokens issued and not revoked.
    valid: Mutex<Vec<String>>,
    /// Bearer tokens of the MCP requests that were let through.
    used: Mutex<Vec<String>>,
    /// Refuse every token (a server that keeps answering 401).
    refuse_all: AtomicBool,
}

impl Standin {
    fn revoke_all(&self) {
        self.valid.lock().unwrap().clear();
    }

    fn grants(&self) -> Vec<String> {
        self.token_requests
            .lock()
            .unwrap()
            .iter()
            .map(|body| {
                body.split('&')
                    .find_map(|pair| pair.strip_prefix("grant_type="))
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    }

    fn respond(&self, origin: &str, request: Request) -> Response {
        if let Some(json) = metadata(origin, &request.target) {
            return Response::json(json);
        }
        if request.target == "/token" {
            let mut requests = self.token_requests.lock().unwrap();
            requests.push(request.body);
            let token = format!("tok-{}", requests.len());
            self.valid.lock().unwrap().push(token.clone());
            // Client credentials come without a refresh token.
            return Response::json(
                json!({"access_token": token, "token_type": "Bearer", "expires_in": 3600}),
            );
        }
        if request.target != "/mcp" {
            return Response::status("404 Not Found");
        }
        let bearer = request
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::to_string);
        let accepted = bearer.as_ref().filter(|t| {
            !self.refuse_all.load(Ordering::SeqCst) && self.valid.lock().unwrap().contains(t)
        });
        let Some(token) = accepted else {
            let mut refused = Response::status("401 Unauthorized");
            refused.headers.push((
                "WWW-Authenticate".into(),
                format!(
                    r#"Bearer resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp""#
                ),
            ));
            return refused;
        };
        self.used.lock().unwrap().push(token.clone());
        if request.method != "POST" {
            // No server-sent event stream.
            return Response::status("405 Method Not Allowed");
        }
        let message: Value = serde_json::from_str(&request.body).unwrap_or(Value::Null);
        let Some(id) = message.get("id").cloned() else {
            return Response::status("202 Accepted");
        };
        let result = match message["method"].as_str() {
            Some("initialize") => json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "standin", "version": "1"}
            }),
            Some("tools/list") => json!({"tools": [
                {"name": "echo", "description": "echoes", "inputSchema": {"type": "object"}}
            ]}),
            _ => {
                return Response::json(json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "no such method"}}));
            }
        };
        Response::json(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }
}

async fn standin() -> (String, Arc<Standin>) {
    let state = Arc::new(Standin::default());
    let handler = Arc::clone(&state);
    let origin = serve(move |origin, request| handler.respond(origin, request)).await;
    (format!("{origin}/mcp"), state)
}

fn machine_settings() -> OAuthSettings {
    OAuthSettings {
        grant: Grant::ClientCredentials,
        client_id: Some("svc".into()),
        client_secret: Some("s3cret".into()),
        ..OAuthSettings::default()
    }
}

async fn connect_to(url: &str, store: &TokenStore) -> Arc<dyn McpSession> {
    let launch = Launch::Http {
        url: url.to_string(),
        headers: BTreeMap::new(),
        oauth: machine_settings(),
    };
    let (events, _) = tokio::sync::mpsc::unbounded_channel();
    connect(
        "m2m",
        &launch,
        Arc::new(StderrRing::new()),
        events,
        ElicitorSlot::default(),
        Authorization {
            tokens: store,
            browser: None,
        },
        Duration::from_secs(20),
    )
    .await
    .unwrap()
}

/// Makes the stored token look `age` seconds old, as if that much time had passed.
fn age_token(store: &TokenStore, age: u64) {
    let mut file: TokenFile = store.read().unwrap().unwrap();
    let credentials = file.credentials.as_mut().unwrap();
    credentials.token_received_at = Some(super::super::token_store::now_secs() - age);
    store.write(&file).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expiring_machine_token_is_fetched_again_before_the_next_request() {
    let (url, standin) = standin().await;
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "m2m");
    let session = connect_to(&url, &store).await;
    assert_eq!(session.list_tools().await.unwrap()[0].name, "echo");
    assert_eq!(standin.grants(), ["client_credentials"]);

    // An hour later the token is about to run out: the grant runs again, no refresh is tried.
    age_token(&store, 3590);
    assert!(store.token_expiring());
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    assert_eq!(
        standin.grants(),
        ["client_credentials", "client_credentials"]
    );
    assert_eq!(standin.used.lock().unwrap().last().unwrap(), "tok-2");
    assert!(!store.token_expiring());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_machine_token_is_replaced_once_and_the_request_retried() {
    let (url, standin) = standin().await;
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "m2m");
    let session = connect_to(&url, &store).await;

    // The server forgets the token early (rotated keys): the 401 brings a new one and the call goes through.
    standin.revoke_all();
    assert_eq!(session.list_tools().await.unwrap()[0].name, "echo");
    assert_eq!(
        standin.grants(),
        ["client_credentials", "client_credentials"]
    );
    assert_eq!(standin.used.lock().unwrap().last().unwrap(), "tok-2");

    // A server that refuses every token gets one new token per request, not a loop.
    standin.refuse_all.store(true, Ordering::SeqCst);
    assert!(session.list_tools().await.is_err());
    assert_eq!(standin.grants().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_from_an_earlier_run_is_replaced_at_connect() {
    let (url, standin) = standin().await;
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "m2m");
    drop(connect_to(&url, &store).await);
    age_token(&store, 7200);
    standin.revoke_all();

    let session = connect_to(&url, &store).await;
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    assert_eq!(
        standin.grants(),
        ["client_credentials", "client_credentials"]
    );
}
