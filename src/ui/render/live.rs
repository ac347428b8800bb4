//! The working line under the transcript while a task runs: spinner, phase, elapsed seconds, tokens so far,
//! the last output lines of a running command, and the type-ahead preview. Pure: the sink decides when it is
//! drawn and cleared.

use std::collections::VecDeque;
use std::time::Duration;

use super::plan_view::task_label;
use super::wrap::visible_width;
use super::{Style, format_count};
use crate::text::{Lang, Msg, tr};

/// Output lines of a running command kept for the working line.
pub const TAIL_LINES: usize = 3;

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// What the task is doing now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    WaitingModel,
    Thinking,
    Responding,
    /// A tool call: its id and the short label shown (`cargo test`, `read_file src/main.rs`).
    Running {
        id: String,
        label: String,
    },
    WaitingApproval,
    Working,
}

/// The state behind the working line.
#[derive(Clone, Debug)]
pub struct WorkingLine {
    pub phase: Phase,
    /// Tokens the turn has used (provider counts plus an estimate of what streams now).
    pub tokens: u64,
    /// The running command's last output lines.
    pub tail: VecDeque<String>,
    /// The last output lines of plan tasks' running commands, which run side by side: each shown with its task.
    pub task_tail: VecDeque<TaskLine>,
    /// Text typed ahead in the input line, and messages queued to send when the turn ends.
    pub input_preview: Option<TypedAhead>,
}

/// What the person typed while the turn runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypedAhead {
    /// The line being typed (not sent yet).
    pub line: String,
    /// Lines sent with Enter, oldest first: the next messages (or commands) once the turn ends.
    pub queued: Vec<String>,
}

impl Default for WorkingLine {
    fn default() -> Self {
        WorkingLine {
            phase: Phase::WaitingModel,
            tokens: 0,
            tail: VecDeque::new(),
            task_tail: VecDeque::new(),
            input_preview: None,
        }
    }
}

/// One output line of a plan task's running call.
#[derive(Clone, Debug)]
pub struct TaskLine {
    pub task: String,
    pub call: String,
    pub text: String,
}

impl WorkingLine {
    /// Records one output line of call `id` (ignored unless that call is the one running).
    pub fn push_output(&mut self, id: &str, line: &str) {
        if matches!(&self.phase, Phase::Running { id: running, .. } if running == id) {
            if self.tail.len() == TAIL_LINES {
                self.tail.pop_front();
            }
            self.tail.push_back(line.replace('\t', "    "));
        }
    }

    /// Records one output line of call `call` of plan task `task`. Kept until that call ends, whatever the
    /// other tasks do meanwhile; when the tail is full, the task with the most lines gives up its oldest, so
    /// every running command keeps a line on screen.
    pub fn push_task_output(&mut self, task: &str, call: &str, line: &str) {
        if self.task_tail.len() >= TAIL_LINES {
            let count = |t: &str| self.task_tail.iter().filter(|l| l.task == t).count();
            let most = self
                .task_tail
                .iter()
                .map(|l| count(&l.task))
                .max()
                .unwrap_or(0);
            if let Some(at) = self.task_tail.iter().position(|l| count(&l.task) == most) {
                self.task_tail.remove(at);
            }
        }
        self.task_tail.push_back(TaskLine {
            task: task.to_string(),
            call: call.to_string(),
            text: line.replace('\t', "    "),
        });
    }

    /// Drops the output lines of call `call` of plan task `task` (it finished).
    pub fn end_task_call(&mut self, task: &str, call: &str) {
        self.task_tail.retain(|l| l.task != task || l.call != call);
    }

    /// Moves to `phase`; the output tail belongs to the call that printed it.
    pub fn set_phase(&mut self, phase: Phase) {
        if self.phase != phase {
            self.tail.clear();
        }
        self.phase = phase;
    }

