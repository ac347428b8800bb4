//! The REPL's event sink: reasoning dimmed under a "Thinking" heading, the answer as streaming Markdown, one line
//! per tool call with its diff and a preview of a command's output, and (on a terminal) the live working line
//! under the transcript. Writes `Surface::newline` line endings so output stays aligned in raw mode.
//!
//! One lock orders every write: each transcript write clears the working line first, and the line is drawn
//! again after the event, so the two never interleave (the ticker thread that animates it takes the same lock).

use std::collections::HashMap;
use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::expand::{Expandable, LastExpandable};
use super::live::{Phase, WorkingLine};
use super::tool_line::{ToolResultView, diagnostics_line, key_args, tool_result_lines};
use super::wrap::{StreamWrap, visible_width};
use super::{MarkdownStream, Surface, render_diff, tool_started_line};
use crate::agent::{AgentEvent, EventSink};
use crate::tools::shell::EXECUTE_COMMAND;
use crate::ui::i18n::{Lang, Msg, tr};

/// How often the working line's spinner and clock move.
const TICK: Duration = Duration::from_millis(100);
/// Clears the cursor's row.
const CLEAR_ROW: &str = "\r\x1b[2K";
/// Erases from the cursor to the end of the screen.
const ERASE_BELOW: &str = "\x1b[J";

/// The working line while a turn runs (terminals only).
struct Live {
    line: WorkingLine,
    /// Rows drawn on screen now (0 = not drawn).
    rows: usize,
    /// Not drawn: an approval prompt owns the screen; the phase to go back to after it.
    suspended: Option<Phase>,
    /// False once the turn ended.
    active: bool,
    started: Instant,
    /// Tokens the provider reported this turn, and answer chars streamed since the last report.
    reported_tokens: u64,
    streamed_chars: usize,
}

struct Inner {
    out: Box<dyn Write + Send>,
    surface: Surface,
    lang: Lang,
    markdown: MarkdownStream,
    /// Reasoning is being streamed (its heading is printed), word-wrapped.
    reasoning: bool,
    reasoning_wrap: StreamWrap,
    /// The cursor is not at the start of a line.
    mid_line: bool,
    /// Show the answer's growing last line in place (terminals only).
    partial_lines: bool,
    /// Ask the terminal for its width at each use (it may be resized while a turn runs).
    track_resize: bool,
    /// That line as it is on screen now.
    shown_partial: String,
    live: Option<Live>,
    /// Full results of calls that are finishing, by call id, until their result line is printed.
    outputs: HashMap<String, String>,
    /// Each running call's start line without colours (the heading of its expanded result).
    titles: HashMap<String, String>,
    expandable: Option<LastExpandable>,
}

/// Renders [`AgentEvent`]s to a terminal (or any writer, for tests).
pub struct TerminalSink {
    inner: Arc<Mutex<Inner>>,
    ticker: Mutex<Option<Ticker>>,
}

/// The thread that animates the working line; stops when dropped.
struct Ticker {
    stop: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

/// Lets the approval prompt (and type-ahead) reach the working line of the running turn.
#[derive(Clone)]
pub struct LiveHandle(Arc<Mutex<Inner>>);

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    inner.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LiveHandle {
    /// Clears the working line and keeps it off the screen (an approval prompt is about to be shown).
    pub fn suspend(&self) {
        let mut inner = lock(&self.0);
        inner.clear_live();
        if let Some(live) = &mut inner.live
            && live.suspended.is_none()
        {
            let before = std::mem::replace(&mut live.line.phase, Phase::WaitingApproval);
            live.suspended = Some(before);
        }
        inner.flush();
    }

    /// Shows the working line again after the prompt.
    pub fn resume(&self) {
        let mut inner = lock(&self.0);
        if let Some(live) = &mut inner.live
            && let Some(before) = live.suspended.take()
        {
            live.line.phase = before;
        }
        inner.draw_live();
        inner.flush();
    }

    /// Shows the text typed ahead and how many messages are queued (`1 queued`); `None` hides it.
    pub fn set_input_preview(&self, preview: Option<(&str, usize)>) {
        let mut inner = lock(&self.0);
        if let Some(live) = &mut inner.live {
            live.line.input_preview = preview.map(|(t, n)| (t.to_string(), n));
        }
        inner.redraw_live();
    }
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
                expandable: None,
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
        if let Some(live) = &mut self.live {
            live.line.set_phase(phase);
        }
    }

