//! The review's tree and keys without a terminal: keys from a list, output into a buffer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::plan::PlanTask;
use crate::text::Lang;
use crate::ui::approval_prompt::typed;
use crate::ui::render::{Style, visible_width};

fn task(id: &str, title: &str, description: &str, depends_on: &[&str]) -> PlanTask {
    PlanTask {
        id: id.to_string(),
        title: title.to_string(),
        description: description.to_string(),
        depends_on: depends_on.iter().map(|d| d.to_string()).collect(),
    }
}

/// A → (B, C) → D, with D waiting for both B and C.
fn diamond() -> Plan {
    Plan {
        goal: "add a greeting".to_string(),
        tasks: vec![
            task("A", "Read the code", "Find where output is printed.", &[]),
            task("B", "Write hello", "Add the hello function.", &["A"]),
            task("C", "Write its test", "A unit test for hello.", &["A"]),
            task(
                "D",
                "Update the docs",
                "Mention hello in the README.",
                &["B", "C"],
            ),
            task("E", "Check the changelog", "", &[]),
        ],
    }
}

fn plain_tree(plan: &Plan, expanded: bool, width: usize) -> Vec<String> {
    plan_tree(plan, expanded, width, Style::new(false), Lang::En)
}

fn review(plan: &Plan, keys: &str) -> (PlanDecision, String) {
    review_revision(plan, 0, keys, Lang::En)
}

fn review_revision(plan: &Plan, revision: u32, keys: &str, lang: Lang) -> (PlanDecision, String) {
    let mut out = Vec::new();
    let decision = review_plan(
        plan,
        revision,
        &mut typed(keys),
        &mut out,
        &|| Look::plain(lang),
        false,
    )
    .unwrap();
    (decision, String::from_utf8(out).unwrap())
}

#[test]
fn a_re_plan_is_labelled_as_its_revision() {
    let (_, first) = review_revision(&diamond(), 0, "\n", Lang::En);
    assert!(first.starts_with("Plan (5 tasks): "), "{first}");
    let (_, again) = review_revision(&diamond(), 1, "\n", Lang::En);
    assert!(again.starts_with("Plan, revision 1 (5 tasks): "), "{again}");
    let (_, zh) = review_revision(&diamond(), 2, "\n", Lang::Zh);
    assert!(zh.starts_with("计划（第 2 版，5 个任务）："), "{zh}");
}

#[test]
fn tasks_hang_under_their_last_dependency_and_name_the_others() {
    assert_eq!(
        plain_tree(&diamond(), false, 80),
        vec![
            "├─ A  Read the code",
            "│  ├─ B  Write hello",
            "│  └─ C  Write its test",
            "│     └─ D  Update the docs (after B)",
            "└─ E  Check the changelog",
        ]
    );
}

#[test]
fn expanded_descriptions_follow_their_titles_and_keep_the_branches() {
    assert_eq!(
        plain_tree(&diamond(), true, 80),
        vec![
            "├─ A  Read the code",
            "│  │  Find where output is printed.",
            "│  ├─ B  Write hello",
            "│  │     Add the hello function.",
            "│  └─ C  Write its test",
            "│     │  A unit test for hello.",
            "│     └─ D  Update the docs (after B)",
            "│           Mention hello in the README.",
            "└─ E  Check the changelog",
        ]
    );
}

#[test]
fn a_narrow_terminal_wraps_titles_under_themselves() {
    let plan = Plan {
        goal: "g".to_string(),
        tasks: vec![
            task("A", "Read every module of the project", "", &[]),
            task("B", "Write the new parser and its tests", "", &["A"]),
        ],
    };
    let rows = plain_tree(&plan, false, 24);
    assert_eq!(
        rows,
        vec![
            "└─ A  Read every module",
            "   │  of the project",
            "   └─ B  Write the new",
            "         parser and its",
            "         tests",
        ]
    );
    assert!(rows.iter().all(|r| visible_width(r) < 24), "{rows:?}");
}

#[test]
fn a_loop_of_dependencies_still_shows_every_task_once() {
    let plan = Plan {
        goal: "g".to_string(),
        tasks: vec![task("A", "one", "", &["B"]), task("B", "two", "", &["A"])],
    };
    let rows = plain_tree(&plan, false, 80);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().any(|r| r.contains("A  one")), "{rows:?}");
    assert!(rows.iter().any(|r| r.contains("B  two")), "{rows:?}");
}

