#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::llm::ToolCall;
use crate::llm::tokens::estimate_request;
use crate::session::is_paired;

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments: r#"{"path":"a.txt"}"#.into(),
    }
}

/// One step: an assistant note calling one tool, and its result.
fn step(c: &mut Conversation, id: &str, note_chars: usize, result_chars: usize) {
    c.push_tool_round(
        "n".repeat(note_chars),
        None,
        vec![(call(id), "r".repeat(result_chars))],
    );
}

/// Three finished earlier turns, then a current turn with four steps.
fn long_history() -> Conversation {
    let mut c = Conversation::new("system prompt");
    fill(&mut c);
    c
}

fn fill(c: &mut Conversation) {
    let c = &mut *c;
    for t in 0..3 {
        c.begin_turn(None, format!("task {t}: {}", "u".repeat(800)));
        step(c, &format!("t{t}"), 400, 800);
        c.push_answer("a".repeat(800));
    }
    c.begin_turn(Some("[long-term memory] facts".into()), "the current task");
    for s in 0..4 {
        step(c, &format!("s{s}"), 1_200, 1_600);
    }
}

fn apply_plan(c: &mut Conversation, to_save: u64) -> TrimPlan {
    let plan = plan(c.messages(), c.turn_starts(), "[long-term memory]", to_save);
    let before = estimate_request(c.messages(), &[]);
    let system = c.messages()[0].clone();
    apply(c, &plan);
    let after = estimate_request(c.messages(), &[]);
    assert!(is_paired(c.messages()), "{:#?}", c.messages());
    assert_eq!(c.messages()[0], system);
    assert_eq!(
        before - after,
        plan.saved,
        "the plan's count is what applying saves"
    );
    plan
}

fn texts(c: &Conversation) -> Vec<String> {
    c.messages().iter().map(Message::text).collect()
}

#[test]
fn the_oldest_earlier_turns_go_first() {
    let mut c = long_history();
    let plan = apply_plan(&mut c, 500);
    assert!(plan.saved >= 500);
    assert!(plan.replaced.is_empty() && plan.steps.is_none());
    let t = texts(&c);
    assert_eq!(t[1], FRONT_NOTE);
    assert!(!t.iter().any(|m| m.starts_with("task 0")));
    assert!(
        t.iter().any(|m| m.starts_with("task 2")),
        "only as much as needed"
    );
    assert_eq!(c.turn_starts().len(), 3, "the dropped turn is forgotten");
}

#[test]
fn then_old_results_of_the_current_turn_become_placeholders() {
    let mut c = long_history();
    let earlier: u64 = c.messages()[1..c.turn_starts()[3]]
        .iter()
        .map(estimate_message)
        .sum();
    let plan = apply_plan(&mut c, earlier + 500);
    assert!(plan.steps.is_none(), "{plan:?}");
    assert_eq!(
        plan.replaced.len(),
        2,
        "two old results were enough: {plan:?}"
    );
    let t = texts(&c);
    assert!(t.iter().filter(|m| m.starts_with(CLEARED_MARKER)).count() == 2);
    assert_eq!(
        t.last().unwrap(),
        &"r".repeat(1_600),
        "the latest result stays"
    );
    assert!(t.contains(&"the current task".to_string()));
    assert!(t.contains(&"[long-term memory] facts".to_string()));
}

#[test]
fn then_whole_steps_then_the_latest_result_is_cut() {
    let mut c = long_history();
    let plan = apply_plan(&mut c, 100_000);
    assert!(plan.steps.is_some() && plan.front.is_some());
    let t = texts(&c);
    let user = t.iter().position(|m| m == "the current task").unwrap();
    assert_eq!(t[user + 1], STEPS_NOTE);
    assert_eq!(t[user + 2], "n".repeat(1_200), "the latest step stays");
    assert!(t[user + 3].ends_with(CUT_NOTE), "cut as a last resort");
    assert!(t[user + 3].starts_with(&"r".repeat(MIN_KEPT_CHARS)));
    assert_eq!(c.messages().len(), user + 4);
}

#[test]
fn the_summary_goes_only_after_the_current_turns_old_steps() {
    let mut c = Conversation::new("system prompt");
    c.begin_turn(None, "old");
    c.push_answer("old answer");
    let summary = Message::user(format!("{SUMMARY_HEADER}\n\n{}", "s".repeat(2_000)));
    c.rewrite(1..3, vec![summary, Message::assistant("ok")])
        .unwrap();
    c.begin_turn(None, "now");
    for s in 0..3 {
        step(&mut c, &format!("s{s}"), 1_000, 1_000);
    }
    let plan = apply_plan(&mut c, 600);
    assert!(plan.front.is_none(), "the summary stays while steps can go");
    assert!(texts(&c)[1].starts_with(SUMMARY_HEADER));
    let plan = apply_plan(&mut c, 10_000);
    assert_eq!(plan.front, Some(1..3));
    let t = texts(&c);
    assert_eq!(t[1], FRONT_NOTE);
    assert_eq!(t[3], "now");
}

#[test]
fn nothing_to_drop_saves_nothing() {
    let mut c = Conversation::new("system prompt");
    c.begin_turn(None, "u".repeat(10_000));
    let plan = plan(c.messages(), c.turn_starts(), "[long-term memory]", 1_000);
    assert_eq!(plan, TrimPlan::default());
}

#[test]
fn a_trim_is_recorded_in_the_ledger_and_replays_to_the_same_history() {
    use crate::session::ledger::{FORMAT_VERSION, Header, Ledger, load};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let header = Header {
        format: FORMAT_VERSION,
        id: "abc".into(),
        project_root: dir.path().to_path_buf(),
        provider: "custom".into(),
        model: "m".into(),
        version: "0.0.0".into(),
        git_branch: None,
        started: "2026-12-01T10:00:00+00:00".into(),
        system_prompt: "sys".into(),
        tools: Vec::new(),
        forked_from: None,
    };
    let mut c = Conversation::new("sys");
    c.attach_ledger(
        Ledger::create(&path, header, std::sync::Arc::new(|s: &str| s.to_string())).unwrap(),
    );
    fill(&mut c);
    let plan = apply_plan(&mut c, 100_000);
    assert!(plan.front.is_some() && plan.steps.is_some() && !plan.replaced.is_empty());
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.conversation.messages(), c.messages());
    assert_eq!(loaded.conversation.turn_starts(), c.turn_starts());
}
