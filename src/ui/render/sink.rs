//! The REPL's event sink: reasoning dimmed under a "Thinking" heading, the answer as streaming Markdown, one line
//! per tool call with its diff. Writes `Surface::newline` line endings so output stays aligned in raw mode.

use std::io::Write;
use std::sync::{Mutex, MutexGuard};

use super::{MarkdownStream, Surface, render_diff, tool_finished_line, tool_started_line};
use crate::agent::{AgentEvent, EventSink};
use crate::ui::i18n::{Lang, Msg, tr};

struct Inner {
    out: Box<dyn Write + Send>,
    markdown: MarkdownStream,
    /// Reasoning is being streamed (its heading is printed).
    reasoning: bool,
    /// The cursor is not at the start of a line.
    mid_line: bool,
}

/// Renders [`AgentEvent`]s to a terminal (or any writer, for tests).
pub struct TerminalSink {
    surface: Surface,
    lang: Lang,
    inner: Mutex<Inner>,
}

impl TerminalSink {
    /// A sink writing to `out`.
    pub fn new(surface: Surface, lang: Lang, out: Box<dyn Write + Send>) -> Self {
        TerminalSink {
            surface,
            lang,
            inner: Mutex::new(Inner {
                out,
                markdown: MarkdownStream::new(surface.width, surface.style),
                reasoning: false,
                mid_line: false,
            }),
        }
    }

    /// A sink writing to stdout.
    pub fn stdout(surface: Surface, lang: Lang) -> Self {
        Self::new(surface, lang, Box::new(std::io::stdout()))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints held-back answer text and ends the current line.
    pub fn finish(&self) {
        let mut inner = self.lock();
        self.flush_answer(&mut inner);
    }

    /// Prints `lines` (after anything held back).
    pub fn print_lines(&self, lines: &[String]) {
        let mut inner = self.lock();
        self.flush_answer(&mut inner);
        self.write_lines(&mut inner, lines);
    }

    fn write_lines(&self, inner: &mut Inner, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        let nl = self.surface.newline;
        let mut text = lines.join(nl);
        text.push_str(nl);
        let _ = inner.out.write_all(text.as_bytes());
        let _ = inner.out.flush();
    }

    fn end_line(&self, inner: &mut Inner) {
        if inner.mid_line {
            let _ = inner.out.write_all(self.surface.newline.as_bytes());
            inner.mid_line = false;
        }
    }

    fn end_reasoning(&self, inner: &mut Inner) {
        if inner.reasoning {
            self.end_line(inner);
            inner.reasoning = false;
        }
    }

    fn flush_answer(&self, inner: &mut Inner) {
        self.end_reasoning(inner);
        let lines = inner.markdown.finish();
        self.write_lines(inner, &lines);
        self.end_line(inner);
    }

    fn reasoning(&self, inner: &mut Inner, text: &str) {
        let style = self.surface.style;
        if !inner.reasoning {
            // Never print an empty "Thinking" heading.
            let text = text.trim_start();
            if text.is_empty() {
                return;
            }
            let heading = style.dim(&style.italic(&format!("✻ {}…", tr(self.lang, Msg::Thinking))));
            let heading = format!("{heading}{}", self.surface.newline);
            let _ = inner.out.write_all(heading.as_bytes());
            inner.reasoning = true;
            return self.reasoning(inner, text);
        }
        let body = text
            .replace("\r\n", "\n")
            .replace('\n', self.surface.newline);
        let _ = inner.out.write_all(style.dim(&body).as_bytes());
        let _ = inner.out.flush();
        inner.mid_line = !text.ends_with('\n');
    }
}

impl EventSink for TerminalSink {
    fn emit(&self, event: AgentEvent) {
        let style = self.surface.style;
        let mut inner = self.lock();
        match event {
            AgentEvent::ReasoningDelta { text } => self.reasoning(&mut inner, &text),
            AgentEvent::TextDelta { text } => {
                self.end_reasoning(&mut inner);
                let lines = inner.markdown.push(&text);
                self.write_lines(&mut inner, &lines);
            }
            AgentEvent::ToolCallStarted {
                name, arguments, ..
            } => {
                self.flush_answer(&mut inner);
                let line = tool_started_line(&name, &arguments, style);
                self.write_lines(&mut inner, &[line]);
            }
            AgentEvent::ToolCallFinished {
                name,
                status,
                detail,
                duration_ms,
                output_chars,
                diff,
                ..
            } => {
                self.flush_answer(&mut inner);
                let mut lines = vec![tool_finished_line(
                    &name,
                    status,
                    &detail,
                    duration_ms,
                    output_chars,
                    style,
                )];
                if let Some(diff) = diff {
                    lines.extend(render_diff(&diff, style));
                }
                self.write_lines(&mut inner, &lines);
            }
            AgentEvent::Notice { message } => {
                self.flush_answer(&mut inner);
                self.write_lines(&mut inner, &[style.yellow(&format!("! {message}"))]);
            }
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                messages,
            } => {
                self.flush_answer(&mut inner);
                let line = style.dim(&super::compaction_line(
                    stage,
                    tokens_before,
                    tokens_after,
                    messages,
                ));
                self.write_lines(&mut inner, &[line]);
            }
            AgentEvent::TurnPartial { reason, .. } => {
                self.flush_answer(&mut inner);
                let line = style.yellow(&format!("⚠ partial completion ({reason})"));
                self.write_lines(&mut inner, &[line]);
            }
            AgentEvent::TurnCancelled => {
                self.flush_answer(&mut inner);
                let line = style.yellow(&format!("⏹ {}", tr(self.lang, Msg::Cancelled)));
                self.write_lines(&mut inner, &[line]);
            }
            AgentEvent::TurnFailed { error } => {
                self.flush_answer(&mut inner);
                let line = style.red(&format!("{}: {error}", tr(self.lang, Msg::ErrorPrefix)));
                self.write_lines(&mut inner, &[line]);
            }
            AgentEvent::TurnFinished { .. } => self.flush_answer(&mut inner),
            AgentEvent::RequestStarted { .. } | AgentEvent::Usage { .. } => {}
        }
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