#[test]
fn enter_runs_the_plan_shown_with_its_keys() {
    let (decision, shown) = review(&diamond(), "\n");
    assert_eq!(decision, PlanDecision::Run);
    assert!(
        shown.starts_with("Plan (5 tasks): add a greeting\n"),
        "{shown}"
    );
    assert!(shown.contains("│  ├─ B  Write hello"), "{shown}");
    assert!(
        shown.contains("Enter run · Ctrl+O details · i add instructions and re-plan · ESC cancel"),
        "{shown}"
    );
    assert!(!shown.contains("Add the hello function."), "{shown}");
    assert!(shown.trim_end().ends_with("running the plan"), "{shown}");
}

#[test]
fn ctrl_o_shows_the_descriptions_and_again_hides_them() {
    let (decision, shown) = review(&diamond(), "\u{f}\u{f}\n");
    assert_eq!(decision, PlanDecision::Run);
    assert_eq!(
        shown.matches("Add the hello function.").count(),
        1,
        "{shown}"
    );
    assert_eq!(shown.matches("Plan (5 tasks)").count(), 3, "{shown}");
}

#[test]
fn ctrl_o_in_a_terminal_redraws_the_tree_where_it_was() {
    let mut out = Vec::new();
    let look = || Look::plain(Lang::En);
    review_plan(&diamond(), 0, &mut typed("\u{f}\n"), &mut out, &look, true).unwrap();
    let shown = String::from_utf8(out).unwrap();
    // Heading, five tasks and the key line: back up six rows to the heading, erase, draw again.
    assert!(shown.contains("\r\x1b[6A\x1b[J"), "{shown:?}");
    assert!(shown.contains("Add the hello function."), "{shown}");
}

#[test]
fn i_reads_instructions_and_asks_for_a_new_plan() {
    let (decision, shown) = review(&diamond(), "iuse Rust 2024\n");
    assert_eq!(
        decision,
        PlanDecision::Replan {
            instructions: "use Rust 2024".to_string()
        }
    );
    assert!(shown.contains("Add to the plan"), "{shown}");
    assert!(
        shown.contains("re-planning with your instructions"),
        "{shown}"
    );
}

#[test]
fn esc_in_the_instructions_goes_back_to_the_keys_and_empty_ones_do_too() {
    let (decision, shown) = review(&diamond(), "inot this\u{1b}i\n\n");
    assert_eq!(decision, PlanDecision::Run);
    assert_eq!(shown.matches("ESC cancel").count(), 3, "{shown}");
}

#[test]
fn esc_and_ctrl_c_cancel_and_other_keys_are_ignored() {
    for keys in ["xq\u{1b}", "\u{3}"] {
        let (decision, shown) = review(&diamond(), keys);
        assert_eq!(decision, PlanDecision::Cancel, "{keys:?}");
        assert!(shown.contains("plan cancelled; nothing was run"), "{shown}");
    }
    // The keys ending (stdin closed) runs nothing either.
    assert_eq!(review(&diamond(), "x").0, PlanDecision::Cancel);
}

#[test]
fn the_review_reads_in_chinese() {
    let mut out = Vec::new();
    let look = || Look::plain(Lang::Zh);
    review_plan(&diamond(), 0, &mut typed("\n"), &mut out, &look, false).unwrap();
    let shown = String::from_utf8(out).unwrap();
    assert!(
        shown.contains("计划（5 个任务）：add a greeting"),
        "{shown}"
    );
    assert!(shown.contains("在 B 之后"), "{shown}");
    assert!(shown.contains("开始执行计划"), "{shown}");
}

#[test]
fn a_redraw_follows_the_terminal_resized_while_the_plan_is_shown() {
    let draws = std::cell::Cell::new(0);
    let look = || {
        draws.set(draws.get() + 1);
        Look {
            width: if draws.get() == 1 { 100 } else { 30 },
            ..Look::plain(Lang::En)
        }
    };
    let mut out = Vec::new();
    review_plan(&diamond(), 0, &mut typed("\u{f}\n"), &mut out, &look, false).unwrap();
    let shown = String::from_utf8(out).unwrap();
    let redrawn = &shown[shown.rfind("Plan (5 tasks)").unwrap()..];
    assert!(redrawn.lines().all(|l| visible_width(l) < 30), "{redrawn}");
    assert!(redrawn.contains("Find where output is"), "{redrawn}");
}

#[test]
fn a_one_task_plan_says_task_not_tasks() {
    let plan = Plan {
        goal: "tidy the notes".to_string(),
        tasks: vec![task("task-1", "tidy the notes", "", &[])],
    };
    let (_, shown) = review(&plan, "\n");
    assert!(
        shown.starts_with("Plan (1 task): tidy the notes\n"),
        "{shown}"
    );
}
