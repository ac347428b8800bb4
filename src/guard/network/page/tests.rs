#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::*;
use crate::guard::constant_regex::broken_patterns;
use crate::guard::network::tests::TableResolver;

fn rules(allow_local: bool) -> PageRules {
    let table = HashMap::from([
        ("public.example", vec!["93.184.215.14".parse().unwrap()]),
        ("dev.example", vec!["127.0.0.1".parse().unwrap()]),
        ("dev6.example", vec!["::1".parse().unwrap()]),
        ("intranet.example", vec!["10.1.2.3".parse().unwrap()]),
        (
            "mixed.example",
            vec![
                "93.184.215.14".parse().unwrap(),
                "169.254.169.254".parse().unwrap(),
            ],
        ),
    ]);
    PageRules::new(allow_local).with_resolver(Arc::new(TableResolver(table)))
}

async fn check(rules: &PageRules, url: &str) -> Result<(), PageRefusal> {
    rules.check(url, &NamedHosts::default()).await
}

fn named(text: &str) -> NamedHosts {
    let mut hosts = NamedHosts::default();
    hosts.add_text(text);
    hosts
}

#[test]
fn the_mention_pattern_compiles() {
    assert_eq!(broken_patterns([LOCAL_MENTION]), Vec::<String>::new());
}

#[tokio::test]
async fn only_http_https_and_a_blank_page_open() {
    let rules = rules(true);
    for url in [
        "file:///etc/passwd",
        "file://localhost/etc/passwd",
        "chrome://settings",
        "chrome-extension://abc/page.html",
        "javascript:alert(document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "view-source:https://public.example/",
        "about:settings",
        "ftp://public.example/",
        "ws://public.example/",
        "blob:https://public.example/1234",
    ] {
        let err = check(&rules, url).await.unwrap_err();
        assert!(matches!(err, PageRefusal::Scheme(_)), "{url}: {err:?}");
        let text = err.to_string();
        assert!(
            text.contains("only http and https") && text.contains("浏览器只能打开"),
            "{text}"
        );
    }
    assert!(check(&rules, "about:blank").await.is_ok());
    assert!(check(&rules, "https://public.example/a?b=c").await.is_ok());
    assert!(check(&rules, "http://public.example:8080/").await.is_ok());
    assert!(matches!(
        check(&rules, "not a url").await,
        Err(PageRefusal::Invalid { .. })
    ));
    assert!(matches!(
        check(&rules, "http://nowhere.example/").await,
        Err(PageRefusal::Unresolvable { .. })
    ));
}

#[tokio::test]
async fn loopback_is_refused_by_default_in_every_spelling() {
    let rules = rules(false);
    for url in [
        "http://127.0.0.1:8080/admin",
        "http://127.8.9.10/",
        "http://[::1]:3000/",
        "http://localhost:3000/",
        "http://LOCALHOST./",
        "http://api.localhost/",
        // Names that DNS answers with this machine.
        "http://dev.example/",
        "http://dev6.example/",
        // IPv4-mapped and -compatible IPv6 forms of 127.0.0.1.
        "http://[::ffff:127.0.0.1]/",
        "http://[::127.0.0.1]/",
        // The URL parser reads these as 127.0.0.1, like the browser does.
        "http://2130706433/",
        "http://0x7f000001/",
        "http://127.1/",
    ] {
        let err = check(&rules, url).await.unwrap_err();
        assert!(
            matches!(err, PageRefusal::Loopback { .. }),
            "{url}: {err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains("allow_local = true") && text.contains("本机"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn private_link_local_and_metadata_addresses_are_refused_even_with_allow_local() {
    let rules = rules(true);
    let cases = [
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://10.0.0.1/", "private"),
        ("http://172.16.5.4/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://100.64.0.1/", "carrier-grade NAT"),
        ("http://0.0.0.0:8000/", "unspecified"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[fd00::1]/", "unique-local"),
        ("http://[::ffff:10.0.0.1]/", "IPv4-mapped"),
        ("http://[::ffff:169.254.169.254]/", "IPv4-mapped"),
        ("http://[64:ff9b::a9fe:a9fe]/", "NAT64"),
        ("http://intranet.example/", "private"),
        // One metadata answer among public ones is enough.
        ("http://mixed.example/", "link-local"),
    ];
    for (url, expected) in cases {
        match check(&rules, url).await {
            Err(PageRefusal::NonPublic { reason, .. }) => {
                assert!(reason.contains(expected), "{url}: {reason}")
            }
            other => panic!("{url}: expected a refusal ({expected}), got {other:?}"),
        }
    }
}

#[tokio::test]
async fn allow_local_opens_loopback_pages() {
    let rules = rules(true);
    for url in [
        "http://127.0.0.1:8080/",
        "http://localhost:3000/login",
        "http://[::1]/",
        "http://dev.example/",
        "http://[::ffff:127.0.0.1]/",
    ] {
        assert!(check(&rules, url).await.is_ok(), "{url}");
    }
}

#[tokio::test]
async fn a_host_the_user_named_opens_with_any_path_but_only_on_its_port() {
    let rules = rules(false);
    let hosts = named("run the app and open http://localhost:3000/ then check it");
    assert!(rules.check("http://localhost:3000/", &hosts).await.is_ok());
    assert!(
        rules
            .check("http://localhost:3000/settings?tab=2", &hosts)
            .await
            .is_ok()
    );
    assert!(matches!(
        rules.check("http://localhost:8080/", &hosts).await,
        Err(PageRefusal::Loopback { .. })
    ));
    assert!(matches!(
        rules.check("http://127.0.0.1:3000/", &hosts).await,
        Err(PageRefusal::Loopback { .. })
    ));
    // A private host the user wrote opens too; the others stay closed.
    let hosts = named("看一下 http://192.168.1.20:8000/status，谢谢");
    assert!(
        rules
            .check("http://192.168.1.20:8000/", &hosts)
            .await
            .is_ok()
    );
    assert!(
        rules
            .check("http://192.168.1.21:8000/", &hosts)
            .await
            .is_err()
    );
    // The scheme rule holds for a named host.
    let hosts = named("see file:///etc/passwd and http://localhost:3000");
    assert!(matches!(
        rules.check("file:///etc/passwd", &hosts).await,
        Err(PageRefusal::Scheme(_))
    ));
}

#[test]
fn bare_local_mentions_name_their_port_and_words_do_not() {
    let hosts = named("打开 localhost:3000 和 127.0.0.1:8080，还有 [::1]:9000.");
    for url in [
        "http://localhost:3000/x",
        "https://localhost:3000/",
        "http://127.0.0.1:8080/",
        "http://[::1]:9000/",
    ] {
        assert!(hosts.contains(&Url::parse(url).unwrap()), "{url}");
    }
    let hosts = named("the localhost server and port 3000; 127.0.0.1 too");
    for url in [
        "http://localhost/",
        "http://localhost:3000/",
        "http://127.0.0.1/",
    ] {
        assert!(!hosts.contains(&Url::parse(url).unwrap()), "{url}");
    }
}
