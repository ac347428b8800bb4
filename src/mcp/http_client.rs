//! The HTTP client behind streamable-HTTP MCP servers: rmcp's default settings on paicli's shared TLS, so
//! connecting one reads the system roots at most once per process and only when the server speaks `https`.

use reqwest::StatusCode;
use reqwest::redirect::{Attempt, Policy};

use super::session::McpError;
use crate::llm::client::tls;

/// Most redirects followed for one request (as rmcp's default client).
const MAX_REDIRECTS: usize = 10;

/// A client with rmcp's default settings: no idle pooling, same-origin 307/308 redirects only.
pub fn mcp_http_client() -> Result<reqwest::Client, McpError> {
    tls::client_builder(false)
        // Reusing a connection whose previous body was not fully read stalls ~40 ms on delayed ACK.
        .pool_max_idle_per_host(0)
        .redirect(Policy::custom(same_origin_redirect))
        .build()
        .map_err(|e| McpError::Config(format!("cannot build the HTTP client: {e}")))
}

/// Follows only 307/308 (they keep the POST body) to the same origin (the session id and custom headers must
/// not reach another host); any other redirect comes back to rmcp as the response.
fn same_origin_redirect(attempt: Attempt<'_>) -> reqwest::redirect::Action {
    let preserves_body = matches!(
        attempt.status(),
        StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
    );
    let same_origin = attempt
        .previous()
        .first()
        .is_some_and(|original| original.origin() == attempt.url().origin());
    if !preserves_body || !same_origin {
        attempt.stop()
    } else if attempt.previous().len() > MAX_REDIRECTS {
        attempt.error(format!("exceeded {MAX_REDIRECTS} redirects"))
    } else {
        attempt.follow()
    }
}
