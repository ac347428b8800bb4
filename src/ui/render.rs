//! Terminal rendering of agent events: streaming Markdown, tool-call lines, diffs and the status line.
//! Everything here builds strings; only [`TerminalSink`] writes, so the pieces are snapshot-testable. Untrusted
//! text enters through [`screened`] (events) and the Markdown renderer (its parsed text), so no control sequence
//! but paicli's own colours reaches the terminal.

mod diff;
mod expand;
mod live;
mod markdown;
mod markdown_stream;
mod plan_view;
mod sink;
mod status;
mod style;
mod table;
mod tool_line;
mod untrusted;
mod wrap;

pub use diff::{more_lines_notice, render_diff, render_diff_all, render_diff_in, unified_diff};
pub use expand::{Expandable, LastExpandable, page, show_expanded};
pub use live::{Phase, TypedAhead, WorkingLine};
pub use markdown::render_markdown;
pub use markdown_stream::MarkdownStream;
pub use plan_view::{PlanView, summary_lines, task_label, task_row, task_tag};
pub use sink::{InputPreview, LiveHandle, TerminalSink};
pub use status::{StatusInfo, compaction_line, format_count, status_line, status_line_in};
pub use style::Style;
pub use tool_line::{
    PREVIEW_LINES, ToolResultView, diagnostics_line, tool_finished_line, tool_result_lines,
    tool_started_line,
};
pub use untrusted::{notice_line, screened};
pub use wrap::{fold_words, marked, pack, visible_width, wrap, wrap_hanging, wrap_plain};

/// How output reaches the screen: colours on or off, width, and the line ending (`\r\n` while raw mode may be on).
#[derive(Clone, Copy, Debug)]
pub struct Surface {
    pub style: Style,
    pub width: usize,
    pub newline: &'static str,
}

impl Surface {
    /// The real stdout: colours unless `NO_COLOR` is set or stdout is not a terminal.
    pub fn detect(no_color: bool) -> Surface {
        use std::io::IsTerminal;
        let tty = std::io::stdout().is_terminal();
        let width = crossterm::terminal::size()
            .map(|(w, _)| usize::from(w))
            .ok()
            .filter(|w| *w >= 20)
            .unwrap_or(80);
        Surface {
            style: Style::new(tty && !no_color),
            width,
            newline: if tty { "\r\n" } else { "\n" },
        }
    }

    /// Plain text at `width` with `\n` line endings (tests, pipes).
    pub fn plain(width: usize) -> Surface {
        Surface {
            style: Style::new(false),
            width,
            newline: "\n",
        }
    }
}