    /// Removes the working line: it lies from the cursor (where the transcript continues) to the end of the
    /// screen, so erasing that range removes it whole.
    fn clear_live(&mut self) {
        let Some(live) = &mut self.live else { return };
        if live.rows == 0 {
            return;
        }
        live.rows = 0;
        let _ = self.out.write_all(ERASE_BELOW.as_bytes());
    }

    /// Draws the working line under the transcript and puts the cursor back where the transcript continues: at
    /// the start of the line, or at the end of the answer's growing line or the reasoning line (both wrapped
    /// by us, so their column is known).
    fn draw_live(&mut self) {
        let width = self.width();
        let (style, lang) = (self.surface.style, self.lang);
        let column = if self.mid_line {
            self.reasoning_wrap.column()
        } else {
            visible_width(&self.shown_partial)
        };
        let Some(live) = &mut self.live else { return };
        if !live.active || live.suspended.is_some() || live.rows > 0 || column >= width {
            return;
        }
        live.line.tokens = live.reported_tokens + (live.streamed_chars / 4) as u64;
        let rows = live.line.render(live.started.elapsed(), width, style, lang);
        live.rows = rows.len();
        let body = rows.join("\r\n");
        let text = if column == 0 {
            match rows.len() {
                1 => format!("{body}\r"),
                n => format!("{body}\x1b[{}A\r", n - 1),
            }
        } else {
            format!("\r\n{body}\x1b[{}A\x1b[{}G", rows.len(), column + 1)
        };
        let _ = self.out.write_all(text.as_bytes());
    }

    /// The ticker's step: moves the spinner and the clock.
    fn redraw_live(&mut self) {
        self.clear_live();
        self.draw_live();
        self.flush();
    }

    fn end_live(&mut self) {
        self.clear_live();
        if let Some(live) = &mut self.live {
            live.active = false;
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
                arguments,
            } => {
                self.flush_answer();
                let line = tool_started_line(&name, &arguments, style);
                self.write_lines(&[line]);
                let args = key_args(&name, &arguments);
                let label = if name == EXECUTE_COMMAND {
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
            AgentEvent::ToolCallFinished {
                id,
                name,
                status,
                detail,
                duration_ms,
                output_chars,
                diff,
            } => {
                self.flush_answer();
                let output = self.outputs.remove(&id);
                let preview = (name == EXECUTE_COMMAND && self.expandable.is_some())
                    .then_some(output.as_deref())
                    .flatten()
                    .filter(|_| status == crate::agent::ToolStatus::Ok);
                let view = ToolResultView {
                    name: &name,
                    status,
                    detail: &detail,
                    duration_ms,
                    output_chars,
                    output: preview,
                };
                let width = self.width();
                let mut lines = tool_result_lines(&view, self.lang, style, width);
                if let Some(diff) = diff {
                    lines.extend(render_diff(&diff, style));
                }
                self.write_lines(&lines);
                let title = self
                    .titles
                    .remove(&id)
                    .unwrap_or_else(|| format!("● {name}"));
                let full = output.filter(|t| !t.trim().is_empty()).unwrap_or(detail);
                self.remember(title, full);
                self.set_phase(Phase::Working);
            }
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
            AgentEvent::Notice { message } => {
                self.flush_answer();
                self.write_lines(&[style.yellow(&format!("! {message}"))]);
            }
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                messages,
            } => {
                self.flush_answer();
                let line = style.dim(&super::compaction_line(
                    stage,
                    tokens_before,
                    tokens_after,
                    messages,
                ));
                self.write_lines(&[line]);
            }
            AgentEvent::TurnPartial { reason, .. } => {
                self.flush_answer();
                self.end_live();
                let partial = tr(self.lang, Msg::PartialCompletion);
                let line = style.yellow(&format!("⚠ {partial} ({reason})"));
                self.write_lines(&[line]);
            }
            AgentEvent::TurnCancelled => {
                self.flush_answer();
                self.end_live();
                let line = style.yellow(&format!("⏹ {}", tr(self.lang, Msg::Cancelled)));
                self.write_lines(&[line]);
            }
            AgentEvent::TurnFailed { error } => {
                self.flush_answer();
                self.end_live();
                let line = style.red(&format!("{}: {error}", tr(self.lang, Msg::ErrorPrefix)));
                self.write_lines(&[line]);
            }
            AgentEvent::TurnFinished { .. } => {
                self.flush_answer();
                self.end_live();
            }
        }
    }
}

