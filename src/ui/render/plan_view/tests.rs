//! The task list's rows: states, cutting to the width, and what is left out when the tasks do not fit.

use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::plan::PlanTask;
use crate::ui::render::visible_width;

fn plan(n: usize) -> Plan {
    Plan {
        goal: "g".to_string(),
        tasks: (0..n)
            .map(|i| PlanTask {
                id: format!("t{i}"),
                title: format!("task number {i}"),
                description: String::new(),
                depends_on: Vec::new(),
            })
            .collect(),
    }
}

fn plain(view: &PlanView, width: usize, max_rows: usize, lang: Lang) -> Vec<String> {
    view.rows(width, max_rows, Style::new(false), lang)
}

#[test]
fn a_proposed_plan_shows_no_list_until_a_task_starts() {
    let mut view = PlanView::default();
    view.propose(&plan(2));
    assert!(plain(&view, 80, 10, Lang::En).is_empty());
    view.set_state("t1", "task number 1", TaskState::Running);
    assert_eq!(
        plain(&view, 80, 10, Lang::En),
        vec![
            "○ t0  task number 0 · pending",
            "◐ t1  task number 1 · running"
        ]
    );
}

#[test]
fn every_state_has_its_mark_and_word_in_both_languages() {
    let mut view = PlanView::default();
    view.propose(&plan(5));
    let states = [
        TaskState::Pending,
        TaskState::Running,
        TaskState::Done,
        TaskState::Failed,
        TaskState::Skipped,
    ];
    for (i, state) in states.iter().enumerate() {
        view.set_state(&format!("t{i}"), "", *state);
    }
    assert_eq!(
        plain(&view, 80, 10, Lang::En),
        vec![
            "○ t0  task number 0 · pending",
            "◐ t1  task number 1 · running",
            "✓ t2  task number 2 · done",
            "✗ t3  task number 3 · failed",
            "⊘ t4  task number 4 · skipped",
        ]
    );
    let zh = plain(&view, 80, 10, Lang::Zh);
    assert_eq!(zh[3], "✗ t3  task number 3 · 失败");
}

#[test]
fn rows_are_cut_to_the_width_so_redrawing_them_never_leaves_a_row_behind() {
    let mut view = PlanView::default();
    view.set_state(
        "a-very-long-task-identifier",
        &"写一个很长的标题 ".repeat(8),
        TaskState::Running,
    );
    for row in plain(&view, 30, 10, Lang::Zh) {
        assert!(visible_width(&row) <= 29, "{row}");
    }
}

#[test]
fn when_the_tasks_do_not_fit_the_open_ones_show_and_the_rest_is_counted() {
    let mut view = PlanView::default();
    view.propose(&plan(8));
    for i in 0..5 {
        view.set_state(&format!("t{i}"), "", TaskState::Done);
    }
    view.set_state("t5", "", TaskState::Running);
    assert_eq!(
        plain(&view, 80, 3, Lang::En),
        vec![
            "◐ t5  task number 5 · running",
            "○ t6  task number 6 · pending",
            "  … +6 · 5 done",
        ]
    );
}

#[test]
fn the_summary_counts_the_tasks_done_and_gives_each_its_first_line() {
    let outcome = |id: &str, state, summary: &str| PlanTaskOutcome {
        task_id: id.to_string(),
        title: format!("task {id}"),
        state,
        summary: summary.to_string(),
    };
    let lines = summary_lines(
        &[
            outcome("A", TaskState::Done, "\nAdded **hello**.\n\nAnd more."),
            outcome("B", TaskState::Skipped, ""),
        ],
        80,
        Style::new(false),
        Lang::En,
    );
    assert_eq!(
        lines,
        vec![
            "Plan finished: 1 of 2 tasks done",
            "✓ A  task A · done",
            "    Added hello.",
            "⊘ B  task B · skipped",
        ]
    );
}
