//! The REPL's event sink: reasoning dimmed under a "Thinking" heading, the answer as streaming Markdown, one line
//! per tool call with its diff and a preview of a command's output, and (on a terminal) the live working line
//! under the transcript. Writes `Surface::newline` line endings so output stays aligned in raw mode.
//!
//! One lock orders every write: each transcript write clears the working line first, and the line is drawn
//! again after the event, so the two never interleave (the ticker thread that animates it takes the same lock).

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::expand::{Expandable, LastExpandable};
use super::live::{Phase, TypedAhead, WorkingLine};
use super::plan_view::PlanView;
use super::tool_line::{diagnostics_line, shown_summary};
use super::wrap::{StreamWrap, marked, wrap_hanging};
use super::{MarkdownStream, Surface, notice_line, tool_started_line};
use crate::agent::{AgentEvent, EventSink};
use crate::plan::CallTasks;
use crate::protocol::ToolKind;
use crate::text::{Lang, Msg, labelled, tr, trf};

/// How often the working line's spinner and clock move.
const TICK: Duration = Duration::from_millis(100);
/// Clears the cursor's row.
const CLEAR_ROW: &str = "\r\x1b[2K";
/// Erases from the cursor to the end of the screen.
const ERASE_BELOW: &str = "\x1b[J";

struct Inner {
    out: Box<dyn Write + Send>,
    surface: Surface,
    lang: Lang,
    markdown: MarkdownStream,
    /// Reasoning is being streamed (its heading is printed), word-wrapped.
    reasoning: bool,
    reasoning_wrap: StreamWrap,
    /// A reasoning line is open: the cursor is not at the start of a line.
    mid_line: bool,
    /// Ask the terminal for its width at each use (it may be resized while a turn runs).
    track_resize: bool,
    /// Show the answer's growing last line in place (terminals only).
    partial_lines: bool,
    /// That line as it is on screen now.
    shown_partial: String,
    live: Option<Live>,
    /// Full results of calls that are finishing, by call id, until their result line is printed.
    outputs: HashMap<String, String>,
    /// Each running call's start line without colours (the heading of its expanded result).
    titles: HashMap<String, String>,
    /// Running calls that run a command (`ToolKind::Execute`): their output is previewed under the result line.
    commands: HashSet<String>,
    /// Each running call's argument summary, named on its result line when calls ran side by side.
    summaries: HashMap<String, String>,
    /// Results of calls run side by side, printed in call order.
    call_order: call_order::CallOrder,
    expandable: Option<LastExpandable>,
    /// What the person typed while the turn runs (type-ahead), read at each redraw of the working line.
    input_preview: Option<InputPreview>,
    /// The running plan's task list, drawn above the working line.
    plan: Option<PlanView>,
    /// The task of each running sub-agent call, so an approval prompt can name the task asking.
    call_tasks: CallTasks,
    /// `Some` when the run is a plan (see [`TerminalSink::for_plan`]): whether its tasks started.
    plan_run: Option<bool>,
    /// While a hook runs: the working line's phase to go back to (see `sink/hooks.rs`).
    before_hook: Option<Phase>,
}

/// Reads the type-ahead to show under the working line: the line being typed and the queued messages.
pub type InputPreview = Arc<dyn Fn() -> Option<TypedAhead> + Send + Sync>;

/// Renders [`AgentEvent`]s to a terminal (or any writer, for tests).
pub struct TerminalSink {
    inner: Arc<Mutex<Inner>>,
    ticker: Mutex<Option<Ticker>>,
}

mod call_order;
mod calls;
mod hooks;
mod plan;
mod screen;

