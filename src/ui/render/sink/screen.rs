//! Drawing the working line: where it goes, how it is erased, the ticker that animates it, and the handle the
//! approval prompt and type-ahead use.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use super::super::live::{Phase, TypedAhead, WorkingLine};
use super::super::wrap::visible_width;
use super::{ERASE_BELOW, Inner, lock};

/// The working line while a turn runs (terminals only).
pub(super) struct Live {
    pub(super) line: WorkingLine,
    /// Rows drawn on screen now (0 = not drawn).
    pub(super) rows: usize,
    /// Not drawn: an approval prompt owns the screen; the phase to go back to after it.
    pub(super) suspended: Option<Phase>,
    /// False once the turn ended.
    pub(super) active: bool,
    pub(super) started: Instant,
    /// Tokens the provider reported this turn, and answer chars streamed since the last report.
    pub(super) reported_tokens: u64,
    pub(super) streamed_chars: usize,
    /// Transcript written while suspended, shown when the prompt is answered.
    pub(super) held: String,
    /// Prompts that suspended the line and have not resumed it yet.
    pub(super) prompts: usize,
}

/// The thread that animates the working line; stops when dropped.
pub(super) struct Ticker {
    pub(super) stop: mpsc::Sender<()>,
    pub(super) thread: JoinHandle<()>,
}

/// Lets the approval prompt (and type-ahead) reach the working line of the running turn.
#[derive(Clone)]
pub struct LiveHandle(pub(super) Arc<Mutex<Inner>>);

impl LiveHandle {
    /// Clears the working line and keeps it off the screen (an approval prompt is about to be shown).
    pub fn suspend(&self) {
        let mut inner = lock(&self.0);
        inner.clear_live();
        if let Some(live) = &mut inner.live {
            if live.suspended.is_none() {
                let before = std::mem::replace(&mut live.line.phase, Phase::WaitingApproval);
                live.suspended = Some(before);
            }
            live.prompts += 1;
        }
        inner.flush();
    }

    /// Shows the working line again after the prompt, once no other prompt (of a parallel plan task, waiting
    /// its turn) still holds the screen.
    pub fn resume(&self) {
        let mut inner = lock(&self.0);
        if let Some(live) = &mut inner.live {
            live.prompts = live.prompts.saturating_sub(1);
            if live.prompts > 0 {
                return;
            }
            if let Some(before) = live.suspended.take() {
                live.line.phase = before;
            }
        }
        inner.release_held();
        inner.draw_live();
        inner.flush();
    }

    /// The plan task whose sub-agent made the running call `call_id`, if a plan runs it. Call ids come from the
    /// model: when two running tasks' calls share one, the prompt names neither rather than guess.
    pub fn task_of(&self, call_id: &str) -> Option<String> {
        lock(&self.0).call_tasks.task_of(call_id)
    }

    /// Shows the text typed ahead and the queued messages; `None` hides it.
    pub fn set_input_preview(&self, preview: Option<TypedAhead>) {
        let mut inner = lock(&self.0);
        if let Some(live) = &mut inner.live {
            live.line.input_preview = preview;
        }
        inner.redraw_live();
    }
}

impl Inner {
    /// Removes the working line: it lies from the cursor (where the transcript continues) to the end of the
    /// screen, so erasing that range removes it whole.
    pub(super) fn clear_live(&mut self) {
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
    pub(super) fn draw_live(&mut self) {
        let width = self.width();
        let (style, lang) = (self.surface.style, self.lang);
        let column = if self.mid_line {
            self.reasoning_wrap.column()
        } else {
            visible_width(&self.shown_partial)
        };
        let preview = self.input_preview.as_ref().map(|read| read());
        let plan_rows = self.plan_rows(width, self.height());
        let Some(live) = &mut self.live else { return };
        if !live.active || live.suspended.is_some() || live.rows > 0 || column >= width {
            return;
        }
        if let Some(preview) = preview {
            live.line.input_preview = preview;
        }
        live.line.tokens = live.reported_tokens + (live.streamed_chars / 4) as u64;
        let mut rows = plan_rows;
        rows.extend(live.line.render(live.started.elapsed(), width, style, lang));
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

    /// Writes what was held back while a prompt owned the screen.
    pub(super) fn release_held(&mut self) {
        let held = match &mut self.live {
            Some(live) if live.suspended.is_none() => std::mem::take(&mut live.held),
            _ => return,
        };
        if !held.is_empty() {
            self.write(&held);
        }
    }

    /// The ticker's step: moves the spinner and the clock.
    pub(super) fn redraw_live(&mut self) {
        self.clear_live();
        self.draw_live();
        self.flush();
    }

    pub(super) fn end_live(&mut self) {
        self.clear_live();
        if let Some(live) = &mut self.live {
            live.active = false;
        }
    }
}
