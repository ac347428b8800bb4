//! NetworkPolicy for `web_fetch`: which URLs may be fetched, checked on the resolved addresses (not the name), and
//! how often.
//!
//! The check returns the addresses it approved; the fetcher connects to exactly those (no second DNS lookup), so a
//! name that answers differently the second time (DNS rebinding) cannot slip through. Every redirect hop is checked
//! again through [`HopCheck`]. The browser's page rules ([`page`]) reuse the same address checks.

mod ip;
pub mod page;
mod rate;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use url::{Host, Url};

pub use ip::blocked_reason;
pub use page::{NamedHosts, PageRefusal, PageRules, PageTarget};
pub use rate::RateLimiter;

/// PaiCLI's limit: 30 fetches per 60 s window (a setting's default, so config owns it).
pub use crate::config::DEFAULT_REQUESTS_PER_MINUTE;

/// Why a URL may not be fetched.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    #[error("only http and https URLs can be fetched, not {0:?}")]
    Scheme(String),
    #[error("the URL has no host")]
    NoHost,
    #[error("{0} is a local host name; only public hosts can be fetched")]
    LocalName(String),
    #[error("{host} resolves to {ip}, which is {reason}; only public addresses can be fetched")]
    Blocked {
        host: String,
        ip: IpAddr,
        reason: &'static str,
    },
    #[error("cannot resolve {host}: {message}")]
    Unresolvable { host: String, message: String },
    #[error("rate limit reached; try again in {} s", retry_after.as_secs().max(1))]
    RateLimited { retry_after: Duration },
}

/// Looks up a host name; a test can answer with addresses of its choice.
#[async_trait]
pub trait Resolver: Send + Sync {
    /// The socket addresses for `host` at `port`.
    async fn resolve(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>>;
}

/// The operating system's resolver.
#[derive(Debug, Default)]
pub struct SystemResolver;

#[async_trait]
impl Resolver for SystemResolver {
    async fn resolve(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
        Ok(tokio::net::lookup_host((host, port)).await?.collect())
    }
}

/// A URL that passed the policy, with the addresses the connection must use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admitted {
    pub url: Url,
    /// The host name to pin to `addrs`; `None` for an IP literal (nothing to resolve).
    pub domain: Option<String>,
    pub addrs: Vec<SocketAddr>,
}

/// Decides each hop of a fetch (the first URL and every redirect target).
#[async_trait]
pub trait HopCheck: Send + Sync {
    /// Checks `url`, the `hop`-th URL of one fetch (0 = the one the model asked for).
    async fn check_hop(&self, url: &Url, hop: usize) -> Result<Admitted, NetworkError>;
}

/// The SSRF rules and the rate limit.
pub struct NetworkPolicy {
    allow_private_hosts: bool,
    resolver: Arc<dyn Resolver>,
    limiter: RateLimiter,
}

impl NetworkPolicy {
    /// A policy using the system resolver; `requests_per_minute` 0 means unlimited.
    pub fn new(allow_private_hosts: bool, requests_per_minute: u32) -> Self {
        NetworkPolicy {
            allow_private_hosts,
            resolver: Arc::new(SystemResolver),
            limiter: RateLimiter::new(requests_per_minute, Duration::from_secs(60)),
        }
    }

    /// The same policy with another resolver.
    pub fn with_resolver(mut self, resolver: Arc<dyn Resolver>) -> Self {
        self.resolver = resolver;
        self
    }

    /// Counts one fetch against the rate limit.
    pub fn acquire(&self) -> Result<(), NetworkError> {
        self.limiter
            .acquire()
            .map_err(|retry_after| NetworkError::RateLimited { retry_after })
    }

    /// Checks the scheme, the host name and every address it resolves to.
    pub async fn admit(&self, url: &Url) -> Result<Admitted, NetworkError> {
        let scheme = url.scheme();
        if scheme != "http" && scheme != "https" {
            return Err(NetworkError::Scheme(scheme.to_string()));
        }
        let port = url.port_or_known_default().unwrap_or(80);
        let (domain, addrs) = match url.host() {
            None => return Err(NetworkError::NoHost),
            // The URL parser has already turned decimal, octal and hex forms (`2130706433`) into an address.
            Some(Host::Ipv4(v4)) => (None, vec![SocketAddr::new(IpAddr::V4(v4), port)]),
            Some(Host::Ipv6(v6)) => (None, vec![SocketAddr::new(IpAddr::V6(v6), port)]),
            Some(Host::Domain(name)) => {
                let name = name.trim_end_matches('.').to_ascii_lowercase();
                if !self.allow_private_hosts && is_local_name(&name) {
                    return Err(NetworkError::LocalName(name));
                }
                let addrs = self.resolver.resolve(&name, port).await.map_err(|e| {
                    NetworkError::Unresolvable {
                        host: name.clone(),
                        message: e.to_string(),
                    }
                })?;
                if addrs.is_empty() {
                    return Err(NetworkError::Unresolvable {
                        host: name,
                        message: "no addresses".to_string(),
                    });
                }
                (Some(name), addrs)
            }
        };
        if !self.allow_private_hosts {
            // One bad answer rejects the host: the connection could otherwise land on it.
            for addr in &addrs {
                if let Some(reason) = blocked_reason(addr.ip()) {
                    return Err(NetworkError::Blocked {
                        host: url.host_str().unwrap_or_default().to_string(),
                        ip: addr.ip(),
                        reason,
                    });
                }
            }
        }
        Ok(Admitted {
            url: url.clone(),
            domain,
            addrs,
        })
    }
}

#[async_trait]
impl HopCheck for NetworkPolicy {
    async fn check_hop(&self, url: &Url, _hop: usize) -> Result<Admitted, NetworkError> {
        self.admit(url).await
    }
}

fn is_local_name(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost") || name == "localhost.localdomain"
}

#[cfg(test)]
mod tests;
