//! The plan events: the task list kept for the working line, each sub-agent's tool calls tagged with its task,
//! its answer shown once at the task's end (never streamed, so parallel tasks do not interleave mid-sentence),
//! and the summary when the plan ends.

use super::super::live::Phase;
use super::super::markdown::render_markdown;
use super::super::plan_view::{PlanView, summary_lines, task_row, task_tag};
use super::super::tool_line::{ToolResultView, shown_summary, tool_result_lines};
use super::super::wrap::{visible_width, wrap_hanging};
use super::super::{notice_line, render_diff_in, tool_started_line};
use super::Inner;
use crate::agent::AgentEvent;
use crate::plan::CallTasks;
use crate::protocol::Notice;
use crate::protocol::plan::TaskState;

/// Rows kept free under the task list for the working line and its previews.
const ROWS_FOR_THE_REST: usize = 6;

impl Inner {
    /// Handles one `Plan*` event.
    pub(super) fn plan_event(&mut self, event: AgentEvent) {
        let style = self.surface.style;
        match event {
            AgentEvent::PlanProposed { plan, .. } => {
                self.flush_answer();
                self.plan
                    .get_or_insert_with(PlanView::default)
                    .propose(&plan);
            }
            AgentEvent::PlanTaskStarted { task_id, title } => {
                self.flush_answer();
                let view = self.plan.get_or_insert_with(PlanView::default);
                view.set_state(&task_id, &title, TaskState::Running);
                // The title wraps under itself, after the tag.
                let tag = task_tag(&task_id, style);
                let margin = " ".repeat(visible_width(&tag));
                let width = self.width().saturating_sub(1 + margin.len());
                let lines: Vec<String> = wrap_hanging(&format!("▶ {}", title.trim()), width, 2)
                    .iter()
                    .enumerate()
                    .map(|(n, l)| {
                        let lead = if n == 0 {
                            tag.as_str()
                        } else {
                            margin.as_str()
                        };
                        format!("{lead}{}", style.bold(l))
                    })
                    .collect();
                self.write_lines(&lines);
            }
            AgentEvent::PlanTaskEvent { task_id, event } => self.task_event(&task_id, *event),
            AgentEvent::PlanTaskFinished {
                task_id,
                state,
                summary,
            } => {
                self.flush_answer();
                let view = self.plan.get_or_insert_with(PlanView::default);
                let title = view.title(&task_id);
                view.set_state(&task_id, &title, state);
                let width = self.width();
                let tag = task_tag(&task_id, style);
                let columns = width.saturating_sub(1 + visible_width(&tag));
                let mut lines = vec![format!(
                    "{tag}{}",
                    task_row(&task_id, &title, state, columns, style, self.lang)
                )];
                let mut body = render_markdown(summary.trim(), width.saturating_sub(4), style);
                while body.last().is_some_and(|l| l.trim().is_empty()) {
                    body.pop();
                }
                lines.extend(body.into_iter().map(|l| format!("    {l}")));
                self.write_lines(&lines);
                self.remember(format!("[{task_id}] {title}"), summary);
            }
            AgentEvent::PlanFinished { outcomes } => {
                self.flush_answer();
                self.plan = None;
                self.call_tasks = CallTasks::default();
                // Cancelled at the review: nothing ran, and the review said so.
                if outcomes.is_empty() {
                    return;
                }
                if self.plan_run.is_some() {
                    self.plan_run = Some(true);
                }
                let width = self.width();
                let lines = summary_lines(&outcomes, width, style, self.lang);
                self.write_lines(&lines);
            }
            _ => {}
        }
    }

    /// One event of task `id`'s sub-agent (or of the sub-agent `id` the model started): tool calls and notices as tagged lines, everything else only moves
    /// the working line.
    pub(super) fn task_event(&mut self, id: &str, event: AgentEvent) {
        let style = self.surface.style;
        let tag = task_tag(id, style);
        let width = self.width().saturating_sub(visible_width(&tag));
        self.call_tasks.observe(id, &event);
        match event {
            AgentEvent::ToolCallStarted {
                id: call,
                name,
                summary,
                ..
            } => {
                let line = format!("{tag}{}", tool_started_line(&name, &summary, style));
                self.write_lines(&[line]);
                let label = format!("[{id}] {name} {}", shown_summary(&summary));
                self.set_phase(Phase::Running {
                    id: call,
                    label: label.trim_end().to_string(),
                });
            }
            AgentEvent::ToolOutput { id: call, line } => {
                if let Some(live) = &mut self.live {
                    live.line.push_task_output(id, &call, &line);
                }
            }
            AgentEvent::ToolCallFinished {
                id: call,
                name,
                status,
                detail,
                duration_ms,
                output_chars,
                diff,
                ..
            } => {
                let view = ToolResultView {
                    name: &name,
                    about: "",
                    status,
                    detail: &detail,
                    duration_ms,
                    output_chars,
                    output: None,
                };
                let mut lines = tool_result_lines(&view, self.lang, style, width);
                if let Some(diff) = diff {
                    lines.extend(render_diff_in(&diff, style, self.lang));
                }
                let lines: Vec<String> = lines.into_iter().map(|l| format!("{tag}{l}")).collect();
                self.write_lines(&lines);
                if let Some(live) = &mut self.live {
                    live.line.end_task_call(id, &call);
                }
                self.set_phase(Phase::Working);
            }
            AgentEvent::Notice { notice } => {
                let text = notice_line(self.lang, &notice);
                // The reviewer's pass is good news, not a warning.
                let line = match notice {
                    Notice::PlanStepApproved => style.green(&format!("✓ {text}")),
                    _ => style.yellow(&format!("! {text}")),
                };
                self.write_lines(&[format!("{tag}{line}")]);
            }
            AgentEvent::TurnFailed { error } => {
                let label = crate::text::tr(self.lang, crate::text::Msg::ErrorPrefix);
                self.write_lines(&[format!("{tag}{}", style.red(&format!("{label}: {error}")))]);
            }
            AgentEvent::RequestStarted { .. } => self.set_phase(Phase::WaitingModel),
            AgentEvent::ReasoningDelta { .. } => self.set_phase(Phase::Thinking),
            AgentEvent::TextDelta { text } => {
                self.set_phase(Phase::Responding);
                if let Some(live) = &mut self.live {
                    live.streamed_chars += text.chars().count();
                }
            }
            AgentEvent::Usage { response, .. } => {
                if let Some(live) = &mut self.live {
                    live.reported_tokens += response.prompt_tokens + response.completion_tokens;
                    live.streamed_chars = 0;
                }
            }
            // The answer arrives as the task's summary; cancellation and the end of the turn as its state.
            _ => {}
        }
    }

    /// Rows of the terminal now (24 off a terminal): the task list and working line must fit on it, or moving
    /// back up to redraw them would miss.
    pub(super) fn height(&self) -> usize {
        if self.track_resize {
            crossterm::terminal::size().map_or(24, |(_, h)| usize::from(h))
        } else {
            24
        }
    }

    /// The task list's rows for the working line, leaving room for the rest on a screen of `height` rows.
    pub(super) fn plan_rows(&self, width: usize, height: usize) -> Vec<String> {
        match &self.plan {
            Some(view) => view.rows(
                width,
                height.saturating_sub(ROWS_FOR_THE_REST),
                self.surface.style,
                self.lang,
            ),
            None => Vec::new(),
        }
    }
}
