#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn page(content_type: Option<&str>, body: &[u8]) -> FetchedPage {
    FetchedPage {
        url: Url::parse("https://example.com/a").unwrap(),
        status: 200,
        content_type: content_type.map(str::to_string),
        body: body.to_vec(),
    }
}

fn text_of(outcome: ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text,
        other => panic!("expected ok, got {other:?}"),
    }
}

#[test]
fn html_becomes_markdown_with_a_title_and_length_header() {
    let html = b"<html><head><title>Doc</title></head><body><main><h2>Part</h2><p>Hello</p></main></body></html>";
    let text = text_of(render_page(
        &page(Some("text/html; charset=utf-8"), html),
        8000,
    ));
    assert_eq!(
        text,
        "Title: Doc\nURL: https://example.com/a\nLength: 14 chars\n\n## Part\n\nHello"
    );
}

#[test]
fn long_pages_are_cut_with_a_note() {
    let body = "x".repeat(50);
    let text = text_of(render_page(&page(Some("text/plain"), body.as_bytes()), 10));
    assert_eq!(
        text,
        format!(
            "URL: https://example.com/a\nLength: 50 chars\n\n{}\n\n[truncated: showed 10 of 50 chars; call web_fetch with a larger max_chars for more]",
            "x".repeat(10)
        )
    );
}

#[test]
fn text_and_json_come_back_as_is_in_their_charset() {
    let json = br#"{"a": [1, 2]}"#;
    let text = text_of(render_page(&page(Some("application/json"), json), 8000));
    assert!(text.ends_with("\n\n{\"a\": [1, 2]}"), "{text}");
    // "héllo" in Latin-1.
    let latin1 = b"h\xe9llo";
    let text = text_of(render_page(
        &page(Some("text/plain; charset=ISO-8859-1"), latin1),
        8000,
    ));
    assert!(text.ends_with("\n\nhéllo"), "{text}");
    // GBK declared only in the page's meta tag.
    let (gbk, _, _) = encoding_rs::GBK
        .encode("<html><head><meta charset=\"gbk\"></head><body><p>中文页面</p></body></html>");
    let text = text_of(render_page(&page(Some("text/html"), &gbk), 8000));
    assert!(text.ends_with("\n\n中文页面"), "{text}");
}

#[test]
fn binary_types_are_described_not_dumped() {
    let text = text_of(render_page(
        &page(Some("image/png"), &[0x89, b'P', b'N', b'G', 0, 1]),
        8000,
    ));
    assert_eq!(
        text,
        "URL: https://example.com/a\nBinary content (image/png, 6 bytes) is not shown."
    );
}

#[test]
fn error_statuses_fail_with_the_status() {
    let mut p = page(Some("text/plain"), b"gone");
    p.status = 404;
    assert_eq!(
        render_page(&p, 8000),
        ToolOutcome::failed("HTTP 404 from https://example.com/a: gone")
    );
}

#[test]
fn search_hits_are_numbered_with_short_snippets() {
    let hits = vec![
        SearchHit {
            title: "One".into(),
            snippet: "a  b\nc".into(),
            url: "https://one.example/".into(),
        },
        SearchHit {
            title: String::new(),
            snippet: "s".repeat(250),
            url: "https://two.example/x".into(),
        },
    ];
    let text = search::format_hits("q", "searxng", &hits);
    assert_eq!(
        text,
        format!(
            "Results for \"q\" (searxng):\n1. One\n   a b c\n   URL: https://one.example/\n2. (untitled)\n   {}…\n   URL: https://two.example/x\n",
            "s".repeat(200)
        )
    );
}

#[test]
fn no_provider_names_the_variables_to_set() {
    let err = choose_provider(&WebSettings::default()).unwrap_err();
    let text = err.to_string();
    for var in [
        "GLM_API_KEY",
        "SERPAPI_KEY",
        "SEARXNG_URL",
        "TAVILY_API_KEY",
        "BRAVE_API_KEY",
    ] {
        assert!(text.contains(var), "{text}");
    }
    let settings = WebSettings {
        search_provider: Some(crate::config::SearchProviderKind::Brave),
        ..WebSettings::default()
    };
    assert_eq!(
        choose_provider(&settings).unwrap_err().to_string(),
        "web search provider brave needs BRAVE_API_KEY"
    );
}

#[test]
fn providers_are_picked_in_the_documented_order() {
    let settings = WebSettings {
        searxng_url: Some("http://127.0.0.1:1".into()),
        brave_api_key: Some("b".into()),
        serpapi_key: Some("s".into()),
        ..WebSettings::default()
    };
    assert_eq!(
        choose_provider(&settings).unwrap().kind,
        crate::config::SearchProviderKind::Serpapi
    );
    let settings = WebSettings {
        glm_api_key: Some("g".into()),
        ..settings
    };
    assert_eq!(
        choose_provider(&settings).unwrap().kind,
        crate::config::SearchProviderKind::Zhipu
    );
}
