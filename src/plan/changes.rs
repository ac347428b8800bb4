//! What a team worker changed in its step, for the reviewer: the unified diff of every file change its calls
//! made (`ToolCallFinished::diff`), so the reviewer judges the work itself, not only the worker's report of it.

use std::sync::{Mutex, PoisonError};

use crate::protocol::{AgentEvent, EventSink};

/// Most characters of diff the reviewer is shown; the rest is counted.
const SHOWN_CHARS: usize = 12_000;

/// Passes every event on to `inner` and keeps the diffs of the calls that changed files.
pub struct ChangeLog<'a> {
    inner: &'a dyn EventSink,
    diffs: Mutex<Vec<String>>,
}

impl<'a> ChangeLog<'a> {
    pub fn new(inner: &'a dyn EventSink) -> Self {
        ChangeLog {
            inner,
            diffs: Mutex::new(Vec::new()),
        }
    }

    /// Every change so far, oldest first, cut to a readable size; `None` when no file changed.
    pub fn changes(&self) -> Option<String> {
        let diffs = self.diffs.lock().unwrap_or_else(PoisonError::into_inner);
        if diffs.is_empty() {
            return None;
        }
        let all = diffs.join("\n");
        let total = all.chars().count();
        if total <= SHOWN_CHARS {
            return Some(all);
        }
        let shown: String = all.chars().take(SHOWN_CHARS).collect();
        Some(format!(
            "{shown}\n… ({} more characters of diff not shown)",
            total - SHOWN_CHARS
        ))
    }
}

impl EventSink for ChangeLog<'_> {
    fn emit(&self, event: AgentEvent) {
        if let AgentEvent::ToolCallFinished {
            diff: Some(diff), ..
        } = &event
            && !diff.trim().is_empty()
        {
            self.diffs
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(diff.clone());
        }
        self.inner.emit(event);
    }

    fn wants_tool_output(&self) -> bool {
        self.inner.wants_tool_output()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::protocol::events::ToolStatus;

    struct Count(Mutex<usize>);

    impl EventSink for Count {
        fn emit(&self, _event: AgentEvent) {
            *self.0.lock().unwrap() += 1;
        }
    }

    fn finished(diff: Option<&str>) -> AgentEvent {
        AgentEvent::ToolCallFinished {
            id: "c".into(),
            name: "edit_file".into(),
            status: ToolStatus::Ok,
            detail: String::new(),
            duration_ms: 1,
            output_chars: 2,
            diff: diff.map(str::to_string),
        }
    }

    #[test]
    fn the_diffs_of_changing_calls_are_kept_and_every_event_passes_on() {
        let count = Count(Mutex::new(0));
        let log = ChangeLog::new(&count);
        assert_eq!(log.changes(), None);
        log.emit(finished(None));
        log.emit(finished(Some("--- a/x\n+++ b/x\n-old\n+new\n")));
        log.emit(finished(Some("--- a/y\n+++ b/y\n+more\n")));
        assert_eq!(*count.0.lock().unwrap(), 3);
        assert_eq!(
            log.changes().unwrap(),
            "--- a/x\n+++ b/x\n-old\n+new\n\n--- a/y\n+++ b/y\n+more\n"
        );
    }

    #[test]
    fn a_long_diff_is_cut_and_says_how_much_was_left_out() {
        let count = Count(Mutex::new(0));
        let log = ChangeLog::new(&count);
        log.emit(finished(Some(&"+line\n".repeat(3000))));
        let shown = log.changes().unwrap();
        assert!(
            shown.ends_with("(6000 more characters of diff not shown)"),
            "{shown}"
        );
    }
}