pub use screen::LiveHandle;
use screen::{Live, Ticker};

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    inner.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TerminalSink {
    /// A sink writing to `out`.
    pub fn new(surface: Surface, lang: Lang, out: Box<dyn Write + Send>) -> Self {
        TerminalSink {
            inner: Arc::new(Mutex::new(Inner {
                out,
                surface,
                lang,
                markdown: MarkdownStream::new(surface.width, surface.style),
                reasoning: false,
                reasoning_wrap: StreamWrap::default(),
                mid_line: false,
                partial_lines: false,
                track_resize: false,
                shown_partial: String::new(),
                live: None,
                outputs: HashMap::new(),
                titles: HashMap::new(),
                commands: HashSet::new(),
                summaries: HashMap::new(),
                call_order: call_order::CallOrder::default(),
                expandable: None,
                input_preview: None,
                plan: None,
                call_tasks: CallTasks::default(),
                plan_run: None,
                before_hook: None,
            })),
            ticker: Mutex::new(None),
        }
    }

    /// A sink writing to stdout.
    pub fn stdout(surface: Surface, lang: Lang) -> Self {
        Self::new(surface, lang, Box::new(std::io::stdout()))
    }

    /// Keeps each tool result in `last` for Ctrl+O and previews command output under its result line.
    pub fn with_expandable(self, last: LastExpandable) -> Self {
        lock(&self.inner).expandable = Some(last);
        self
    }

    /// The run is a plan: its end is worded for one (no plan could be made; the plan stopped after its tasks
    /// started).
    pub fn for_plan(self) -> Self {
        lock(&self.inner).plan_run = Some(false);
        self
    }

    /// A terminal: the answer's last line grows in place, and the working line runs under the transcript
    /// (animated by a ticker thread until [`TerminalSink::finish`]).
    pub fn with_live_line(self) -> Self {
        let sink = self.with_live_state();
        lock(&sink.inner).track_resize = true;
        let (stop, ticks) = mpsc::channel();
        let inner = Arc::clone(&sink.inner);
        let thread = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = ticks.recv_timeout(TICK) {
                lock(&inner).redraw_live();
            }
        });
        *sink.ticker.lock().unwrap_or_else(PoisonError::into_inner) = Some(Ticker { stop, thread });
        sink
    }

    /// Shows what `preview` reads (the type-ahead) under the working line.
    pub fn with_input_preview(self, preview: InputPreview) -> Self {
        lock(&self.inner).input_preview = Some(preview);
        self
    }

    /// The working line without its ticker (tests step it with [`TerminalSink::tick`]).
    fn with_live_state(self) -> Self {
        {
            let mut inner = lock(&self.inner);
            inner.partial_lines = true;
            inner.live = Some(Live {
                line: WorkingLine::default(),
                rows: 0,
                suspended: None,
                active: true,
                started: Instant::now(),
                reported_tokens: 0,
                streamed_chars: 0,
                held: String::new(),
                prompts: 0,
            });
        }
        self
    }

    #[cfg(test)]
    fn tick(&self) {
        self.lock().redraw_live();
    }

    /// A handle on the working line for the approval prompt and type-ahead.
    pub fn live_handle(&self) -> LiveHandle {
        LiveHandle(Arc::clone(&self.inner))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    /// Prints held-back answer text, ends the current line and removes the working line for good.
    pub fn finish(&self) {
        {
            let mut inner = self.lock();
            if let Some(live) = &mut inner.live {
                live.suspended = None;
                live.prompts = 0;
            }
            inner.release_held();
            inner.flush_answer();
            inner.end_live();
            inner.flush();
        }
        self.stop_ticker();
    }

    fn stop_ticker(&self) {
        let ticker = self
            .ticker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(t) = ticker {
            drop(t.stop);
            let _ = t.thread.join();
        }
    }

    /// Prints `lines` (after anything held back).
    pub fn print_lines(&self, lines: &[String]) {
        let mut inner = self.lock();
        inner.flush_answer();
        inner.write_lines(lines);
        inner.draw_live();
        inner.flush();
    }
}

impl Drop for TerminalSink {
    fn drop(&mut self) {
        self.stop_ticker();
    }
}

impl Inner {
    /// Every transcript write goes through here: the working line is cleared first.
    fn write(&mut self, text: &str) {
        // A prompt owns the screen: what parallel plan tasks print waits until it is answered.
        if let Some(live) = &mut self.live
            && live.suspended.is_some()
        {
            live.held.push_str(text);
            return;
        }
        self.clear_live();
        let _ = self.out.write_all(text.as_bytes());
    }

    fn flush(&mut self) {
        let _ = self.out.flush();
    }

    fn write_lines(&mut self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        let nl = self.surface.newline;
        let mut text = lines.join(nl);
        text.push_str(nl);
        self.write(&text);
    }

    /// Writes a notice, `mark` then `text`, wrapped at word boundaries to the screen; `paint` colours each line.
    fn write_marked(&mut self, mark: &str, text: &str, paint: impl Fn(&str) -> String) {
        let lines: Vec<String> = marked(mark, text, self.width())
            .iter()
            .map(|l| paint(l))
            .collect();
        self.write_lines(&lines);
    }

    /// Writes `text` wrapped at word boundaries, continuation lines indented two cells; `paint` colours each.
    fn write_wrapped(&mut self, text: &str, paint: impl Fn(&str) -> String) {
        let lines: Vec<String> = wrap_hanging(text, self.width(), 2)
            .iter()
            .map(|l| paint(l))
            .collect();
        self.write_lines(&lines);
    }

    fn end_line(&mut self) {
        if self.mid_line || !self.shown_partial.is_empty() {
            let nl = self.surface.newline;
            self.write(nl);
            self.mid_line = false;
            self.shown_partial.clear();
        }
    }

