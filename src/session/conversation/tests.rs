#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;

use super::*;

fn call(id: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments: arguments.into(),
    }
}

fn round(calls: &[(&str, &str)]) -> Vec<(ToolCall, String)> {
    calls
        .iter()
        .map(|(id, args)| (call(id, args), format!("result of {id}")))
        .collect()
}

/// The invariants every operation keeps.
fn assert_invariants(c: &Conversation) {
    let m = c.messages();
    assert_eq!(m[0].role, Role::System);
    assert!(
        m[1..].iter().all(|m| m.role != Role::System),
        "one system prompt"
    );
    assert!(is_paired(m), "pairing broken: {m:#?}");
    for call in m.iter().flat_map(|m| &m.tool_calls) {
        let parsed: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
        assert!(parsed.is_object(), "{}", call.arguments);
    }
    let starts = c.turn_starts();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    for &s in starts {
        assert!(s >= 1 && s < m.len(), "turn start {s} of {}", m.len());
        assert_eq!(m[s].role, Role::User, "turn start {s}");
    }
}

#[test]
fn a_round_pairs_each_call_with_its_result_and_fixes_ids_and_arguments() {
    let mut c = Conversation::new("s");
    c.begin_turn(None, "read a and b");
    c.push_tool_round(
        "",
        Some("thinking".into()),
        round(&[
            ("c1", r#"{"path": "a.txt""#),
            ("c1", r#"{"path": "b.txt"}"#),
        ]),
    );
    let m = c.messages();
    assert_eq!(m.len(), 5);
    let ids: Vec<&str> = m[2].tool_calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c1_2"]);
    assert_eq!(m[2].tool_calls[0].arguments, "{}");
    assert_eq!(m[2].tool_calls[1].arguments, r#"{"path": "b.txt"}"#);
    assert_eq!(m[3].tool_call_id.as_deref(), Some("c1"));
    assert_eq!(m[4].tool_call_id.as_deref(), Some("c1_2"));
    assert_eq!(m[4].text(), "result of c1");
    assert_invariants(&c);
}

#[test]
fn clear_forgets_turns_and_the_provider_count() {
    let mut c = Conversation::new("s");
    c.begin_turn(Some("[recalled]".into()), "hi");
    c.record_response(
        Some(Usage {
            prompt_tokens: 5000,
            completion_tokens: 10,
            ..Usage::default()
        }),
        &[],
    );
    c.push_answer("hello");
    assert!(c.measure(&[]) > 5000);
    c.clear();
    assert_eq!(c.messages().len(), 1);
    assert!(c.turn_starts().is_empty());
    assert_eq!(c.measure(&[]), c.estimate(&[]).total());
    assert_eq!(c.session_usage().prompt_tokens, 5000, "spent tokens stay");
    c.begin_turn(None, "again");
    assert_eq!(c.turn_starts(), [1]);
}

#[test]
fn rewind_drops_the_turn_and_what_follows() {
    let mut c = Conversation::new("s");
    for t in 0..3 {
        c.begin_turn(None, format!("turn {t}"));
        c.push_tool_round("", None, round(&[("x", "{}")]));
        c.push_answer(format!("answer {t}"));
    }
    let dropped = c.rewind_to_turn(1).unwrap();
    assert_eq!(dropped[0].text(), "turn 1");
    assert_eq!(c.messages().len(), 5);
    assert_eq!(c.turn_starts(), [1]);
    assert_eq!(
        c.rewind_to_turn(1),
        Err(ConversationError::NoSuchTurn { turn: 1, turns: 1 })
    );
    assert_invariants(&c);
}

#[test]
fn rewrite_moves_later_turns_and_refuses_to_split_a_round() {
    let mut c = Conversation::new("s");
    for t in 0..3 {
        c.begin_turn(None, format!("turn {t}"));
        c.push_tool_round("", None, round(&[("a", "{}"), ("b", "{}")]));
        c.push_answer("done");
    }
    assert_eq!(c.turn_starts(), [1, 6, 11]);
    let before = c.messages().to_vec();
    // Cutting between a call and its results.
    assert_eq!(
        c.rewrite(1..3, vec![Message::user("summary")]),
        Err(ConversationError::BreaksPairing)
    );
    assert_eq!(c.messages(), &before[..]);
    assert_eq!(
        c.rewrite(0..3, vec![]),
        Err(ConversationError::BadRange { start: 0, end: 3 })
    );
    c.rewrite(
        1..6,
        vec![Message::user("summary"), Message::assistant("ok")],
    )
    .unwrap();
    assert_eq!(c.turn_starts(), [3, 8]);
    assert_eq!(c.messages()[3].text(), "turn 1");
    assert_invariants(&c);
}

#[test]
fn only_tool_results_can_be_replaced_in_place() {
    let mut c = Conversation::new("s");
    c.begin_turn(None, "u");
    c.push_tool_round("", None, round(&[("a", "{}")]));
    assert!(!c.replace_tool_output(1, "x".into()));
    assert!(c.replace_tool_output(3, "cleared".into()));
    assert_eq!(c.messages()[3].text(), "cleared");
    assert_invariants(&c);
}

#[derive(Clone, Debug)]
enum Op {
    Begin(bool),
    User,
    Answer,
    Round(Vec<(u8, bool)>),
    Clear,
    Rewind(usize),
    Rewrite(usize, usize, u8),
    Replace(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any::<bool>().prop_map(Op::Begin),
        1 => Just(Op::User),
        2 => Just(Op::Answer),
        4 => prop::collection::vec((0u8..4, any::<bool>()), 0..4).prop_map(Op::Round),
        1 => Just(Op::Clear),
        1 => (0usize..5).prop_map(Op::Rewind),
        2 => (0usize..30, 0usize..30, 0u8..3).prop_map(|(a, b, n)| Op::Rewrite(a, b, n)),
        1 => (0usize..30).prop_map(Op::Replace),
    ]
}

proptest! {
    #[test]
    fn no_sequence_of_operations_breaks_the_invariants(ops in prop::collection::vec(op(), 0..40)) {
        let mut c = Conversation::new("system");
        for op in ops {
            let before = c.messages().to_vec();
            match op {
                Op::Begin(recall) => c.begin_turn(recall.then(|| "[recalled]".to_string()), "task"),
                Op::User => c.push_user("diagnostics"),
                Op::Answer => c.push_answer("answer"),
                Op::Round(calls) => {
                    let round = calls
                        .iter()
                        .map(|(id, good)| {
                            let args = if *good { r#"{"path":"a"}"# } else { r#"{"path":"a"# };
                            (call(&format!("c{id}"), args), "out".to_string())
                        })
                        .collect();
                    c.push_tool_round("", None, round);
                }
                Op::Clear => c.clear(),
                Op::Rewind(turn) => {
                    if c.rewind_to_turn(turn).is_err() {
                        prop_assert_eq!(c.messages(), &before[..]);
                    }
                }
                Op::Rewrite(a, b, n) => {
                    let replacement = (0..n).map(|i| Message::user(format!("summary {i}"))).collect();
                    if c.rewrite(a.min(b)..a.max(b), replacement).is_err() {
                        prop_assert_eq!(c.messages(), &before[..]);
                    }
                }
                Op::Replace(i) => {
                    c.replace_tool_output(i, "cleared".into());
                }
            }
            assert_invariants(&c);
        }
    }
}
