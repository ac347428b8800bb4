//! Text output of `-p`: answer text to stdout as it streams, progress lines to stderr.

use std::io::Write;
use std::sync::Mutex;

use crate::agent::{AgentEvent, EventSink, ToolStatus};
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
#[derive(Default)]
pub(super) struct TextProgress {
    state: Mutex<State>,
}

impl TextProgress {
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// Ends the answer with a newline.
    pub(super) fn finish(&self) {
        let mut state = self.lock();
        Self::flush_reasoning(&mut state);
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

    fn flush_reasoning(state: &mut State) {
        if state.reasoning_chars > 0 {
            eprintln!("· thought ({} chars)", state.reasoning_chars);
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
                    eprintln!("· thinking…");
                }
                state.reasoning_chars += text.chars().count();
            }
            AgentEvent::TextDelta { text } => {
                Self::flush_reasoning(&mut state);
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes());
                let _ = out.flush();
                state.stdout_mid_line = !text.ends_with('\n');
            }
            AgentEvent::ToolCallStarted {
                name, arguments, ..
            } => {
                Self::flush_reasoning(&mut state);
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
            } => match status {
                ToolStatus::Ok => eprintln!("  ✓ {name} ({duration_ms} ms, {output_chars} chars)"),
                ToolStatus::Denied => eprintln!("  ✗ {name} denied: {}", preview(&detail)),
                ToolStatus::Failed => eprintln!("  ✗ {name} failed: {}", preview(&detail)),
                ToolStatus::Cancelled => eprintln!("  ✗ {name} aborted by user"),
            },
            AgentEvent::Notice { message } => {
                Self::flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!("! {message}");
            }
            AgentEvent::Compacted {
                stage,
                tokens_before,
                tokens_after,
                messages,
            } => {
                Self::flush_reasoning(&mut state);
                Self::end_stdout_line(&mut state);
                eprintln!(
                    "{}",
                    compaction_line(stage, tokens_before, tokens_after, messages)
                );
            }
            AgentEvent::TurnCancelled => {
                Self::end_stdout_line(&mut state);
                eprintln!("! cancelled by user");
            }
            AgentEvent::RequestStarted { .. }
            | AgentEvent::Usage { .. }
            | AgentEvent::TurnFinished { .. }
            | AgentEvent::TurnPartial { .. }
            | AgentEvent::TurnFailed { .. }
            | AgentEvent::ToolOutput { .. }
            | AgentEvent::ToolCallOutput { .. }
            | AgentEvent::DiagnosticsInjected { .. } => {}
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
