//! `paicli -p --plan "goal"` and `--team` as text: the plan is printed and run without review (the session runs
//! it), the plan and the results on stdout and short progress lines on stderr. With `--output-format json` or
//! `stream-json` the headless front-end reports the tasks (`docs/headless.md`).

use super::EXIT_FAILURE;
use crate::agent::{AgentEvent, EventSink};
use crate::plan::{PlanError, PlanReport};
use crate::protocol::plan::{Plan, TaskState};
use std::io::IsTerminal;

use crate::text::{Lang, Msg, task_count, tr, trf, visible_lines};
use crate::ui::render::{notice_line, screened};

/// Prints what a plan ended with (each task's result on stdout, counts on stderr, in `lang`); returns the process
/// exit code (0 when every task is done, 1 when a task failed or no plan could be made, 130 when cancelled).
pub(super) fn print_plan(result: &Result<PlanReport, PlanError>, lang: Lang) -> i32 {
    match result {
        Ok(report) => {
            print_results(lang, report);
            crate::app::exit_codes::plan_exit_code(report)
        }
        Err(e) => {
            eprintln!(
                "paicli: {}",
                trf(
                    lang,
                    Msg::PlanNotMade,
                    &[("error", &visible_lines(&e.to_string()))]
                )
            );
            EXIT_FAILURE
        }
    }
}

fn print_results(lang: Lang, report: &PlanReport) {
    if report.cancelled {
        eprintln!("paicli: {}", tr(lang, Msg::PlanCancelled));
    }
    let screen = std::io::stdout().is_terminal();
    for o in &report.outcomes {
        let line = format!("[{}] {}: {}", o.task_id, o.title, o.summary.trim());
        if screen {
            println!("{}", visible_lines(&line));
        } else {
            println!("{line}");
        }
    }
    let count = |state| report.outcomes.iter().filter(|o| o.state == state).count();
    eprintln!(
        "paicli: {}",
        trf(
            lang,
            Msg::PlanResults,
            &[
                ("done", &count(TaskState::Done)),
                ("failed", &count(TaskState::Failed)),
                ("skipped", &count(TaskState::Skipped)),
            ]
        )
    );
}

/// The plan's text lines: a heading, then one line per task with its dependencies.
pub fn plan_lines(lang: Lang, plan: &Plan, revision: u32) -> Vec<String> {
    let mut lines = vec![trf(
        lang,
        Msg::PlanHeading,
        &[
            ("revision", &revision),
            ("count", &task_count(lang, plan.tasks.len())),
        ],
    )];
    for (n, task) in plan.tasks.iter().enumerate() {
        let mut line = format!("  {}. [{}] {}", n + 1, task.id, task.title);
        if !task.depends_on.is_empty() {
            let after = trf(
                lang,
                Msg::PlanTaskAfter,
                &[("deps", &task.depends_on.join(", "))],
            );
            line.push_str(&format!(" ({after})"));
        }
        lines.push(line);
    }
    lines
}

/// Text output: the plan on stdout, task progress on stderr. Progress always passes the terminal sanitizer; the
/// plan on stdout does when stdout is a terminal.
pub(super) struct TextPlan {
    pub(super) lang: Lang,
    pub(super) screen_stdout: bool,
}

impl EventSink for TextPlan {
    fn emit(&self, event: AgentEvent) {
        let lang = self.lang;
        let event = match event {
            event @ AgentEvent::PlanProposed { .. } if !self.screen_stdout => event,
            event => screened(event),
        };
        match event {
            AgentEvent::PlanProposed { plan, revision } => {
                for line in plan_lines(lang, &plan, revision) {
                    println!("{line}");
                }
            }
            AgentEvent::PlanTaskStarted { task_id, title } => eprintln!(
                "{}",
                trf(
                    lang,
                    Msg::PlanTaskRunning,
                    &[("id", &task_id), ("title", &title)]
                )
            ),
            AgentEvent::PlanTaskFinished {
                task_id,
                state,
                summary,
            } => {
                let first = summary.lines().next().unwrap_or_default().to_string();
                let args: &[(&str, &dyn std::fmt::Display)] =
                    &[("id", &task_id), ("summary", &first)];
                let msg = match state {
                    TaskState::Done => Msg::PlanTaskDone,
                    TaskState::Skipped => Msg::PlanTaskSkipped,
                    _ => Msg::PlanTaskFailed,
                };
                eprintln!("{}", trf(lang, msg, args));
            }
            AgentEvent::PlanTaskEvent { task_id, event } => match *event {
                AgentEvent::ToolCallStarted { name, .. } => eprintln!("  [{task_id}] → {name}"),
                AgentEvent::Notice { notice } => {
                    eprintln!("  [{task_id}] paicli: {}", notice_line(lang, &notice))
                }
                _ => {}
            },
            AgentEvent::Notice { notice } => eprintln!("paicli: {}", notice_line(lang, &notice)),
            _ => {}
        }
    }
}