    fn end_reasoning(&mut self) {
        if self.reasoning {
            let width = self.width();
            let rest = self.reasoning_wrap.finish(width);
            self.write_reasoning(&rest);
            self.end_line();
            self.reasoning = false;
            self.reasoning_wrap = StreamWrap::default();
        }
    }

    fn write_reasoning(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let body = text.replace('\n', self.surface.newline);
        let dimmed = self.surface.style.dim(&body);
        self.write(&dimmed);
        self.mid_line = self.reasoning_wrap.column() > 0;
    }

    /// Writes final answer lines, finishing the growing line already on screen, then shows the new growing line.
    fn answer_lines(&mut self, lines: Vec<String>) {
        let nl = self.surface.newline;
        for line in lines {
            let shown = std::mem::take(&mut self.shown_partial);
            let text = match line.strip_prefix(shown.as_str()) {
                Some(rest) if !shown.is_empty() => format!("{rest}{nl}"),
                _ if !shown.is_empty() => format!("{CLEAR_ROW}{line}{nl}"),
                _ => format!("{line}{nl}"),
            };
            self.write(&text);
        }
        if !self.partial_lines {
            return;
        }
        let Some(pending) = self.markdown.pending_line().map(str::to_string) else {
            return;
        };
        if pending == self.shown_partial {
            return;
        }
        let text = match pending.strip_prefix(self.shown_partial.as_str()) {
            Some(rest) => rest.to_string(),
            None => format!("{CLEAR_ROW}{pending}"),
        };
        self.write(&text);
        self.shown_partial = pending;
    }

    fn flush_answer(&mut self) {
        self.end_reasoning();
        let lines = self.markdown.finish();
        self.answer_lines(lines);
        self.end_line();
    }

    fn reasoning(&mut self, text: &str) {
        let style = self.surface.style;
        if !self.reasoning {
            // Never print an empty "Thinking" heading.
            let text = text.trim_start();
            if text.is_empty() {
                return;
            }
            let heading = style.dim(&style.italic(&format!("✻ {}…", tr(self.lang, Msg::Thinking))));
            let heading = format!("{heading}{}", self.surface.newline);
            self.write(&heading);
            self.reasoning = true;
            return self.reasoning(text);
        }
        let width = self.width();
        let wrapped = self.reasoning_wrap.push(text, width);
        self.write_reasoning(&wrapped);
    }

    /// Columns of the terminal now (it may have been resized), or the surface's width off a terminal.
    fn width(&self) -> usize {
        if self.track_resize {
            crossterm::terminal::size()
                .map(|(w, _)| usize::from(w))
                .ok()
                .filter(|w| *w >= 20)
                .unwrap_or(self.surface.width)
        } else {
            self.surface.width
        }
    }

    fn set_phase(&mut self, phase: Phase) {
        match &mut self.live {
            // Under a prompt: the phase to show when it is answered (a parallel task moved on).
            Some(live) if live.suspended.is_some() => live.suspended = Some(phase),
            Some(live) => live.line.set_phase(phase),
            None => {}
        }
    }

    fn remember(&mut self, title: String, text: String) {
        if let Some(last) = &self.expandable
            && !text.trim().is_empty()
        {
            last.set(Expandable { title, text });
        }
    }

