//! 2025-03-26 servers: no protected-resource metadata, the authorization server's metadata at the root of the
//! MCP server's origin. Such a document may name an issuer with a path (`https://host/oauth`) that RFC 8414's
//! issuer check refuses, so rmcp rejects it; the 2025-03-26 spec makes the origin the authorization base, so
//! paicli takes the document when every endpoint in it is on that same origin (nothing is sent elsewhere).

use rmcp::transport::auth::AuthorizationMetadata;
use url::Url;

use crate::mcp::http_client::mcp_http_client;

/// The metadata at `<origin of url>/.well-known/oauth-authorization-server`, when it is usable.
pub async fn root_metadata(url: &str) -> Option<AuthorizationMetadata> {
    let server = Url::parse(url).ok()?;
    let location = server
        .join("/.well-known/oauth-authorization-server")
        .ok()?;
    let reply = mcp_http_client()
        .ok()?
        .get(location)
        .header("MCP-Protocol-Version", "2025-03-26")
        .send()
        .await
        .ok()?;
    if !reply.status().is_success() {
        return None;
    }
    let metadata: AuthorizationMetadata = reply.json().await.ok()?;
    same_origin_endpoints(&server, &metadata).then_some(metadata)
}

/// True when the authorization, token and (if any) registration endpoints share `server`'s origin.
fn same_origin_endpoints(server: &Url, metadata: &AuthorizationMetadata) -> bool {
    let endpoints = [
        Some(&metadata.authorization_endpoint),
        Some(&metadata.token_endpoint),
        metadata.registration_endpoint.as_ref(),
    ];
    endpoints
        .into_iter()
        .flatten()
        .all(|endpoint| Url::parse(endpoint).is_ok_and(|e| e.origin() == server.origin()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn metadata(authorize: &str, token: &str) -> AuthorizationMetadata {
        serde_json::from_value(serde_json::json!({
            "authorization_endpoint": authorize,
            "token_endpoint": token,
            "issuer": "http://127.0.0.1:9/oauth",
        }))
        .unwrap()
    }

    #[test]
    fn endpoints_must_stay_on_the_servers_origin() {
        let server = Url::parse("http://127.0.0.1:9/mcp").unwrap();
        let local = metadata(
            "http://127.0.0.1:9/oauth/authorize",
            "http://127.0.0.1:9/oauth/token",
        );
        assert!(same_origin_endpoints(&server, &local));
        let elsewhere = metadata(
            "http://127.0.0.1:9/oauth/authorize",
            "http://evil.example/token",
        );
        assert!(!same_origin_endpoints(&server, &elsewhere));
        let other_port = metadata("http://127.0.0.1:10/authorize", "http://127.0.0.1:9/token");
        assert!(!same_origin_endpoints(&server, &other_port));
    }
}