impl EventSink for TerminalSink {
    fn emit(&self, event: AgentEvent) {
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
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::agent::ToolStatus;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn raw_surface() -> Surface {
        Surface {
            newline: "\r\n",
            ..Surface::plain(60)
        }
    }

    fn output(out: &Shared) -> String {
        let bytes = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn live_sink() -> (TerminalSink, Shared, LastExpandable) {
        let out = Shared::default();
        let last = LastExpandable::default();
        let sink = TerminalSink::new(raw_surface(), Lang::En, Box::new(out.clone()))
            .with_expandable(last.clone())
            .with_live_state();
        (sink, out, last)
    }

    /// What a terminal shows after `text`: a small emulator of the sequences the sink writes (one cell per char).
    fn screen(text: &str) -> Vec<String> {
        let mut rows: Vec<Vec<char>> = vec![Vec::new()];
        let (mut r, mut c) = (0usize, 0usize);
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            match ch {
                '\r' => c = 0,
                '\n' => {
                    r += 1;
                    if rows.len() <= r {
                        rows.push(Vec::new());
                    }
                }
                '\x1b' => {
                    chars.next(); // '['
                    let mut n = String::new();
                    let mut end = ' ';
                    for d in chars.by_ref() {
                        if d.is_ascii_digit() {
                            n.push(d);
                        } else {
                            end = d;
                            break;
                        }
                    }
                    let n: usize = n.parse().unwrap_or(0);
                    match end {
                        'A' => r = r.saturating_sub(n.max(1)),
                        'G' => c = n.saturating_sub(1),
                        'K' => rows[r].clear(),
                        'J' => {
                            rows[r].truncate(c);
                            rows.truncate(r + 1);
                        }
                        _ => {}
                    }
                }
                _ => {
                    let row = &mut rows[r];
                    while row.len() < c {
                        row.push(' ');
                    }
                    if c < row.len() {
                        row[c] = ch;
                    } else {
                        row.push(ch);
                    }
                    c += 1;
                }
            }
        }
        rows.into_iter()
            .map(|row| row.into_iter().collect())
            .collect()
    }

    #[test]
    fn the_working_line_is_cleared_before_every_write_and_gone_at_the_end() {
        let (sink, out, _) = live_sink();
        sink.emit(AgentEvent::RequestStarted { iteration: 1 });
        let shown = screen(&output(&out));
        assert!(shown[0].contains("waiting for the model"), "{shown:?}");
        sink.emit(AgentEvent::Notice {
            message: "hello".into(),
        });
        let shown = screen(&output(&out));
        assert_eq!(shown[0], "! hello");
        assert!(shown[1].contains("waiting for the model"), "{shown:?}");
        sink.emit(AgentEvent::TurnFinished {
            text: String::new(),
        });
        sink.finish();
        assert_eq!(screen(&output(&out)), vec!["! hello", ""]);
    }

    #[test]
    fn a_running_command_shows_its_last_three_output_lines_live() {
        let (sink, out, _) = live_sink();
        sink.emit(AgentEvent::ToolCallStarted {
            id: "c1".into(),
            name: "execute_command".into(),
            arguments: r#"{"command":"seq 5"}"#.into(),
        });
        for i in 1..=5 {
            sink.emit(AgentEvent::ToolOutput {
                id: "c1".into(),
                line: i.to_string(),
            });
        }
        sink.tick();
        let shown = screen(&output(&out));
        assert_eq!(shown[0], "● execute_command seq 5");
        assert!(shown[1].contains("running seq 5"), "{shown:?}");
        assert_eq!(&shown[2..], ["  │ 3", "  │ 4", "  │ 5"]);
    }

    #[test]
    fn a_command_result_previews_its_output_and_keeps_it_for_expansion() {
        let (sink, out, last) = live_sink();
        let text: String = (1..=5).map(|i| format!("{i}\n")).collect();
        sink.emit(AgentEvent::ToolCallStarted {
            id: "c1".into(),
            name: "execute_command".into(),
            arguments: r#"{"command":"seq 5"}"#.into(),
        });
        sink.emit(AgentEvent::ToolCallOutput {
            id: "c1".into(),
            text: text.clone(),
        });
        sink.emit(AgentEvent::ToolCallFinished {
            id: "c1".into(),
            name: "execute_command".into(),
            status: ToolStatus::Ok,
            detail: String::new(),
            duration_ms: 12,
            output_chars: 10,
            diff: None,
        });
        sink.emit(AgentEvent::TurnFinished {
            text: String::new(),
        });
        sink.finish();
        assert_eq!(
            screen(&output(&out)),
            vec![
                "● execute_command seq 5",
                "  ⎿ execute_command ok · 12 ms · 10 chars",
                "    1",
                "    2",
                "    3",
                "    … 2 more lines (ctrl+o to expand)",
                ""
            ]
        );
        assert_eq!(
            last.get(),
            Some(Expandable {
                title: "● execute_command seq 5".into(),
                text
            })
        );
    }

    #[test]
    fn reasoning_wraps_at_words_with_the_working_line_under_it() {
        let (sink, out, _) = live_sink();
        sink.emit(AgentEvent::ReasoningDelta {
            text: "first I read the files then I check which of the tests that fail and".into(),
        });
        let shown = screen(&output(&out));
        assert_eq!(
            &shown[..3],
            [
                "✻ Thinking…",
                "first I read the files then I check which of the tests that",
                "fail"
            ]
        );
        assert!(shown[3].contains("thinking"), "{shown:?}");
    }

    #[test]
    fn an_approval_prompt_suspends_the_working_line_and_the_phase_comes_back() {
        let (sink, out, _) = live_sink();
        sink.emit(AgentEvent::ToolCallStarted {
            id: "c1".into(),
            name: "execute_command".into(),
            arguments: r#"{"command":"make"}"#.into(),
        });
        let live = sink.live_handle();
        live.suspend();
        sink.tick();
        assert_eq!(screen(&output(&out)), vec!["● execute_command make", ""]);
        live.resume();
        let shown = screen(&output(&out));
        assert!(shown[1].contains("running make"), "{shown:?}");
        live.set_input_preview(Some(("next task", 1)));
        let shown = screen(&output(&out));
        assert_eq!(shown[2], "  › next task · 1 queued");
    }

    #[test]
    fn the_answer_grows_word_by_word_on_a_terminal_with_the_working_line_under_it() {
        let (sink, out, _) = live_sink();
        sink.emit(AgentEvent::TextDelta {
            text: "Hello wor".into(),
        });
        let shown = screen(&output(&out));
        assert_eq!(shown[0], "Hello");
        assert!(shown[1].contains("writing the answer"), "{shown:?}");
        sink.emit(AgentEvent::TextDelta {
            text: "ld and".into(),
        });
        let shown = screen(&output(&out));
        assert_eq!(
            shown[0], "Hello world",
            "the line grows in place: {shown:?}"
        );
        assert!(shown[1].contains("writing the answer"), "{shown:?}");
        assert_eq!(shown.len(), 2, "{shown:?}");
        sink.finish();
        assert_eq!(screen(&output(&out)), vec!["Hello world and", "", ""]);
    }

    fn run(events: Vec<AgentEvent>) -> String {
        let out = Shared::default();
        let sink = TerminalSink::new(raw_surface(), Lang::En, Box::new(out.clone()));
        for e in events {
            sink.emit(e);
        }
        sink.finish();
        let bytes = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[test]
    fn blank_reasoning_prints_no_thinking_heading() {
        let text = run(vec![
            AgentEvent::ReasoningDelta {
                text: "\n  ".into(),
            },
            AgentEvent::TextDelta {
                text: "Hi.\n".into(),
            },
        ]);
        assert_eq!(text, "Hi.\r\n\r\n");
    }

    #[test]
    fn reasoning_then_answer_then_tool_use_raw_mode_line_endings() {
        let text = run(vec![
            AgentEvent::ReasoningDelta {
                text: "step one\nstep".into(),
            },
            AgentEvent::ReasoningDelta {
                text: " two".into(),
            },
            AgentEvent::TextDelta {
                text: "Reading".into(),
            },
            AgentEvent::ToolCallStarted {
                id: "c".into(),
                name: "read_file".into(),
                arguments: r#"{"path":"a.txt"}"#.into(),
            },
            AgentEvent::ToolCallFinished {
                id: "c".into(),
                name: "read_file".into(),
                status: ToolStatus::Ok,
                detail: String::new(),
                duration_ms: 5,
                output_chars: 12,
                diff: None,
            },
            AgentEvent::TurnCancelled,
        ]);
        assert_eq!(
            text,
            "✻ Thinking…\r\nstep one\r\nstep two\r\nReading\r\n\r\n● read_file a.txt\r\n  ⎿ read_file ok · 5 ms · 12 chars\r\n\
             ⏹ cancelled by user\r\n"
        );
        assert!(
            !text.replace("\r\n", "").contains('\n'),
            "bare LF in raw mode"
        );
    }
}
