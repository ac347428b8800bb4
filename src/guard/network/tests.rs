#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::*;

/// Answers from a fixed table, so tests control what a name resolves to (the page rules' tests use it too).
pub(super) struct TableResolver(pub(super) HashMap<&'static str, Vec<IpAddr>>);

#[async_trait]
impl Resolver for TableResolver {
    async fn resolve(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
        match self.0.get(host) {
            Some(ips) => Ok(ips.iter().map(|ip| SocketAddr::new(*ip, port)).collect()),
            None => Err(std::io::Error::other("unknown host")),
        }
    }
}

fn strict() -> NetworkPolicy {
    let table = HashMap::from([
        ("public.example", vec!["93.184.215.14".parse().unwrap()]),
        ("intranet.example", vec!["127.0.0.1".parse().unwrap()]),
        (
            "mixed.example",
            vec![
                "93.184.215.14".parse().unwrap(),
                "10.1.2.3".parse().unwrap(),
            ],
        ),
        ("v6only.example", vec!["2606:4700::1111".parse().unwrap()]),
    ]);
    NetworkPolicy::new(false, 30).with_resolver(Arc::new(TableResolver(table)))
}

async fn admit(policy: &NetworkPolicy, url: &str) -> Result<Admitted, NetworkError> {
    policy.admit(&Url::parse(url).unwrap()).await
}

#[tokio::test]
async fn public_hosts_are_admitted_with_their_resolved_addresses() {
    let policy = strict();
    let ok = admit(&policy, "https://public.example/a?b=c")
        .await
        .unwrap();
    assert_eq!(ok.domain.as_deref(), Some("public.example"));
    assert_eq!(ok.addrs, vec!["93.184.215.14:443".parse().unwrap()]);
    let ok = admit(&policy, "http://v6only.example:8080/").await.unwrap();
    assert_eq!(ok.addrs, vec!["[2606:4700::1111]:8080".parse().unwrap()]);
    let ok = admit(&policy, "http://8.8.8.8/").await.unwrap();
    assert_eq!(ok.domain, None);
}

#[tokio::test]
async fn only_http_and_https_are_fetched() {
    let policy = strict();
    for url in [
        "ftp://public.example/",
        "file:///etc/passwd",
        "gopher://public.example/",
    ] {
        assert!(
            matches!(admit(&policy, url).await, Err(NetworkError::Scheme(_))),
            "{url}"
        );
    }
}

#[tokio::test]
async fn local_names_are_refused_before_any_lookup() {
    let policy = strict();
    for url in [
        "http://localhost/",
        "http://LOCALHOST:8080/",
        "http://localhost./",
        "http://api.localhost/",
    ] {
        assert!(
            matches!(admit(&policy, url).await, Err(NetworkError::LocalName(_))),
            "{url}"
        );
    }
}

#[tokio::test]
async fn every_blocked_range_is_refused() {
    let policy = strict();
    let cases = [
        ("http://0.0.0.0/", "unspecified"),
        ("http://127.0.0.1/", "loopback"),
        ("http://127.8.9.10/", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://[::]/", "unspecified"),
        ("http://10.0.0.1/", "private"),
        ("http://172.16.5.4/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[fd00::1]/", "unique-local"),
        ("http://[fc00::1]/", "unique-local"),
        ("http://100.64.0.1/", "carrier-grade NAT"),
        ("http://100.127.255.254/", "carrier-grade NAT"),
        ("http://224.0.0.1/", "multicast"),
        ("http://[ff02::1]/", "multicast"),
        ("http://255.255.255.255/", "broadcast"),
        ("http://192.0.2.1/", "documentation"),
        ("http://198.18.0.1/", "benchmarking"),
        ("http://[::ffff:127.0.0.1]/", "IPv4-mapped"),
        ("http://[::ffff:10.0.0.1]/", "IPv4-mapped"),
        ("http://[::127.0.0.1]/", "IPv4-compatible"),
        // The URL parser reads these as 127.0.0.1, like a browser would.
        ("http://2130706433/", "loopback"),
        ("http://0x7f000001/", "loopback"),
        ("http://0177.0.0.1/", "loopback"),
        ("http://127.1/", "loopback"),
    ];
    for (url, expected) in cases {
        match admit(&policy, url).await {
            Err(NetworkError::Blocked { reason, .. }) => {
                assert!(reason.contains(expected), "{url}: {reason}")
            }
            other => panic!("{url}: expected a block ({expected}), got {other:?}"),
        }
    }
}

#[tokio::test]
async fn ranges_next_to_blocked_ones_stay_public() {
    let policy = strict();
    for url in [
        "http://100.63.255.255/",
        "http://100.128.0.1/",
        "http://172.32.0.1/",
        "http://11.0.0.1/",
        "http://[2606:4700::1111]/",
    ] {
        assert!(admit(&policy, url).await.is_ok(), "{url}");
    }
}

#[tokio::test]
async fn a_name_is_judged_by_what_it_resolves_to() {
    let policy = strict();
    let err = admit(&policy, "http://intranet.example/")
        .await
        .unwrap_err();
    assert!(
        matches!(err, NetworkError::Blocked { ip, .. } if ip == IpAddr::from([127, 0, 0, 1])),
        "{err:?}"
    );
    // One private answer among public ones is enough to refuse: the connection could pick it.
    let err = admit(&policy, "http://mixed.example/").await.unwrap_err();
    assert!(matches!(err, NetworkError::Blocked { .. }), "{err:?}");
    let err = admit(&policy, "http://nowhere.example/").await.unwrap_err();
    assert!(matches!(err, NetworkError::Unresolvable { .. }), "{err:?}");
}

#[tokio::test]
async fn the_system_resolver_path_refuses_localhost_with_a_trailing_dot() {
    let policy = NetworkPolicy::new(false, 30);
    let err = admit(&policy, "http://localhost./x").await.unwrap_err();
    assert!(matches!(err, NetworkError::LocalName(_)), "{err:?}");
}

#[tokio::test]
async fn allow_private_hosts_lets_local_servers_through() {
    let policy = NetworkPolicy::new(true, 30);
    let ok = admit(&policy, "http://127.0.0.1:9/").await.unwrap();
    assert_eq!(ok.addrs, vec!["127.0.0.1:9".parse().unwrap()]);
    let ok = admit(&policy, "http://localhost:9/").await.unwrap();
    assert!(ok.addrs.iter().all(|a| a.ip().is_loopback()), "{ok:?}");
    // The scheme rule still holds.
    assert!(matches!(
        admit(&policy, "file:///etc/hosts").await,
        Err(NetworkError::Scheme(_))
    ));
}

#[tokio::test(start_paused = true)]
async fn the_rate_limit_is_a_fixed_window_of_thirty_per_minute() {
    let policy = NetworkPolicy::new(false, DEFAULT_REQUESTS_PER_MINUTE);
    for i in 0..30 {
        assert!(policy.acquire().is_ok(), "request {i}");
    }
    match policy.acquire() {
        Err(NetworkError::RateLimited { retry_after }) => {
            assert_eq!(retry_after, Duration::from_secs(60))
        }
        other => panic!("expected the limit, got {other:?}"),
    }
    tokio::time::advance(Duration::from_secs(59)).await;
    assert!(policy.acquire().is_err());
    tokio::time::advance(Duration::from_secs(1)).await;
    assert!(policy.acquire().is_ok(), "a new window starts after 60 s");
}

#[tokio::test]
async fn ipv6_literals_embedding_loopback_are_refused_before_any_connection() {
    let policy = strict();
    for url in [
        "http://[::ffff:0:7f00:1]/",
        "http://[2002:7f00:1::1]/",
        "http://[::127.0.0.1]/",
        "http://[2001:0:7f00:1::]/",
        "http://[64:ff9b::7f00:1]/",
    ] {
        assert!(
            matches!(admit(&policy, url).await, Err(NetworkError::Blocked { .. })),
            "{url}"
        );
    }
}
