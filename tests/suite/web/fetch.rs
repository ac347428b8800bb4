//! `web_fetch` and the fetcher against a local server.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use async_trait::async_trait;
use paicli::guard::network::{Admitted, HopCheck, NetworkError, NetworkPolicy, Resolver};
use paicli::guard::path_guard::PathGuard;
use paicli::tools::web::{FetchError, FetchLimits, WebFetch, fetch::fetch};
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome};
use serde_json::{Map, Value, json};
use url::Url;

use super::stub::{Stub, StubResponse};

const PAGE: &str = "<!doctype html><html><head><title>Local Page</title><script>x()</script></head>\
<body><nav>Menu</nav><article><h1>Hello</h1><p>Fetched <em>fine</em>.</p></article><footer>f</footer></body></html>";

fn site() -> Stub {
    Stub::start(|req| match req.path() {
        "/page" => StubResponse::new(200, "text/html; charset=utf-8", PAGE),
        "/to-page" => StubResponse::redirect("/page"),
        "/loop" => StubResponse::redirect("/loop"),
        "/big" => StubResponse::new(200, "text/plain", vec![b'a'; 5 * 1024 * 1024 + 1]),
        "/big-chunked" => StubResponse {
            status: 200,
            // No Content-Length: the cap has to trip while streaming.
            headers: vec![
                ("content-type".into(), "text/plain".into()),
                ("transfer-encoding".into(), "chunked".into()),
            ],
            body: vec![b'a'; 5 * 1024 * 1024 + 1],
        },
        "/just-fits" => StubResponse::new(200, "text/plain", vec![b'a'; 5 * 1024 * 1024]),
        path if path.starts_with("/go/") => {
            // `/go/<port>/<host>` redirects to that host on the stub's port.
            let rest = &path["/go/".len()..];
            let (port, host) = rest.split_once('/').unwrap();
            StubResponse::redirect(&format!("http://{host}:{port}/page"))
        }
        _ => StubResponse::new(404, "text/plain", "not found"),
    })
}

fn ctx() -> (ToolContext, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let guard = PathGuard::new(dir.path()).unwrap();
    let spill = SpillStore::new(dir.path(), false, 32_000);
    (ToolContext::new(guard, spill, ToolLimits::default()), dir)
}

async fn run(tool: &WebFetch, args: Value) -> ToolOutcome {
    let (ctx, _dir) = ctx();
    let args: Map<String, Value> = args.as_object().unwrap().clone();
    tool.execute(&args, &ctx).await
}

/// Resolves names from a table, so a test decides where a "public" name points.
struct TableResolver(HashMap<&'static str, IpAddr>);

#[async_trait]
impl Resolver for TableResolver {
    async fn resolve(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
        self.0
            .get(host)
            .map(|ip| vec![SocketAddr::new(*ip, port)])
            .ok_or_else(|| std::io::Error::other("no such host"))
    }
}

/// `allow_private_hosts` on for the first hop only, as if the first URL were public: every later hop faces the
/// strict policy.
struct FirstHopTrusted {
    open: NetworkPolicy,
    strict: NetworkPolicy,
}

#[async_trait]
impl HopCheck for FirstHopTrusted {
    async fn check_hop(&self, url: &Url, hop: usize) -> Result<Admitted, NetworkError> {
        if hop == 0 {
            self.open.admit(url).await
        } else {
            self.strict.admit(url).await
        }
    }
}

fn first_hop_trusted() -> FirstHopTrusted {
    FirstHopTrusted {
        open: NetworkPolicy::new(true, 0),
        strict: NetworkPolicy::new(false, 0),
    }
}

#[tokio::test]
async fn a_local_page_comes_back_as_markdown_when_private_hosts_are_allowed() {
    let site = site();
    let tool = WebFetch::new(Arc::new(NetworkPolicy::new(true, 30)), 8000);
    let outcome = run(&tool, json!({"url": format!("{}/to-page", site.url())})).await;
    let ToolOutcome::Ok(out) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        out.text,
        format!(
            "Title: Local Page\nURL: {}/page\nLength: 24 chars\n\n# Hello\n\nFetched *fine*.",
            site.url()
        )
    );
    let paths: Vec<String> = site.requests().iter().map(|r| r.target.clone()).collect();
    assert_eq!(paths, vec!["/to-page", "/page"]);
}

#[tokio::test]
async fn loopback_is_refused_by_default() {
    let site = site();
    let tool = WebFetch::new(Arc::new(NetworkPolicy::new(false, 30)), 8000);
    for url in [
        format!("{}/page", site.url()),
        format!("http://localhost:{}/page", site.port()),
        format!("http://2130706433:{}/page", site.port()),
        format!("http://[::ffff:127.0.0.1]:{}/page", site.port()),
    ] {
        let outcome = run(&tool, json!({"url": url})).await;
        assert!(
            matches!(&outcome, ToolOutcome::Denied { code, .. } if code == "NETWORK_BLOCKED"),
            "{url}: {outcome:?}"
        );
    }
    assert!(site.requests().is_empty(), "nothing may reach the server");
}

