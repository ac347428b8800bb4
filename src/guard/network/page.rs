//! Which pages the browser may open: `web_fetch`'s scheme and address rules, judged on the resolved addresses,
//! with two ways past the address rule. A loopback page opens when `[browser] allow_local` is on (the user's own
//! setting: developers test their `localhost:3000`); any non-public host opens when the user's own message named
//! it (host and port). Nothing a page or a tool result says can name a host. See `docs/browser.md`.

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::sync::{Arc, LazyLock};

use regex::Regex;
use url::{Host, Url};

use super::{NetworkError, NetworkPolicy, Resolver, blocked_reason, is_local_name};
use crate::guard::constant_regex::constant_regex;
use crate::guard::urls::urls_in_text;

/// A page with nothing in it, which `new_page` and tab resets use.
const BLANK: &str = "about:blank";

// `localhost:3000` written without a scheme, as developers do; a port is required (a bare word is no address).
const LOCAL_MENTION: &str =
    r"(?i)((?-u:\b)localhost|(?-u:\b)127\.0\.0\.1|\[::1\]):[0-9]{1,5}(?-u:\b)";

static LOCAL_MENTION_RE: LazyLock<Regex> = LazyLock::new(|| constant_regex(LOCAL_MENTION));

/// Why the browser may not open a URL. The text goes to the model, in English and Chinese.
#[derive(Debug, thiserror::Error)]
pub enum PageRefusal {
    #[error(
        "the browser opens only http and https pages, not {0:?} URLs; 浏览器只能打开 http/https 页面，不能打开 {0} 地址"
    )]
    Scheme(String),
    #[error("{url:?} is not a valid URL ({message}); {url:?} 不是有效的网址")]
    Invalid { url: String, message: String },
    #[error("{0:?} has no host; {0:?} 没有主机名")]
    NoHost(String),
    #[error("cannot resolve {host}: {message}; 无法解析主机 {host}")]
    Unresolvable { host: String, message: String },
    #[error(
        "{url} is a page on this machine (loopback), which the browser opens only when the user names it in their \
         message or sets `[browser] allow_local = true` in their own config; do not retry it, ask the user. \
         {url} 是本机（回环）页面：只有用户在消息里写出它，或在自己的配置中设置 `[browser] allow_local = true` 时，\
         浏览器才会打开；请勿重试，先询问用户"
    )]
    Loopback { url: String },
    #[error(
        "{url} resolves to {ip}, which is {reason}; the browser opens non-public addresses only when the user names \
         the host in their message; do not retry it, ask the user. {url} 解析到非公网地址 {ip}：只有用户在消息里\
         写出该主机时浏览器才会打开；请勿重试，先询问用户"
    )]
    NonPublic {
        url: String,
        ip: IpAddr,
        reason: &'static str,
    },
}

/// Where a URL leads, judged by every address its host resolves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageTarget {
    /// `about:blank`.
    Blank,
    /// Only public addresses.
    Public,
    /// This machine only (`localhost`, 127/8, `::1`, their IPv6 forms).
    Loopback,
    /// At least one address that is neither public nor loopback (private, link-local, metadata, …).
    NonPublic { ip: IpAddr, reason: &'static str },
}

/// The hosts (with port) the user named in their own messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamedHosts(BTreeSet<(String, u16)>);

impl NamedHosts {
    /// Adds the http(s) URLs and the `localhost:PORT` / `127.0.0.1:PORT` mentions in `text`.
    pub fn add_text(&mut self, text: &str) {
        // Every mention holds a `:` before its port; text without one does not compile the pattern.
        let bare = text
            .contains(':')
            .then(|| LOCAL_MENTION_RE.find_iter(text))
            .into_iter()
            .flatten()
            .map(|m| format!("http://{}", m.as_str()));
        for raw in urls_in_text(text).into_iter().chain(bare) {
            if let Some(key) = Url::parse(&raw).ok().as_ref().and_then(host_key) {
                self.0.insert(key);
            }
        }
    }

