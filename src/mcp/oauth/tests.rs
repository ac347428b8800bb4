#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use rmcp::transport::auth::{OAuthTokenResponse, StoredCredentials};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

mod machine_renewal;

/// One HTTP request as the stand-ins see it.
pub(super) struct Request {
    pub method: String,
    pub target: String,
    pub head: String,
    pub body: String,
}

impl Request {
    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.head.lines().find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with(&prefix)
                .then(|| l[prefix.len()..].trim())
        })
    }
}

/// One reply: status line, extra headers, JSON body (empty for none).
pub(super) struct Response {
    pub status: &'static str,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn json(value: serde_json::Value) -> Self {
        Response {
            status: "200 OK",
            headers: Vec::new(),
            body: value.to_string(),
        }
    }

    pub fn status(status: &'static str) -> Self {
        Response {
            status,
            headers: Vec::new(),
            body: String::new(),
        }
    }
}

/// Serves `handle` on a loopback port, one request per connection; returns the origin (`http://127.0.0.1:N`).
pub(super) async fn serve(
    handle: impl Fn(&str, Request) -> Response + Send + Sync + 'static,
) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let handle = Arc::new(handle);
    let base = origin.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let (handle, base) = (Arc::clone(&handle), base.clone());
            tokio::spawn(async move {
                let Some(request) = read_request(&mut socket).await else {
                    return;
                };
                let response = handle(&base, request);
                let mut head = format!(
                    "HTTP/1.1 {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                    response.status,
                    response.body.len()
                );
                for (name, value) in &response.headers {
                    head.push_str(&format!("{name}: {value}\r\n"));
                }
                head.push_str("\r\n");
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(response.body.as_bytes()).await;
            });
        }
    });
    origin
}

/// Headers, then as much body as Content-Length says.
async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Request> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = socket.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            return None;
        }
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).to_string();
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        let length = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
            })
            .unwrap_or(0);
        if body.len() >= length {
            let mut words = head.split(' ');
            return Some(Request {
                method: words.next().unwrap_or_default().to_string(),
                target: words.next().unwrap_or("/").to_string(),
                head: head.to_string(),
                body: body.to_string(),
            });
        }
    }
}

/// The protected-resource and authorization-server metadata of `origin`, or `None` for other targets.
pub(super) fn metadata(origin: &str, target: &str) -> Option<serde_json::Value> {
    if target.starts_with("/.well-known/oauth-protected-resource") {
        Some(
            serde_json::json!({"resource": format!("{origin}/mcp"), "authorization_servers": [origin]}),
        )
    } else if target.starts_with("/.well-known/oauth-authorization-server") {
        Some(serde_json::json!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}/authorize"),
            "token_endpoint": format!("{origin}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"]
        }))
    } else {
        None
    }
}

/// A resource server and its authorization server on one loopback port; records the token requests' bodies.
async fn authorization_server() -> (String, Arc<Mutex<Vec<String>>>) {
    let token_requests = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&token_requests);
    let base = serve(move |origin, request| {
        if let Some(json) = metadata(origin, &request.target) {
            Response::json(json)
        } else if request.target == "/token" {
            seen.lock().unwrap().push(request.body);
            Response::json(
                serde_json::json!({"access_token": "fresh", "token_type": "Bearer",
                                              "expires_in": 3600, "refresh_token": "r2"}),
            )
        } else {
            Response::status("404 Not Found")
        }
    })
    .await;
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

/// The query parameter `name` of a request target, decoded.
fn query(target: &str, name: &str) -> Option<String> {
    let url = url::Url::parse(&format!("http://x{target}")).ok()?;
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.to_string())
}

#[tokio::test]
async fn a_scope_step_up_reuses_the_stored_client() {
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&seen);
    let base = serve(move |origin, request| {
        log.lock()
            .unwrap()
            .push(format!("{} {}", request.method, request.target));
        if let Some(mut json) = metadata(origin, &request.target) {
            if request
                .target
                .starts_with("/.well-known/oauth-authorization-server")
            {
                json["registration_endpoint"] = format!("{origin}/register").into();
            }
            Response::json(json)
        } else if request.target.starts_with("/authorize") {
            let redirect = query(&request.target, "redirect_uri").unwrap_or_default();
            let state = query(&request.target, "state").unwrap_or_default();
            let mut reply = Response::status("302 Found");
            reply.headers.push((
                "Location".into(),
                format!("{redirect}?code=c1&state={state}"),
            ));
            reply
        } else if request.target == "/token" {
            Response::json(
                serde_json::json!({"access_token": "wider", "token_type": "Bearer",
                                              "expires_in": 3600, "scope": "a b"}),
            )
        } else if request.target == "/register" {
            Response::json(serde_json::json!({"client_id": "client-2",
                                              "redirect_uris": ["http://127.0.0.1:1/callback"]}))
        } else {
            Response::status("404 Not Found")
        }
    })
    .await;
    let url = format!("{base}/mcp");
    let home = tempfile::tempdir().unwrap();
    let store = TokenStore::new(home.path(), "remote");
    let free_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut file = stored(&url, 3600, 0);
    file.redirect_uri = Some(format!("http://127.0.0.1:{free_port}/callback"));
    store.write(&file).unwrap();

    let show = |_: &str| {};
    let open = |auth_url: &str| {
        let auth_url = auth_url.to_string();
        tokio::spawn(async move {
            let _ = reqwest::get(auth_url).await;
        });
    };
    let challenge = format!(
        r#"Bearer error="insufficient_scope", scope="a b", resource_metadata="{base}/.well-known/oauth-protected-resource""#
    );
    let browser = BrowserStep {
        show: &show,
        open: &open,
    };
    step_up(&url, &OAuthSettings::default(), &store, browser, &challenge)
        .await
        .unwrap();

    let requests = seen.lock().unwrap().clone();
    assert!(
        !requests.iter().any(|r| r.starts_with("POST /register")),
        "{requests:?}"
    );
    let authorize = requests
        .iter()
        .find(|r| r.starts_with("GET /authorize"))
        .unwrap();
    assert_eq!(
        query(&authorize[4..], "client_id").as_deref(),
        Some("client-1")
    );
    let file = store.read().unwrap().unwrap();
    assert_eq!(file.credentials.unwrap().client_id, "client-1");
    assert_eq!(
        file.redirect_uri,
        Some(format!("http://127.0.0.1:{free_port}/callback"))
    );
}
