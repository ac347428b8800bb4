//! Text output of `-p`: answer text to stdout as it streams, progress lines to stderr.

use std::io::Write;
use std::sync::Mutex;

use crate::agent::{AgentEvent, EventSink, ToolStatus};
use crate::text::{Lang, Msg, notice_text, tr, trf};
use crate::ui::render::compaction_line;

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
}

impl TextProgress {
    /// Progress worded in `lang`.
    pub(super) fn new(lang: Lang) -> Self {
        TextProgress {
            state: Mutex::default(),
            lang,
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
            AgentEvent::ToolCallStarted {
                name, arguments, ..
            } => {
                self.flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!("→ {name} {}", preview(&arguments));
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
                eprintln!("! {}", notice_text(self.lang, &notice));
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
            | AgentEvent::DiagnosticsInjected { .. } => {}
            // hooks: what they say arrives as notices; their runs only in `stream-json`.
            AgentEvent::HookStarted { .. } | AgentEvent::HookFinished { .. } => {}
            // plan: shown by the plan's own progress lines.
            AgentEvent::PlanProposed { .. }
            | AgentEvent::PlanTaskStarted { .. }
            | AgentEvent::PlanTaskEvent { .. }
            | AgentEvent::PlanTaskFinished { .. }
            | AgentEvent::PlanFinished { .. } => {}
        }
    }
}

/// One line, control characters made visible, cut to a readable length.
fn preview(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut cut: String = flat.chars().take(ARGS_PREVIEW_CHARS).collect();
    if flat.chars().count() > ARGS_PREVIEW_CHARS {
        cut.push('…');
    }
    cut
}
