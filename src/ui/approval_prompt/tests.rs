#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::*;
use crate::policy::approval::Risk;

fn request(args: Value) -> ApprovalRequest {
    ApprovalRequest {
        tool: "execute_command".to_string(),
        risk: Risk::High,
        args: match args {
            Value::Object(m) => m,
            _ => Map::new(),
        },
        session_rule: Some("commands starting with `cargo test`".to_string()),
        note: None,
    }
}

/// Runs the prompt on `typed` and returns the answer and what was shown.
fn answer(req: &ApprovalRequest, typed: &str) -> (ApprovalAnswer, String) {
    let mut input = typed.as_bytes();
    let mut out = Vec::new();
    let a = prompt_approval(req, &mut input, &mut out).unwrap();
    (a, String::from_utf8(out).unwrap())
}

fn cargo() -> ApprovalRequest {
    request(json!({"command": "cargo test --all"}))
}

#[test]
fn y_and_enter_approve() {
    for typed in ["y\n", "\n", "Y\n", "yes\n"] {
        assert_eq!(
            answer(&cargo(), typed).0,
            ApprovalAnswer::Approve,
            "{typed:?}"
        );
    }
}

#[test]
fn a_approves_for_the_session_and_names_the_prefix_rule() {
    let (a, shown) = answer(&cargo(), "a\n");
    assert_eq!(a, ApprovalAnswer::ApproveForSession);
    assert!(
        shown.contains("allow commands starting with `cargo test` this session"),
        "{shown}"
    );
    assert!(
        shown.contains("execute_command wants to run (risk: high)"),
        "{shown}"
    );
    assert!(shown.contains("command: cargo test --all"), "{shown}");
}

#[test]
fn a_call_asked_every_time_offers_no_a_and_does_not_take_it() {
    let mut req = cargo();
    req.session_rule = None;
    let (a, shown) = answer(&req, "a\ny\n");
    assert_eq!(a, ApprovalAnswer::Approve);
    assert!(!shown.contains("[a]"), "{shown}");
    assert!(shown.contains("yes (asked every time)"), "{shown}");
    assert!(shown.contains("Please answer y, n, s or m (1/5"), "{shown}");
}

#[test]
fn n_rejects_with_an_optional_reason() {
    assert_eq!(
        answer(&cargo(), "n\nuse cargo nextest instead\n").0,
        ApprovalAnswer::Reject {
            reason: Some("use cargo nextest instead".to_string())
        }
    );
    assert_eq!(
        answer(&cargo(), "n\n\n").0,
        ApprovalAnswer::Reject { reason: None }
    );
    assert_eq!(
        answer(&cargo(), "n too slow\n").0,
        ApprovalAnswer::Reject {
            reason: Some("too slow".to_string())
        }
    );
}

#[test]
fn s_skips() {
    assert_eq!(answer(&cargo(), "s\n").0, ApprovalAnswer::Skip);
}

#[test]
fn m_edits_the_arguments_and_reprompts_on_invalid_json() {
    let (a, shown) = answer(
        &cargo(),
        "m\n{not json\n[1]\n{\"command\": \"cargo test -p core\"}\n",
    );
    let want = json!({"command": "cargo test -p core"});
    assert_eq!(a, ApprovalAnswer::Modify(want.as_object().unwrap().clone()));
    assert!(shown.contains("Invalid JSON"), "{shown}");
    assert!(shown.contains("must be a JSON object"), "{shown}");
}

#[test]
fn five_invalid_answers_reject() {
    let (a, shown) = answer(&cargo(), "x\nmaybe\n?\nok\nsure\ny\n");
    assert!(matches!(a, ApprovalAnswer::Reject { .. }), "{a:?}");
    assert!(shown.contains("4/5 invalid answers"), "{shown}");
    assert!(shown.contains("No valid answer after 5 tries"), "{shown}");
    // Four invalid answers still leave a chance.
    assert_eq!(
        answer(&cargo(), "x\nx\nx\nx\ny\n").0,
        ApprovalAnswer::Approve
    );
    // Invalid JSON after `m` counts too.
    assert!(matches!(
        answer(&cargo(), "x\nx\nm\n{\n{\n{\n").0,
        ApprovalAnswer::Reject { .. }
    ));
}

#[test]
fn end_of_input_rejects() {
    assert!(matches!(
        answer(&cargo(), "").0,
        ApprovalAnswer::Reject { .. }
    ));
}

#[test]
fn control_and_bidi_characters_are_shown_safely() {
    // Right-to-left override makes `rm -rf ~ #` look like something else; a CR would overwrite the line.
    let req = request(json!({"command": "echo safe\u{202e}# ~ fr- mr\r\u{1b}[2Kls\u{200b}\tx"}));
    let (_, shown) = answer(&req, "s\n");
    assert!(shown.contains("<U+202E>"), "{shown}");
    assert!(shown.contains("<U+000D>"), "{shown}");
    assert!(shown.contains("<U+001B>[2K"), "{shown}");
    assert!(shown.contains("<U+200B>"), "{shown}");
    assert!(shown.contains("<U+0009>"), "{shown}");
    for c in ['\u{202e}', '\r', '\u{1b}', '\u{200b}', '\t'] {
        assert!(!shown.contains(c), "{c:?} shown raw");
    }
}

#[test]
fn long_values_are_folded_and_multi_line_values_indented() {
    let content = (1..=100)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut req = request(json!({"path": "a.txt", "content": content}));
    req.tool = "write_file".to_string();
    req.risk = Risk::Medium;
    let (_, shown) = answer(&req, "y\n");
    assert!(shown.contains("    │ line 1\n"), "{shown}");
    assert!(shown.contains("    │ line 12\n"), "{shown}");
    assert!(!shown.contains("line 13\n"), "{shown}");
    assert!(shown.contains("100 lines in all"), "{shown}");
}