#[tokio::test]
async fn a_redirect_to_a_private_address_is_refused_at_that_hop() {
    let site = site();
    let limits = FetchLimits::default();
    for host in ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"] {
        let start = Url::parse(&format!("{}/go/{}/{host}", site.url(), site.port())).unwrap();
        let err = fetch(start, &first_hop_trusted(), &limits)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                FetchError::Policy(NetworkError::Blocked { .. } | NetworkError::LocalName(_))
            ),
            "{host}: {err:?}"
        );
    }
    // Only the first hops were served; no redirect target was ever requested.
    assert!(site.requests().iter().all(|r| r.path().starts_with("/go/")));
}

#[tokio::test]
async fn the_connection_goes_to_the_checked_address_without_a_second_lookup() {
    let site = site();
    // `pinned.invalid` exists only in this resolver; the fetch works only if the client uses its answer.
    let resolver = TableResolver(HashMap::from([(
        "pinned.invalid",
        "127.0.0.1".parse().unwrap(),
    )]));
    let policy = NetworkPolicy::new(true, 0).with_resolver(Arc::new(resolver));
    let url = Url::parse(&format!("http://pinned.invalid:{}/page", site.port())).unwrap();
    let page = fetch(url, &policy, &FetchLimits::default()).await.unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(
        site.requests()[0].header("host"),
        Some(format!("pinned.invalid:{}", site.port()).as_str())
    );
    // The strict policy judges the same name by its (loopback) answer.
    let strict = NetworkPolicy::new(false, 0).with_resolver(Arc::new(TableResolver(
        HashMap::from([("pinned.invalid", "127.0.0.1".parse().unwrap())]),
    )));
    let url = Url::parse(&format!("http://pinned.invalid:{}/page", site.port())).unwrap();
    let err = fetch(url, &strict, &FetchLimits::default())
        .await
        .unwrap_err();
    assert!(
        matches!(err, FetchError::Policy(NetworkError::Blocked { .. })),
        "{err:?}"
    );
}

#[tokio::test]
async fn at_most_five_redirects_are_followed() {
    let site = site();
    let policy = NetworkPolicy::new(true, 0);
    let url = Url::parse(&format!("{}/loop", site.url())).unwrap();
    let err = fetch(url, &policy, &FetchLimits::default())
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::TooManyRedirects(5)), "{err:?}");
    assert_eq!(site.requests().len(), 6);
}

#[tokio::test]
async fn bodies_over_five_megabytes_are_refused() {
    let site = site();
    let tool = WebFetch::new(Arc::new(NetworkPolicy::new(true, 0)), 10);
    let outcome = run(&tool, json!({"url": format!("{}/big", site.url())})).await;
    assert_eq!(
        outcome,
        ToolOutcome::failed("the response is larger than the 5 MB limit")
    );
    let outcome = run(&tool, json!({"url": format!("{}/big-chunked", site.url())})).await;
    assert_eq!(
        outcome,
        ToolOutcome::failed("the response is larger than the 5 MB limit")
    );
    let outcome = run(&tool, json!({"url": format!("{}/just-fits", site.url())})).await;
    let ToolOutcome::Ok(out) = outcome else {
        panic!("{outcome:?}")
    };
    assert!(
        out.text.contains("Length: 5242880 chars"),
        "{}",
        &out.text[..100]
    );
    assert!(out.text.ends_with(
        "[truncated: showed 10 of 5242880 chars; call web_fetch with a larger max_chars for more]"
    ));
}

#[tokio::test]
async fn the_rate_limit_turns_into_a_denial() {
    let site = site();
    let tool = WebFetch::new(Arc::new(NetworkPolicy::new(true, 2)), 8000);
    let url = format!("{}/page", site.url());
    assert!(run(&tool, json!({"url": url})).await.is_ok());
    assert!(run(&tool, json!({"url": url})).await.is_ok());
    let outcome = run(&tool, json!({"url": url})).await;
    assert!(
        matches!(&outcome, ToolOutcome::Denied { code, reason } if code == "RATE_LIMITED" && reason.contains("try again")),
        "{outcome:?}"
    );
    assert_eq!(site.requests().len(), 2);
}

#[tokio::test]
async fn bad_urls_and_statuses_are_clear_failures() {
    let site = site();
    let tool = WebFetch::new(Arc::new(NetworkPolicy::new(true, 0)), 8000);
    let outcome = run(&tool, json!({"url": "not a url"})).await;
    assert!(
        matches!(&outcome, ToolOutcome::Failed { reason } if reason.starts_with("invalid URL")),
        "{outcome:?}"
    );
    let outcome = run(&tool, json!({"url": "file:///etc/passwd"})).await;
    assert!(
        matches!(&outcome, ToolOutcome::Denied { code, .. } if code == "NETWORK_BLOCKED"),
        "{outcome:?}"
    );
    let outcome = run(&tool, json!({"url": format!("{}/missing", site.url())})).await;
    assert_eq!(
        outcome,
        ToolOutcome::failed(format!("HTTP 404 from {}/missing: not found", site.url()))
    );
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    // Accepts connections and never replies.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hold = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    let limits = FetchLimits {
        total_timeout: std::time::Duration::from_millis(300),
        ..FetchLimits::default()
    };
    let url = Url::parse(&format!("http://{addr}/slow")).unwrap();
    let err = fetch(url, &NetworkPolicy::new(true, 0), &limits)
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Timeout(_)), "{err:?}");
    hold.abort();
}