    /// The rows to draw, each at most `width - 1` columns (so none wraps).
    pub fn render(&self, elapsed: Duration, width: usize, style: Style, lang: Lang) -> Vec<String> {
        let columns = width.saturating_sub(1).max(10);
        let frame = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
        let phase = match &self.phase {
            Phase::WaitingModel => tr(lang, Msg::PhaseWaitingModel).to_string(),
            Phase::Thinking => tr(lang, Msg::PhaseThinking).to_string(),
            Phase::Responding => tr(lang, Msg::PhaseResponding).to_string(),
            Phase::Running { label, .. } => format!("{} {label}", tr(lang, Msg::PhaseRunning)),
            Phase::WaitingApproval => tr(lang, Msg::PhaseWaitingApproval).to_string(),
            Phase::Working => tr(lang, Msg::PhaseWorking).to_string(),
        };
        let mut facts = vec![format!("{}{}", elapsed.as_secs(), tr(lang, Msg::Seconds))];
        if self.tokens > 0 {
            facts.push(format!(
                "{} {}",
                format_count(self.tokens),
                tr(lang, Msg::Tokens)
            ));
        }
        facts.push(tr(lang, Msg::LiveEscToStop).to_string());
        let head = cut(&format!("{frame} {phase} · {}", facts.join(" · ")), columns);
        let mut rows = vec![style.cyan(&head)];
        for line in &self.tail {
            rows.push(style.dim(&cut(&format!("  │ {line}"), columns)));
        }
        // Grouped by task (in arrival order within one), so the rows do not change places as lines arrive.
        let mut task_lines: Vec<&TaskLine> = self.task_tail.iter().collect();
        task_lines.sort_by(|a, b| a.task.cmp(&b.task));
        for line in task_lines {
            let row = format!("  │ {}{}", task_label(&line.task), line.text);
            rows.push(style.dim(&cut(&row, columns)));
        }
        if let Some(typed) = &self.input_preview {
            rows.extend(
                typed_rows(typed, lang)
                    .iter()
                    .map(|r| style.dim(&cut(r, columns))),
            );
        }
        rows
    }
}

/// The rows of the type-ahead: the next queued message (a command says it waits for the turn), how many more,
/// then the line being typed.
fn typed_rows(typed: &TypedAhead, lang: Lang) -> Vec<String> {
    let mut rows = Vec::new();
    if let Some(next) = typed.queued.first() {
        // The count first: a long message is cut at the screen's edge.
        let label = match typed.queued.len() {
            1 => tr(lang, Msg::LiveQueued).to_string(),
            n => tr(lang, Msg::LiveQueuedMore).replace("{n}", &(n - 1).to_string()),
        };
        let mut row = format!("  {label} › {next}");
        if next.trim_start().starts_with('/') {
            row.push_str(tr(lang, Msg::LiveCommandWaits));
        }
        rows.push(row);
    }
    if !typed.line.is_empty() {
        rows.push(format!("  › {}", typed.line));
    }
    rows
}

/// Cuts `text` to `columns` display columns (a row must never wrap, or clearing it would leave a line behind).
pub(super) fn cut(text: &str, columns: usize) -> String {
    if visible_width(text) <= columns {
        return text.to_string();
    }
    let mut out = String::new();
    for ch in text.chars() {
        if visible_width(&out) + visible_width(ch.encode_utf8(&mut [0; 4])) + 1 > columns {
            break;
        }
        out.push(ch);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_of_the_running_call_only() {
        let mut w = WorkingLine::default();
        w.push_output("c1", "ignored: not running");
        w.set_phase(Phase::Running {
            id: "c1".into(),
            label: "seq 5".into(),
        });
        for i in 1..=5 {
            w.push_output("c1", &i.to_string());
        }
        w.push_output("c2", "other call");
        assert_eq!(w.tail, ["3", "4", "5"]);
        w.set_phase(Phase::WaitingModel);
        assert!(w.tail.is_empty());
    }

    #[test]
    fn parallel_tasks_output_is_tagged_and_each_running_command_keeps_a_line() {
        let mut w = WorkingLine::default();
        for i in 1..=4 {
            w.push_task_output("B", "run", &format!("bee {i}"));
        }
        w.push_task_output("C", "run", "sea 1");
        // Another task's phase changes do not clear it.
        w.set_phase(Phase::WaitingModel);
        w.push_task_output("C", "run", "sea 2");
        let rows = w.render(Duration::from_secs(1), 60, Style::new(false), Lang::En);
        assert_eq!(
            rows[1..],
            ["  │ [B] bee 4", "  │ [C] sea 1", "  │ [C] sea 2"]
        );
        // B's command ends: its line goes, C's stay.
        w.end_task_call("B", "run");
        let rows = w.render(Duration::from_secs(1), 60, Style::new(false), Lang::En);
        assert_eq!(rows[1..], ["  │ [C] sea 1", "  │ [C] sea 2"]);
        // The same call id in another task is another call.
        w.end_task_call("B", "run");
        assert_eq!(w.task_tail.len(), 2);
    }

    #[test]
    fn rows_never_exceed_the_width() {
        let mut w = WorkingLine::default();
        w.set_phase(Phase::Running {
            id: "c".into(),
            label: "a-very-long-command ".repeat(10),
        });
        w.push_output("c", &"中文输出".repeat(20));
        for row in w.render(Duration::from_secs(3), 40, Style::new(false), Lang::Zh) {
            assert!(visible_width(&row) <= 39, "{row}");
        }
    }
}
