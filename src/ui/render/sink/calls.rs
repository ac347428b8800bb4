//! A finished call's result lines: the outcome, a command's output preview, the diff; printed in call order
//! (see `call_order`) and kept for Ctrl+O.

use super::super::tool_line::{ToolResultView, tool_result_lines};
use super::super::{Phase, render_diff_in};
use super::Inner;
use crate::agent::AgentEvent;

impl Inner {
    /// Shows `event`, a `ToolCallFinished`.
    pub(super) fn call_finished(&mut self, event: AgentEvent) {
        let AgentEvent::ToolCallFinished {
            id,
            name,
            status,
            detail,
            duration_ms,
            output_chars,
            diff,
        } = event
        else {
            return;
        };
        let style = self.surface.style;
        self.flush_answer();
        let output = self.outputs.remove(&id);
        let command = self.commands.remove(&id);
        let preview = (command && self.expandable.is_some())
            .then_some(output.as_deref())
            .flatten()
            .filter(|_| status == crate::agent::ToolStatus::Ok);
        let summary = self.summaries.remove(&id).unwrap_or_default();
        let about = if self.call_order.crowded(&id) {
            summary.as_str()
        } else {
            ""
        };
        let view = ToolResultView {
            name: &name,
            about,
            status,
            detail: &detail,
            duration_ms,
            output_chars,
            output: preview,
        };
        let width = self.width();
        let mut lines = tool_result_lines(&view, self.lang, style, width);
        if let Some(diff) = diff {
            lines.extend(render_diff_in(&diff, style, self.lang));
        }
        let due = self.call_order.finish(&id, lines);
        if !due.is_empty() {
            self.write_lines(&due);
        }
        let title = self
            .titles
            .remove(&id)
            .unwrap_or_else(|| format!("● {name}"));
        let full = output.filter(|t| !t.trim().is_empty()).unwrap_or(detail);
        self.remember(title, full);
        self.set_phase(Phase::Working);
    }

    /// Results still waiting for an earlier call (the turn ended before it reported).
    pub(super) fn print_held_results(&mut self) {
        let held = self.call_order.drain();
        if !held.is_empty() {
            self.write_lines(&held);
        }
    }
}
