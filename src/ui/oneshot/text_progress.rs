//! Text output of `-p`: answer text to stdout as it streams, progress lines to stderr. Progress is for people: its
//! names, reasons and notices always pass the terminal sanitizer (`render::screened`). The answer does too when
//! stdout is a terminal; piped or redirected, it is the model's text byte for byte, as scripts expect.

use std::io::Write;
use std::sync::Mutex;

use crate::agent::{AgentEvent, EventSink, ToolStatus};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::render::{compaction_line, notice_line, screened};

/// Longest argument preview on a tool line.
const ARGS_PREVIEW_CHARS: usize = 120;

#[derive(Default)]
struct State {
    /// Reasoning characters of the current request not yet summarized.
    reasoning_chars: usize,
    /// Whether stdout is at the start of a line.
    stdout_mid_line: bool,
}

/// Renders events as plain text.
pub(super) struct TextProgress {
    state: Mutex<State>,
    lang: Lang,
    /// stdout is a terminal: the answer is shown with its control characters made visible.
    screen_answer: bool,
}

impl TextProgress {
    /// Progress worded in `lang`; `screen_answer` when stdout is a terminal.
    pub(super) fn new(lang: Lang, screen_answer: bool) -> Self {
        TextProgress {
            state: Mutex::default(),
            lang,
            screen_answer,
        }
    }

    /// Ends the answer with a newline.
    pub(super) fn finish(&self) {
        let mut state = self.lock();
        self.flush_reasoning(&mut state);
        if state.stdout_mid_line {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(b"\n");
            let _ = out.flush();
            state.stdout_mid_line = false;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn flush_reasoning(&self, state: &mut State) {
        if state.reasoning_chars > 0 {
            let count = state.reasoning_chars;
            eprintln!(
                "· {}",
                trf(self.lang, Msg::ProgressThought, &[("count", &count)])
            );
            state.reasoning_chars = 0;
        }
    }

    fn end_stdout_line(state: &mut State) {
        if state.stdout_mid_line {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(b"\n");
            let _ = out.flush();
            state.stdout_mid_line = false;
        }
    }
}

impl EventSink for TextProgress {
    fn emit(&self, event: AgentEvent) {
        let event = match event {
            AgentEvent::TextDelta { text } if !self.screen_answer => AgentEvent::TextDelta { text },
            event => screened(event),
        };
        let mut state = self.lock();
        match event {
            AgentEvent::ReasoningDelta { text } => {
                if state.reasoning_chars == 0 {
                    eprintln!("· {}", tr(self.lang, Msg::ProgressThinking));
                }
                state.reasoning_chars += text.chars().count();
            }
            AgentEvent::TextDelta { text } => {
                self.flush_reasoning(&mut state);
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes());
                let _ = out.flush();
                state.stdout_mid_line = !text.ends_with('\n');
            }
            // The call as the approval prompt shows it: its summary (the command, the path), escapes as marks.
            AgentEvent::ToolCallStarted { name, summary, .. } => {
                self.flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!("→ {name} {}", preview(&summary));
            }
            AgentEvent::ToolCallFinished {
                name,
                status,
                detail,
                duration_ms,
                output_chars,
                ..
            } => {
                let (mark, msg) = match status {
                    ToolStatus::Ok => ('✓', Msg::ProgressToolOk),
                    ToolStatus::Denied => ('✗', Msg::ProgressToolDenied),
                    ToolStatus::Failed => ('✗', Msg::ProgressToolFailed),
                    ToolStatus::Cancelled => ('✗', Msg::ProgressToolAborted),
                };
                let line = trf(
                    self.lang,
                    msg,
                    &[
                        ("name", &name),
                        ("ms", &duration_ms),
                        ("chars", &output_chars),
                        ("detail", &preview(&detail)),
                    ],
                );
                eprintln!("  {mark} {line}");
            }
            AgentEvent::Notice { notice } => {
                self.flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                // What the input attached is information, not a warning.
                let mark = match notice {
                    crate::protocol::Notice::MentionsAttached { .. } => "⎿",
                    _ => "!",
                };
                eprintln!("{mark} {}", notice_line(self.lang, &notice));
            }
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                messages,
            } => {
                self.flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!(
                    "{}",
                    compaction_line(stage, tokens_before, tokens_after, messages)
                );
            }
            AgentEvent::TurnCancelled => {
                Self::end_stdout_line(&mut state);
                eprintln!("! {}", tr(self.lang, Msg::Cancelled));
            }
            AgentEvent::RequestStarted { .. }
            | AgentEvent::Usage { .. }
            | AgentEvent::TurnFinished { .. }
            | AgentEvent::TurnPartial { .. }
            | AgentEvent::TurnFailed { .. }
            | AgentEvent::ToolOutput { .. }
            | AgentEvent::ToolCallOutput { .. }
            | AgentEvent::ToolCallDelta { .. }
            | AgentEvent::DiagnosticsInjected { .. } => {}
            // hooks: what they say arrives as notices; their runs only in `stream-json`.
            AgentEvent::HookStarted { .. } | AgentEvent::HookFinished { .. } => {}
            // plan: shown by the plan's own progress lines.
            AgentEvent::PlanProposed { .. }
            | AgentEvent::PlanTaskStarted { .. }
            | AgentEvent::PlanTaskEvent { .. }
            | AgentEvent::PlanTaskFinished { .. }
            | AgentEvent::PlanFinished { .. } => {}
            AgentEvent::TaskList { list } => {
                self.flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!("{}", list.as_markdown());
            }
            // delegation: a sub-agent's calls and notices, tagged with its name.
            AgentEvent::SubAgent { agent, event, .. } => match *event {
                AgentEvent::ToolCallStarted { name, summary, .. } => {
                    self.flush_reasoning(&mut state);
                    Self::end_stdout_line(&mut state);
                    eprintln!("→ [{agent}] {name} {}", preview(&summary));
                }
                AgentEvent::Notice { notice } => {
                    Self::end_stdout_line(&mut state);
                    eprintln!("! [{agent}] {}", notice_line(self.lang, &notice));
                }
                _ => {}
            },
        }
    }
}

/// One line (already made visible by `screened`), cut to a readable length.
fn preview(text: &str) -> String {
    let flat = text.replace('\n', " ");
    let mut cut: String = flat.chars().take(ARGS_PREVIEW_CHARS).collect();
    if flat.chars().count() > ARGS_PREVIEW_CHARS {
        cut.push('…');
    }
    cut
}
