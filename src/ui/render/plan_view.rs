//! The live task list while a plan runs: one row per task with its state, drawn above the working line and
//! redrawn in place, plus the transcript lines that name a task (`[B] ● read_file src/x.rs`) and the summary at
//! the end. Pure: the sink decides when rows are drawn.

use crate::protocol::plan::{Plan, PlanTaskOutcome, TaskState};
use crate::protocol::{StepStatus, TaskList};
use crate::text::{Lang, Msg, tr};

use super::Style;
use super::live::cut;
use super::markdown::render_markdown;

/// Columns of a task id in tags and rows (longer ids are cut).
const ID_COLUMNS: usize = 12;

/// One task as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    id: String,
    title: String,
    state: TaskState,
}

/// The tasks of the plan being run and where each stands.
#[derive(Clone, Debug, Default)]
pub struct PlanView {
    rows: Vec<Row>,
    /// A task has started: the list is worth drawing (not while the plan is only proposed).
    started: bool,
}

impl PlanView {
    /// Starts over with every task of `plan` pending (a plan or a re-plan was proposed).
    pub fn propose(&mut self, plan: &Plan) {
        self.rows = plan
            .tasks
            .iter()
            .map(|t| Row {
                id: t.id.clone(),
                title: t.title.clone(),
                state: TaskState::Pending,
            })
            .collect();
        self.started = false;
    }

    /// The model's task list (`update_plan`), numbered from 1, drawn at once.
    pub fn of_task_list(list: &TaskList) -> Self {
        let rows = list
            .plan
            .iter()
            .enumerate()
            .map(|(n, s)| Row {
                id: (n + 1).to_string(),
                title: s.step.clone(),
                state: match s.status {
                    StepStatus::Pending => TaskState::Pending,
                    StepStatus::InProgress => TaskState::Running,
                    StepStatus::Completed => TaskState::Done,
                },
            })
            .collect();
        PlanView {
            rows,
            started: true,
        }
    }

    /// Task `id` moved to `state` (a task the plan did not name is added, so nothing is lost).
    pub fn set_state(&mut self, id: &str, title: &str, state: TaskState) {
        self.started |= state != TaskState::Pending;
        match self.rows.iter_mut().find(|r| r.id == id) {
            Some(row) => row.state = state,
            None => self.rows.push(Row {
                id: id.to_string(),
                title: title.to_string(),
                state,
            }),
        }
    }

    /// The title of task `id`, or the id itself.
    pub fn title(&self, id: &str) -> String {
        self.rows
            .iter()
            .find(|r| r.id == id)
            .map_or_else(|| id.to_string(), |r| r.title.clone())
    }

    /// The list's rows at `width`, at most `max_rows` of them (each under `width` columns, so none wraps): when
    /// the tasks do not fit, the running and pending ones are shown and the rest counted on a last row.
    pub fn rows(&self, width: usize, max_rows: usize, style: Style, lang: Lang) -> Vec<String> {
        if !self.started || self.rows.is_empty() || max_rows == 0 {
            return Vec::new();
        }
        let columns = width.saturating_sub(1).max(10);
        let shown: Vec<&Row> = if self.rows.len() <= max_rows {
            self.rows.iter().collect()
        } else {
            let mut open: Vec<&Row> = self.rows.iter().filter(|r| !r.state.is_final()).collect();
            open.truncate(max_rows.saturating_sub(1));
            open
        };
        let mut out: Vec<String> = shown
            .iter()
            .map(|r| task_row(&r.id, &r.title, r.state, columns, style, lang))
            .collect();
        let hidden = self.rows.len() - shown.len();
        if hidden > 0 {
            let done = self
                .rows
                .iter()
                .filter(|r| r.state == TaskState::Done)
                .count();
            let line = format!(
                "  … +{hidden} · {done} {}",
                tr(lang, state_msg(TaskState::Done))
            );
            out.push(style.dim(&cut(&line, columns)));
        }
        out
    }
}

/// `✓ B  Write hello · done`, cut to `columns`.
pub fn task_row(
    id: &str,
    title: &str,
    state: TaskState,
    columns: usize,
    style: Style,
    lang: Lang,
) -> String {
    let text = cut(
        &format!(
            "{} {}  {} · {}",
            state_mark(state),
            short_id(id),
            title.trim(),
            tr(lang, state_msg(state))
        ),
        columns,
    );
    paint(state, &text, style)
}

/// The tag that starts a task's transcript lines: `[B] `.
pub fn task_tag(id: &str, style: Style) -> String {
    style.dim(&task_label(id))
}

/// The tag without colour, for text painted as a whole (the approval header, the working line).
pub fn task_label(id: &str) -> String {
    format!("[{}] ", short_id(id))
}

/// The summary printed when the plan ends: a heading with the count done, then each task's row and the first
/// line of its summary.
pub fn summary_lines(
    outcomes: &[PlanTaskOutcome],
    width: usize,
    style: Style,
    lang: Lang,
) -> Vec<String> {
    let columns = width.saturating_sub(1).max(10);
    let done = outcomes
        .iter()
        .filter(|o| o.state == TaskState::Done)
        .count();
    let heading = tr(lang, Msg::PlanFinishedHeading)
        .replace("{done}", &done.to_string())
        .replace("{total}", &outcomes.len().to_string());
    let mut lines = vec![style.bold(&heading)];
    for outcome in outcomes {
        lines.push(task_row(
            &outcome.task_id,
            &outcome.title,
            outcome.state,
            columns,
            style,
            lang,
        ));
        // The first line as Markdown shows it (no `**`), cut to one row.
        let shown = render_markdown(outcome.summary.trim(), 1000, Style::new(false));
        if let Some(first) = shown.iter().map(|l| l.trim()).find(|l| !l.is_empty()) {
            lines.push(style.dim(&cut(&format!("    {first}"), columns)));
        }
    }
    lines
}

fn short_id(id: &str) -> String {
    cut(id.trim(), ID_COLUMNS)
}

fn state_mark(state: TaskState) -> char {
    match state {
        TaskState::Pending => '○',
        TaskState::Running => '◐',
        TaskState::Done => '✓',
        TaskState::Failed => '✗',
        TaskState::Skipped => '⊘',
    }
}

fn paint(state: TaskState, text: &str, style: Style) -> String {
    match state {
        TaskState::Pending | TaskState::Skipped => style.dim(text),
        TaskState::Running => style.cyan(text),
        TaskState::Done => style.green(text),
        TaskState::Failed => style.red(text),
    }
}

/// The word for `state` in the list.
pub fn state_msg(state: TaskState) -> Msg {
    match state {
        TaskState::Pending => Msg::PlanStatePending,
        TaskState::Running => Msg::PlanStateRunning,
        TaskState::Done => Msg::PlanStateDone,
        TaskState::Failed => Msg::PlanStateFailed,
        TaskState::Skipped => Msg::PlanStateSkipped,
    }
}

#[cfg(test)]
mod tests;
