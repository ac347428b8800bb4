//! Page actions on a login, payment or account page need the person in every mode but `full`, each time.

use std::sync::Arc;

use paicli::config::ApprovalMode;
use paicli::mcp::browser_entry::CHROME_DEVTOOLS;
use paicli::policy::approval::{ApprovalAnswer, NonInteractiveApprover};
use paicli::protocol::{OpenPage, PageInfo};
use paicli::tools::browser::server_tool_traits;
use paicli::tools::{CallGate, GateCall, GateVerdict};
use serde_json::{Map, json};

use super::{Fixture, Person, args, code, reason};

struct Showing(PageInfo);

impl OpenPage for Showing {
    fn open_page(&self) -> Option<PageInfo> {
        Some(self.0.clone())
    }
}

fn page(url: &str, title: &str) -> Arc<Showing> {
    Arc::new(Showing(PageInfo {
        url: url.to_string(),
        title: title.to_string(),
    }))
}

async fn browser_call(
    f: &Fixture,
    gate: &Arc<dyn CallGate>,
    id: &str,
    tool: &str,
    a: &Map<String, serde_json::Value>,
) -> GateVerdict {
    gate.check(GateCall {
        id,
        name: &format!("mcp__chrome-devtools__{tool}"),
        args: a,
        traits: server_tool_traits(CHROME_DEVTOOLS, tool).unwrap(),
        write_targets: &[],
        cancel: &f.ctx.cancel,
    })
    .await
}

#[tokio::test]
async fn on_a_login_page_auto_and_ask_mode_ask_every_time_and_full_runs() {
    let click = args(json!({"uid": "1_2"}));
    for mode in [ApprovalMode::Auto, ApprovalMode::Ask] {
        let person =
            Person::answering([ApprovalAnswer::ApproveForSession, ApprovalAnswer::Approve]);
        let f = Fixture::new(mode, person.clone(), None);
        f.hook
            .watch_pages(page("https://example.com/login", "Example"));
        let gate = f.gate("sign me in");
        assert_eq!(
            browser_call(&f, &gate, "1", "click", &click).await,
            GateVerdict::Allow
        );
        // `a` was answered, but a sensitive call is never remembered: the next one asks again.
        assert_eq!(
            browser_call(&f, &gate, "2", "click", &click).await,
            GateVerdict::Allow
        );
        let asked = person.asked();
        assert_eq!(asked.len(), 2, "{mode:?}");
        assert!(asked.iter().all(|r| r.session_rule.is_none()), "{mode:?}");
        let note = asked[0].note.clone().unwrap_or_default();
        assert!(note.contains("looks like a login page"), "{note}");
    }

    let person = Person::answering([]);
    let f = Fixture::new(ApprovalMode::Full, person.clone(), None);
    f.hook
        .watch_pages(page("https://example.com/login", "Example"));
    let gate = f.gate("sign me in");
    assert_eq!(
        browser_call(&f, &gate, "1", "click", &click).await,
        GateVerdict::Allow
    );
    assert!(person.asked().is_empty());
}

#[tokio::test]
async fn reading_a_sensitive_page_and_acting_on_an_ordinary_one_run_without_asking() {
    let person = Person::answering([]);
    let f = Fixture::new(ApprovalMode::Auto, person.clone(), None);
    let pages = page("https://shop.example/checkout", "Checkout");
    f.hook.watch_pages(pages);
    let gate = f.gate("x");
    let none = Map::new();
    assert_eq!(
        browser_call(&f, &gate, "1", "take_snapshot", &none).await,
        GateVerdict::Allow
    );
    let f2 = Fixture::new(ApprovalMode::Auto, person.clone(), None);
    f2.hook
        .watch_pages(page("http://127.0.0.1:8000/", "Dynamic page"));
    let gate = f2.gate("x");
    assert_eq!(
        browser_call(&f2, &gate, "2", "click", &args(json!({"uid": "1_1"}))).await,
        GateVerdict::Allow
    );
    assert!(person.asked().is_empty());
}

#[tokio::test]
async fn without_a_person_a_page_action_on_a_payment_page_is_refused_naming_the_flag() {
    let f = Fixture::new(ApprovalMode::Auto, Arc::new(NonInteractiveApprover), None);
    f.hook.watch_pages(page("https://example.com/x", "收银台"));
    let gate = f.gate("pay");
    let v = browser_call(
        &f,
        &gate,
        "1",
        "fill",
        &args(json!({"uid": "1", "value": "4111"})),
    )
    .await;
    assert_eq!(code(&v), "APPROVAL_REQUIRED");
    assert!(reason(&v).contains("--approval full"), "{}", reason(&v));
    assert!(reason(&v).contains("payment page"), "{}", reason(&v));
}