    /// Whether the user named `url`'s host and port.
    pub fn contains(&self, url: &Url) -> bool {
        host_key(url).is_some_and(|key| self.0.contains(&key))
    }
}

/// A URL's host as the parser spells it (lower case, IPv6 in brackets) and its port.
fn host_key(url: &Url) -> Option<(String, u16)> {
    let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    Some((host, url.port_or_known_default()?))
}

/// The browser's page rules.
pub struct PageRules {
    allow_local: bool,
    /// Only resolves: the address rule is judged here, not by the fetch policy.
    lookup: NetworkPolicy,
}

impl PageRules {
    /// Rules that open loopback pages without naming when `allow_local`.
    pub fn new(allow_local: bool) -> Self {
        PageRules {
            allow_local,
            lookup: NetworkPolicy::new(true, 0),
        }
    }

    /// The same rules with another resolver (tests).
    pub fn with_resolver(mut self, resolver: Arc<dyn Resolver>) -> Self {
        self.lookup = self.lookup.with_resolver(resolver);
        self
    }

    /// Whether the browser may open `raw`, given the hosts the user named.
    pub async fn check(&self, raw: &str, named: &NamedHosts) -> Result<(), PageRefusal> {
        let raw = raw.trim();
        let url = Url::parse(raw).map_err(|e| PageRefusal::Invalid {
            url: raw.to_string(),
            message: e.to_string(),
        })?;
        let refused_loopback = || PageRefusal::Loopback {
            url: url.to_string(),
        };
        match self.target(&url).await? {
            PageTarget::Blank | PageTarget::Public => Ok(()),
            PageTarget::Loopback if self.allow_local || named.contains(&url) => Ok(()),
            PageTarget::Loopback => Err(refused_loopback()),
            PageTarget::NonPublic { .. } if named.contains(&url) => Ok(()),
            PageTarget::NonPublic { ip, reason } => Err(PageRefusal::NonPublic {
                url: url.to_string(),
                ip,
                reason,
            }),
        }
    }

    /// Where `url` leads.
    pub async fn target(&self, url: &Url) -> Result<PageTarget, PageRefusal> {
        if url.as_str() == BLANK {
            return Ok(PageTarget::Blank);
        }
        // Chrome sends every `*.localhost` name to this machine itself, whatever DNS says.
        if let Some(Host::Domain(name)) = url.host()
            && matches!(url.scheme(), "http" | "https")
            && is_local_name(&name.trim_end_matches('.').to_ascii_lowercase())
        {
            return Ok(PageTarget::Loopback);
        }
        let admitted = self.lookup.admit(url).await.map_err(|e| match e {
            NetworkError::Scheme(scheme) => PageRefusal::Scheme(scheme),
            NetworkError::Unresolvable { host, message } => {
                PageRefusal::Unresolvable { host, message }
            }
            _ => PageRefusal::NoHost(url.to_string()),
        })?;
        let mut target = PageTarget::Public;
        for addr in &admitted.addrs {
            let ip = addr.ip();
            let Some(reason) = blocked_reason(ip) else {
                continue;
            };
            if !is_loopback(ip) {
                // One such address is enough: the browser could connect to it.
                return Ok(PageTarget::NonPublic { ip, reason });
            }
            target = PageTarget::Loopback;
        }
        Ok(target)
    }
}

/// 127/8 and `::1`, also written as IPv4-mapped or IPv4-compatible IPv6. Relayed forms (6to4, NAT64, Teredo)
/// of 127.0.0.1 stay non-public: they leave this machine, and `allow_local` does not open them.
fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            if v6.is_loopback() {
                return true;
            }
            let s = v6.segments();
            let embedded = std::net::Ipv4Addr::from_bits((u32::from(s[6]) << 16) | u32::from(s[7]));
            let mapped = s[..5].iter().all(|seg| *seg == 0) && s[5] == 0xffff;
            let compatible = s[..6].iter().all(|seg| *seg == 0);
            (mapped || compatible) && embedded.is_loopback()
        }
    }
}

#[cfg(test)]
mod tests;
