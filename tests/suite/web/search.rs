//! `web_search` against local stand-ins of each provider's HTTP API.

use paicli::config::{SearchProviderKind, WebSettings};
use paicli::guard::path_guard::PathGuard;
use paicli::tools::web::WebSearch;
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolOutput};
use serde_json::{Map, Value, json};

use super::stub::{Stub, StubRequest, StubResponse};

async fn search(settings: WebSettings, args: Value) -> ToolOutcome {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ToolContext::new(
        PathGuard::new(dir.path()).unwrap(),
        SpillStore::new(dir.path(), false, 32_000),
        ToolLimits::default(),
    );
    let args: Map<String, Value> = args.as_object().unwrap().clone();
    WebSearch::new(settings).execute(&args, &ctx).await
}

fn ok(outcome: ToolOutcome) -> ToolOutput {
    match outcome {
        ToolOutcome::Ok(out) => out,
        other => panic!("expected results, got {other:?}"),
    }
}

/// Two hits, in the field names each provider uses.
fn hits(title: &str, snippet: &str, url: &str) -> Vec<Value> {
    vec![
        json!({title: "Rust", snippet: "A language empowering everyone.", url: "https://www.rust-lang.org/"}),
        json!({title: "Tokio", snippet: "An asynchronous runtime.", url: "https://tokio.rs/"}),
    ]
}

const EXPECTED_TEXT: &str = "1. Rust\n   A language empowering everyone.\n   URL: https://www.rust-lang.org/\n\
2. Tokio\n   An asynchronous runtime.\n   URL: https://tokio.rs/\n";

fn assert_results(out: &ToolOutput, provider: &str) {
    assert_eq!(
        out.text,
        format!("Results for \"rust async\" ({provider}):\n{EXPECTED_TEXT}")
    );
    assert_eq!(
        out.discovered_urls,
        vec!["https://www.rust-lang.org/", "https://tokio.rs/"]
    );
}

fn only_request(stub: &Stub) -> StubRequest {
    let requests = stub.requests();
    assert_eq!(requests.len(), 1);
    requests[0].clone()
}

#[tokio::test]
async fn zhipu_posts_the_query_with_the_glm_key_and_engine() {
    let stub = Stub::start(|_| {
        StubResponse::json(json!({"id": "x", "search_result": hits("title", "content", "link")}))
    });
    let settings = WebSettings {
        glm_api_key: Some("glm-key".into()),
        zhipu_base_url: stub.url(),
        ..WebSettings::default()
    };
    assert_results(
        &ok(search(settings, json!({"query": "rust async", "top_k": 3})).await),
        "zhipu",
    );
    let req = only_request(&stub);
    assert_eq!(req.method, "POST");
    assert_eq!(req.path(), "/api/paas/v4/tools/web_search");
    assert_eq!(req.header("authorization"), Some("Bearer glm-key"));
    assert_eq!(
        req.json(),
        json!({"search_query": "rust async", "search_engine": "search_std", "search_intent": false, "count": 3})
    );
}

#[tokio::test]
async fn serpapi_gets_organic_results() {
    let stub = Stub::start(|_| {
        StubResponse::json(json!({"organic_results": hits("title", "snippet", "link")}))
    });
    let settings = WebSettings {
        serpapi_key: Some("serp-key".into()),
        serpapi_base_url: stub.url(),
        ..WebSettings::default()
    };
    assert_results(
        &ok(search(settings, json!({"query": "rust async"})).await),
        "serpapi",
    );
    let req = only_request(&stub);
    assert_eq!((req.method.as_str(), req.path()), ("GET", "/search.json"));
    let query = req.query();
    for pair in [
        ("q", "rust async"),
        ("api_key", "serp-key"),
        ("engine", "google"),
        ("num", "5"),
    ] {
        assert!(
            query.contains(&(pair.0.to_string(), pair.1.to_string())),
            "{query:?}"
        );
    }
}