    fn emit(&mut self, event: AgentEvent) {
        let style = self.surface.style;
        match event {
            AgentEvent::RequestStarted { .. } => self.set_phase(Phase::WaitingModel),
            AgentEvent::ReasoningDelta { text } => {
                self.set_phase(Phase::Thinking);
                self.reasoning(&text);
            }
            AgentEvent::TextDelta { text } => {
                self.set_phase(Phase::Responding);
                if let Some(live) = &mut self.live {
                    live.streamed_chars += text.chars().count();
                }
                self.end_reasoning();
                let width = self.width();
                self.markdown.set_width(width);
                let lines = self.markdown.push(&text);
                self.answer_lines(lines);
            }
            AgentEvent::ToolCallStarted {
                id,
                name,
                kind,
                summary,
                ..
            } => {
                self.flush_answer();
                let line = tool_started_line(&name, &summary, style);
                self.write_lines(&[line]);
                let args = shown_summary(&summary);
                self.call_order.start(&id);
                self.summaries.insert(id.clone(), args.clone());
                // A command's working line is the command itself.
                let label = if kind == ToolKind::Execute {
                    self.commands.insert(id.clone());
                    args.clone()
                } else {
                    format!("{name} {args}").trim_end().to_string()
                };
                self.titles.insert(
                    id.clone(),
                    format!("● {name} {args}").trim_end().to_string(),
                );
                self.set_phase(Phase::Running { id, label });
            }
            AgentEvent::ToolOutput { id, line } => {
                if let Some(live) = &mut self.live {
                    live.line.push_output(&id, &line);
                    // Shown at the next tick: a command printing fast redraws ten times a second, not per line.
                }
            }
            AgentEvent::ToolCallOutput { id, text } => {
                self.outputs.insert(id, text);
            }
            // Calls show when they start; the terminal does not ask for their arguments as they stream.
            AgentEvent::ToolCallDelta { .. } => {}
            event @ AgentEvent::ToolCallFinished { .. } => self.call_finished(event),
            // plan: the task list and the tagged lines of its sub-agents.
            event @ (AgentEvent::PlanProposed { .. }
            | AgentEvent::PlanTaskStarted { .. }
            | AgentEvent::PlanTaskEvent { .. }
            | AgentEvent::PlanTaskFinished { .. }
            | AgentEvent::PlanFinished { .. }) => self.plan_event(event),
            // The model's task list, above the working line (a running plan's own list comes first).
            AgentEvent::TaskList { list } => {
                if self.plan_run.is_none() {
                    self.plan = Some(PlanView::of_task_list(&list));
                }
            }
            // delegation: a sub-agent's lines tagged with its name, as a plan task's are with its id.
            AgentEvent::SubAgent { agent, event, .. } => self.task_event(&agent, *event),
            AgentEvent::DiagnosticsInjected { files, text } => {
                self.flush_answer();
                let width = self.width();
                let line = diagnostics_line(&files, self.lang, style, width);
                self.write_lines(&[line]);
                let title = format!("⚠ {}", tr(self.lang, Msg::DiagnosticsTitle));
                self.remember(title, text);
            }
            AgentEvent::Usage { response, .. } => {
                if let Some(live) = &mut self.live {
                    live.reported_tokens += response.prompt_tokens + response.completion_tokens;
                    live.streamed_chars = 0;
                }
            }
            // What the input brought along is information, not a warning.
            AgentEvent::Notice {
                notice: notice @ crate::protocol::Notice::MentionsAttached { .. },
            } => {
                self.flush_answer();
                let text = notice_line(self.lang, &notice);
                self.write_marked("⎿", &text, |l| style.dim(l));
            }
            AgentEvent::Notice { notice } => {
                self.flush_answer();
                let text = notice_line(self.lang, &notice);
                self.write_marked("!", &text, |l| style.yellow(l));
            }
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                messages,
            } => {
                self.flush_answer();
                let line = super::compaction_line(stage, tokens_before, tokens_after, messages);
                self.write_wrapped(&line, |l| style.dim(l));
            }
            AgentEvent::TurnPartial { reason, .. } => {
                self.flush_answer();
                self.print_held_results();
                self.end_live();
                let partial = tr(self.lang, Msg::PartialCompletion);
                self.write_marked("⚠", &format!("{partial} ({reason})"), |l| style.yellow(l));
            }
            AgentEvent::TurnCancelled => {
                self.flush_answer();
                self.print_held_results();
                self.end_live();
                let cancelled = match self.plan_run {
                    Some(true) => tr(self.lang, Msg::PlanStopped),
                    Some(false) | None => tr(self.lang, Msg::Cancelled),
                };
                self.write_marked("⏹", cancelled, |l| style.yellow(l));
            }
            AgentEvent::TurnFailed { error } => {
                self.flush_answer();
                self.print_held_results();
                self.end_live();
                let error = match self.plan_run {
                    Some(_) => trf(self.lang, Msg::PlanFailedToStart, &[("error", &error)]),
                    None => error,
                };
                let line = labelled(self.lang, Msg::ErrorPrefix, &error);
                self.write_wrapped(&line, |l| style.red(l));
            }
            AgentEvent::TurnFinished { .. } => {
                self.flush_answer();
                self.print_held_results();
                self.end_live();
            }
            AgentEvent::HookStarted {
                hook_event,
                command,
            } => self.hook_started(&hook_event, &command),
            AgentEvent::HookFinished {
                hook_event,
                outcome,
                reason,
                ..
            } => self.hook_finished(&hook_event, outcome, &reason),
        }
    }
}

impl EventSink for TerminalSink {
    fn emit(&self, event: AgentEvent) {
        // The boundary: nothing below sees an event's text before its control characters are made visible.
        let event = super::screened(event);
        let mut inner = self.lock();
        inner.emit(event);
        inner.draw_live();
        inner.flush();
    }

    fn wants_tool_output(&self) -> bool {
        let inner = self.lock();
        inner.live.is_some() || inner.expandable.is_some()
    }
}

#[cfg(test)]
mod tests;
