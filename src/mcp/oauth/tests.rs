#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use rmcp::transport::auth::{OAuthTokenResponse, StoredCredentials};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

/// A resource server and its authorization server on one loopback port; records the token requests' bodies.
async fn authorization_server() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let token_requests = Arc::new(Mutex::new(Vec::new()));
    let (seen, origin) = (Arc::clone(&token_requests), base.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let (seen, origin) = (Arc::clone(&seen), origin.clone());
            tokio::spawn(async move {
                let mut raw = Vec::new();
                let mut buf = [0u8; 4096];
                // Headers, then as much body as Content-Length says.
                let body = loop {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    raw.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&raw).to_string();
                    if let Some((head, body)) = text.split_once("\r\n\r\n") {
                        let length = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if body.len() >= length {
                            break (head.to_string(), body.to_string());
                        }
                    }
                };
                let (head, body) = body;
                let target = head.split(' ').nth(1).unwrap_or("/").to_string();
                let json = if target.starts_with("/.well-known/oauth-protected-resource") {
                    serde_json::json!({"resource": format!("{origin}/mcp"), "authorization_servers": [origin]})
                } else if target.starts_with("/.well-known/oauth-authorization-server") {
                    serde_json::json!({
                        "issuer": origin,
                        "authorization_endpoint": format!("{origin}/authorize"),
                        "token_endpoint": format!("{origin}/token"),
                        "response_types_supported": ["code"],
                        "code_challenge_methods_supported": ["S256"]
                    })
                } else if target == "/token" {
                    seen.lock().unwrap().push(body);
                    serde_json::json!({"access_token": "fresh", "token_type": "Bearer",
                                       "expires_in": 3600, "refresh_token": "r2"})
                } else {
                    serde_json::Value::Null
                };
                let (status, text) = if json.is_null() {
                    ("404 Not Found", String::new())
                } else {
                    ("200 OK", json.to_string())
                };
                let reply = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
            });
        }
    });
    (base, token_requests)
}

fn stored(url: &str, expires_in: u64, received_secs_ago: u64) -> TokenFile {
    let tokens: OAuthTokenResponse = serde_json::from_value(serde_json::json!({
        "access_token": "old", "token_type": "bearer",
        "expires_in": expires_in, "refresh_token": "r1"
    }))
    .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    TokenFile {
        url: Some(url.to_string()),
        client_secret: None,
        redirect_uri: Some("http://127.0.0.1:1/callback".into()),
        credentials: Some(StoredCredentials::new(
            "client-1".into(),
            Some(tokens),
            vec![],
            Some(now - received_secs_ago),
        )),
    }
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_before_use() {
    let (base, token_requests) = authorization_server().await;
    let url = format!("{base}/mcp");
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "remote");
    store.write(&stored(&url, 60, 3600)).unwrap();

    let client = authorized_client(&url, &store).await.unwrap().unwrap();
    assert_eq!(client.get_access_token().await.unwrap(), "fresh");
    let requests = token_requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0].contains("grant_type=refresh_token"),
        "{requests:?}"
    );
    assert!(requests[0].contains("refresh_token=r1"), "{requests:?}");
    // The new tokens replace the old ones on disk, still private.
    let text = std::fs::read_to_string(store.path()).unwrap();
    assert!(
        text.contains("fresh") && !text.contains("\"old\""),
        "{text}"
    );
}

#[tokio::test]
async fn a_fresh_token_is_used_as_stored_and_only_for_its_own_url() {
    let (base, token_requests) = authorization_server().await;
    let url = format!("{base}/mcp");
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "remote");
    store.write(&stored(&url, 3600, 0)).unwrap();

    let client = authorized_client(&url, &store).await.unwrap().unwrap();
    assert_eq!(client.get_access_token().await.unwrap(), "old");
    assert!(token_requests.lock().unwrap().is_empty());
    // A config that points the same name at another URL gets no tokens.
    let elsewhere = format!("{base}/other");
    assert!(
        authorized_client(&elsewhere, &store)
            .await
            .unwrap()
            .is_none()
    );
}
