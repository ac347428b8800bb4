//! The auto-mode classifier against the scripted server: allow (cached per turn), ask, malformed answers and
//! errors, a timeout (all fail closed), and escalation to a person on the third consecutive denial.

use std::sync::Arc;
use std::time::{Duration, Instant};

use paicli::config::ApprovalMode;
use paicli::policy::approval::{ApprovalAnswer, ClassifierVerdict, NonInteractiveApprover};
use paicli::policy::audit::{ApprovedBy, AuditOutcome};
use paicli::tools::{GateVerdict, ToolOutcome};
use serde_json::Map;
use tokio_util::sync::CancellationToken;

use super::{Fixture, Person, after, check, classifier, code, command, reason};
use crate::support::{Reply, ScriptedServer};

#[tokio::test]
async fn classifier_allow_runs_the_command_and_is_cached_for_the_turn() {
    let server =
        ScriptedServer::with_replies([Reply::text(r#"{"decision":"allow","reason":"read-only"}"#)]);
    let f = Fixture::new(
        ApprovalMode::Auto,
        Arc::new(NonInteractiveApprover),
        Some(classifier(&server)),
    );
    let gate = f.gate("run the tests");
    let a = command("cargo test");
    assert_eq!(
        check(&gate, &f.ctx, "c1", "execute_command", &a).await,
        GateVerdict::Allow
    );
    // Same call again in this turn: no second classifier request.
    assert_eq!(
        check(&gate, &f.ctx, "c2", "execute_command", &a).await,
        GateVerdict::Allow
    );
    assert_eq!(server.chat_requests().len(), 1);

    let body = &server.chat_requests()[0].body;
    assert_eq!(body["max_tokens"], 300);
    assert!(body.get("tools").is_none(), "{body}");
    assert!(body.get("thinking").is_none(), "{body}");
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.contains("run the tests") && user.contains("cargo test"),
        "{user}"
    );

    after(&gate, "c1", "execute_command", &a, &ToolOutcome::ok("fine")).await;
    let entries = f.audit();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].approver, ApprovedBy::AutoClassifier);
    assert_eq!(entries[0].outcome, AuditOutcome::Allow);
    assert_eq!(entries[0].duration_ms, 7);
}

#[tokio::test]
async fn classifier_ask_is_an_auto_denial_naming_the_flag() {
    let server = ScriptedServer::with_replies([Reply::text(
        r#"{"decision":"ask","reason":"pushes to a remote"}"#,
    )]);
    let f = Fixture::new(
        ApprovalMode::Auto,
        Arc::new(NonInteractiveApprover),
        Some(classifier(&server)),
    );
    let gate = f.gate("ship it");
    let v = check(&gate, &f.ctx, "c1", "execute_command", &command("git push")).await;
    assert_eq!(code(&v), "AUTO_DENIED");
    assert!(reason(&v).contains("pushes to a remote"), "{v:?}");
    assert!(reason(&v).contains("--approval full"), "{v:?}");
}

#[tokio::test]
async fn malformed_classifier_answers_fail_closed() {
    let server = ScriptedServer::with_replies([
        Reply::text("Sure, allow it!"),
        Reply::text(r#"{"decision":"ALLOW"}"#),
        Reply::status(500, "{\"error\":{\"message\":\"boom\"}}"),
    ]);
    let f = Fixture::new(ApprovalMode::Full, Arc::new(NonInteractiveApprover), None);
    let c = classifier(&server);
    let cancel = CancellationToken::new();
    for _ in 0..3 {
        let verdict = c
            .classify("x", "execute_command", &command("ls"), &cancel)
            .await;
        assert!(matches!(verdict, ClassifierVerdict::Ask(_)), "{verdict:?}");
    }
    drop(f);
    // Arguments too long to show are never sent.
    let long = command(&"a".repeat(32_001));
    assert!(matches!(
        c.classify("x", "execute_command", &long, &cancel).await,
        ClassifierVerdict::Ask(_)
    ));
    assert_eq!(server.chat_requests().len(), 3);
}

#[tokio::test]
async fn a_classifier_timeout_fails_closed_promptly() {
    let server =
        ScriptedServer::with_replies([Reply::text(r#"{"decision":"allow"}"#).hang_after(0)]);
    let c = classifier(&server).with_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let verdict = c
        .classify(
            "x",
            "execute_command",
            &command("ls"),
            &CancellationToken::new(),
        )
        .await;
    assert!(
        matches!(&verdict, ClassifierVerdict::Ask(r) if r.contains("did not answer")),
        "{verdict:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn with_a_person_at_hand_the_classifiers_ask_or_failure_asks_them() {
    let server = ScriptedServer::with_replies([
        Reply::text(r#"{"decision":"ask","reason":"network"}"#),
        Reply::text("Sure, allow it!"),
    ]);
    let person = Person::answering([
        ApprovalAnswer::Approve,
        ApprovalAnswer::Reject { reason: None },
    ]);
    let f = Fixture::new(
        ApprovalMode::Auto,
        person.clone(),
        Some(classifier(&server)),
    );
    let gate = f.gate("fetch deps");
    let v = check(
        &gate,
        &f.ctx,
        "c0",
        "execute_command",
        &command("npm install x"),
    )
    .await;
    assert_eq!(code(&v), "allow", "{v:?}");
    let v = check(
        &gate,
        &f.ctx,
        "c1",
        "execute_command",
        &command("npm install y"),
    )
    .await;
    assert_eq!(code(&v), "USER_REJECTED", "{v:?}");
    let asked = person.asked();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0]
            .note
            .as_deref()
            .unwrap()
            .contains("auto mode asks you: "),
        "{asked:?}"
    );
    assert!(asked[0].session_rule.is_some(), "{asked:?}");
}

#[tokio::test]
async fn the_third_consecutive_auto_denial_asks_a_person() {
    let person = Person::answering([ApprovalAnswer::Approve]);
    let f = Fixture::new(ApprovalMode::Auto, person.clone(), None);
    let gate = f.gate("fetch deps");
    for (i, expected) in ["AUTO_DENIED", "AUTO_DENIED", "allow"].iter().enumerate() {
        let v = check(
            &gate,
            &f.ctx,
            &format!("m{i}"),
            "mcp__gh__push",
            &Map::new(),
        )
        .await;
        assert_eq!(code(&v), *expected, "call {i}: {v:?}");
    }
    let asked = person.asked();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].note.as_deref().unwrap().contains("third denial"),
        "{asked:?}"
    );
    // The count starts again after the person answered.
    assert_eq!(
        code(&check(&gate, &f.ctx, "m3", "mcp__gh__push", &Map::new()).await),
        "AUTO_DENIED"
    );

    // A new turn starts with a fresh counter.
    let next = f.gate("again");
    assert_eq!(
        code(&check(&next, &f.ctx, "r1", "revert_turn", &Map::new()).await),
        "AUTO_DENIED"
    );
}

#[tokio::test]
async fn without_a_person_escalation_is_a_denial_naming_the_flag() {
    let f = Fixture::new(ApprovalMode::Auto, Arc::new(NonInteractiveApprover), None);
    let gate = f.gate("x");
    for i in 0..3 {
        let v = check(&gate, &f.ctx, &format!("r{i}"), "revert_turn", &Map::new()).await;
        assert_eq!(code(&v), "AUTO_DENIED");
        assert!(reason(&v).contains("--approval full"), "{v:?}");
    }
}