#[tokio::test]
async fn searxng_asks_its_instance_for_json() {
    let stub = Stub::start(|_| {
        StubResponse::json(
            json!({"query": "rust async", "results": hits("title", "content", "url")}),
        )
    });
    let settings = WebSettings {
        searxng_url: Some(format!("{}/searx/", stub.url())),
        ..WebSettings::default()
    };
    assert_results(
        &ok(search(settings, json!({"query": "rust async"})).await),
        "searxng",
    );
    let req = only_request(&stub);
    assert_eq!((req.method.as_str(), req.path()), ("GET", "/searx/search"));
    assert_eq!(
        req.query(),
        vec![
            ("q".to_string(), "rust async".to_string()),
            ("format".into(), "json".into())
        ]
    );
}

#[tokio::test]
async fn tavily_posts_with_a_bearer_key() {
    let stub =
        Stub::start(|_| StubResponse::json(json!({"results": hits("title", "content", "url")})));
    let settings = WebSettings {
        tavily_api_key: Some("tvly-key".into()),
        tavily_base_url: stub.url(),
        ..WebSettings::default()
    };
    assert_results(
        &ok(search(settings, json!({"query": "rust async", "top_k": 2})).await),
        "tavily",
    );
    let req = only_request(&stub);
    assert_eq!((req.method.as_str(), req.path()), ("POST", "/search"));
    assert_eq!(req.header("authorization"), Some("Bearer tvly-key"));
    assert_eq!(req.json(), json!({"query": "rust async", "max_results": 2}));
}

#[tokio::test]
async fn brave_sends_its_subscription_token() {
    let stub = Stub::start(|_| {
        StubResponse::json(json!({"web": {"results": hits("title", "description", "url")}}))
    });
    let settings = WebSettings {
        brave_api_key: Some("brave-key".into()),
        brave_base_url: stub.url(),
        ..WebSettings::default()
    };
    assert_results(
        &ok(search(settings, json!({"query": "rust async"})).await),
        "brave",
    );
    let req = only_request(&stub);
    assert_eq!(
        (req.method.as_str(), req.path()),
        ("GET", "/res/v1/web/search")
    );
    assert_eq!(req.header("x-subscription-token"), Some("brave-key"));
    assert!(
        req.query()
            .contains(&("q".to_string(), "rust async".to_string()))
    );
}

#[tokio::test]
async fn top_k_cuts_the_list_and_errors_are_clear() {
    let stub = Stub::start(|req| {
        if req.header("authorization") == Some("Bearer bad") {
            StubResponse::new(401, "application/json", r#"{"error":"invalid key"}"#)
        } else if req.path() == "/search" {
            StubResponse::json(json!({"unexpected": true}))
        } else {
            StubResponse::json(json!({"search_result": hits("title", "content", "link")}))
        }
    });
    let settings = WebSettings {
        glm_api_key: Some("glm-key".into()),
        zhipu_base_url: stub.url(),
        ..WebSettings::default()
    };
    let out = ok(search(settings.clone(), json!({"query": "rust async", "top_k": 1})).await);
    assert_eq!(out.discovered_urls, vec!["https://www.rust-lang.org/"]);

    let bad_key = WebSettings {
        glm_api_key: Some("bad".into()),
        ..settings.clone()
    };
    assert_eq!(
        search(bad_key, json!({"query": "q"})).await,
        ToolOutcome::failed(r#"zhipu answered HTTP 401: {"error":"invalid key"}"#)
    );
    let wrong_shape = WebSettings {
        search_provider: Some(SearchProviderKind::Searxng),
        searxng_url: Some(stub.url()),
        ..settings
    };
    let outcome = search(wrong_shape, json!({"query": "q"})).await;
    assert!(
        matches!(&outcome, ToolOutcome::Failed { reason } if reason.starts_with("searxng answered with JSON that has no results list")),
        "{outcome:?}"
    );
    let outcome = search(WebSettings::default(), json!({"query": "q"})).await;
    assert!(
        matches!(&outcome, ToolOutcome::Failed { reason } if reason.contains("GLM_API_KEY") && reason.contains("SEARXNG_URL")),
        "{outcome:?}"
    );
}
