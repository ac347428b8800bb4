//! The HTTP side of `web_fetch`: one GET per hop, each hop admitted by the network policy and connected to exactly
//! the addresses the policy approved; redirects followed by hand; the body read under a size cap.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION, USER_AGENT};
use tokio::time::Instant;
use url::Url;

use crate::guard::network::{HopCheck, NetworkError};
use crate::llm::client::tls;

/// Limits of one fetch.
#[derive(Clone, Debug)]
pub struct FetchLimits {
    /// Largest body read (PaiCLI: 5 MB).
    pub max_bytes: usize,
    /// Redirects followed before giving up.
    pub max_redirects: usize,
    pub connect_timeout: Duration,
    /// For the whole fetch, all hops included.
    pub total_timeout: Duration,
}

impl Default for FetchLimits {
    fn default() -> Self {
        FetchLimits {
            max_bytes: 5 * 1024 * 1024,
            max_redirects: 5,
            connect_timeout: Duration::from_secs(10),
            total_timeout: Duration::from_secs(30),
        }
    }
}

/// A response body and where it finally came from.
#[derive(Clone, Debug)]
pub struct FetchedPage {
    pub url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// Why a fetch failed.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(transparent)]
    Policy(#[from] NetworkError),
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    #[error("redirect without a usable Location header from {0}")]
    BadRedirect(Url),
    #[error("the response is larger than the {} MB limit", limit / (1024 * 1024))]
    TooLarge { limit: usize },
    #[error("no complete response within {} s", .0.as_secs())]
    Timeout(Duration),
    #[error("request to {url} failed: {message}")]
    Http { url: Url, message: String },
}

/// GETs `url`, consulting `check` for every hop.
pub async fn fetch(
    url: Url,
    check: &dyn HopCheck,
    limits: &FetchLimits,
) -> Result<FetchedPage, FetchError> {
    let deadline = Instant::now() + limits.total_timeout;
    match tokio::time::timeout_at(deadline, follow(url, check, limits, deadline)).await {
        Ok(result) => result,
        Err(_) => Err(FetchError::Timeout(limits.total_timeout)),
    }
}

async fn follow(
    mut url: Url,
    check: &dyn HopCheck,
    limits: &FetchLimits,
    deadline: Instant,
) -> Result<FetchedPage, FetchError> {
    for hop in 0..=limits.max_redirects {
        let admitted = check.check_hop(&url, hop).await?;
        let http_err = |e: reqwest::Error| {
            // The client's own timeout is the fetch's deadline: whichever timer fires first, it is a timeout.
            if e.is_timeout() {
                FetchError::Timeout(limits.total_timeout)
            } else {
                FetchError::Http {
                    url: url.clone(),
                    message: error_chain(&e),
                }
            }
        };
        let mut builder = tls::client_builder(false)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(limits.connect_timeout)
            .timeout(deadline.saturating_duration_since(Instant::now()));
        if let Some(domain) = &admitted.domain {
            // Pin the name to the checked addresses: the connection does no lookup of its own.
            builder = builder.resolve_to_addrs(domain, &admitted.addrs);
        }
        let client = builder.build().map_err(http_err)?;
        let response = client
            .get(url.clone())
            .header(
                USER_AGENT,
                concat!("paicli/", env!("CARGO_PKG_VERSION"), " (web_fetch)"),
            )
            .header(
                ACCEPT,
                "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
            )
            .send()
            .await
            .map_err(http_err)?;
        let status = response.status();
        if status.is_redirection() {
            let next = response
                .headers()
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|loc| url.join(loc).ok())
                .ok_or_else(|| FetchError::BadRedirect(url.clone()))?;
            url = next;
            continue;
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = read_capped(response, limits.max_bytes)
            .await
            .map_err(|e| match e {
                ReadError::TooLarge => FetchError::TooLarge {
                    limit: limits.max_bytes,
                },
                ReadError::Http(e) => http_err(e),
            })?;
        return Ok(FetchedPage {
            url,
            status: status.as_u16(),
            content_type,
            body,
        });
    }
    Err(FetchError::TooManyRedirects(limits.max_redirects))
}

enum ReadError {
    TooLarge,
    Http(reqwest::Error),
}

/// Reads the body chunk by chunk and stops as soon as it passes `max_bytes`.
async fn read_capped(
    mut response: reqwest::Response,
    max_bytes: usize,
) -> Result<Vec<u8>, ReadError> {
    if response
        .content_length()
        .is_some_and(|n| n > max_bytes as u64)
    {
        return Err(ReadError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(ReadError::Http)? {
        if body.len() + chunk.len() > max_bytes {
            return Err(ReadError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The error and its causes on one line (reqwest's top-level message alone says little).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
