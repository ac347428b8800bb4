//! Adapters that turn LLM deltas and tool progress into `AgentEvent`s.

use std::future::Future;
use std::path::Path;
use std::sync::Mutex;

use tokio::sync::mpsc;

use crate::llm::dsml::DsmlStreamGuard;
use crate::llm::{DeltaSink, StreamDelta, ToolCall};
use crate::protocol::{AgentEvent, EventSink, Notice, ToolStatus};
use crate::session::ledger::Ledger;
use crate::tools::{ToolCallResult, ToolObserver, ToolOutcome, ToolOutput, ToolRegistry};

/// Forwards stream deltas as events and remembers the answer text shown so far. Answer text that may be the
/// start of DSML tool-call markup is held back until the reply ends (see [`crate::llm::dsml`]).
pub(super) struct EventDeltaSink<'a> {
    events: &'a dyn EventSink,
    text: Mutex<String>,
    dsml: Mutex<DsmlStreamGuard>,
}

impl<'a> EventDeltaSink<'a> {
    pub(super) fn new(events: &'a dyn EventSink) -> Self {
        EventDeltaSink {
            events,
            text: Mutex::new(String::new()),
            dsml: Mutex::new(DsmlStreamGuard::default()),
        }
    }

    /// The answer text still held back because it may be DSML; the caller decides whether to show it.
    pub(super) fn take_held(&self) -> String {
        let mut guard = match self.dsml.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        std::mem::take(&mut *guard).finish()
    }

    /// The answer text that reached the user (kept when a reply is interrupted).
    pub(super) fn streamed_text(&self) -> String {
        match self.text.lock() {
            Ok(t) => t.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}

impl DeltaSink for EventDeltaSink<'_> {
    fn on_delta(&self, delta: StreamDelta) {
        match delta {
            StreamDelta::Reasoning(text) => self.events.emit(AgentEvent::ReasoningDelta { text }),
            StreamDelta::Content(text) => {
                let shown = match self.dsml.lock() {
                    Ok(mut g) => g.push(&text),
                    Err(poisoned) => poisoned.into_inner().push(&text),
                };
                if shown.is_empty() {
                    return;
                }
                match self.text.lock() {
                    Ok(mut t) => t.push_str(&shown),
                    Err(poisoned) => poisoned.into_inner().push_str(&shown),
                }
                self.events.emit(AgentEvent::TextDelta { text: shown });
            }
            StreamDelta::ToolCall(call) if self.events.wants_call_deltas() => {
                self.events.emit(AgentEvent::ToolCallDelta {
                    index: call.index,
                    id: call.id,
                    name: call.name,
                    arguments: call.arguments,
                });
            }
            StreamDelta::ToolCall(_) => {}
        }
    }

    fn on_notice(&self, notice: Notice) {
        self.events.emit(AgentEvent::Notice { notice });
    }
}

/// Reports tool calls starting (each as its tool describes it) and finishing, and records each result in the
/// session ledger when it is known.
pub(super) struct EventToolObserver<'a> {
    pub(super) events: &'a dyn EventSink,
    pub(super) ledger: Option<Ledger>,
    pub(super) tools: &'a ToolRegistry,
    /// The project root the calls' paths are relative to.
    pub(super) root: &'a Path,
}

impl ToolObserver for EventToolObserver<'_> {
    fn on_start(&self, _index: usize, call: &ToolCall) {
        self.events.emit(self.tools.started_event(
            &call.id,
            &call.name,
            &call.arguments,
            self.root,
        ));
    }

    fn on_finish(&self, _index: usize, call: &ToolCall, result: &ToolCallResult) {
        if let Some(ledger) = &self.ledger {
            ledger.record_result(&call.id, &result.content);
        }
        if self.events.wants_tool_output() {
            self.events.emit(AgentEvent::ToolCallOutput {
                id: call.id.clone(),
                text: bounded(&expandable_text(&result.outcome)),
            });
        }
        if let ToolOutcome::Ok(ToolOutput {
            task_list: Some(list),
            ..
        }) = &result.outcome
        {
            self.events
                .emit(AgentEvent::TaskList { list: list.clone() });
        }
        let (detail, output_chars, diff) = match &result.outcome {
            ToolOutcome::Ok(out) => (
                String::new(),
                out.text.chars().count(),
                out.diff.as_ref().map(|d| d.unified.clone()),
            ),
            ToolOutcome::Denied { code, reason } => (format!("{code}: {reason}"), 0, None),
            ToolOutcome::Failed { reason } => (reason.clone(), 0, None),
            ToolOutcome::Cancelled { partial } => {
                ("aborted by user".to_string(), partial.chars().count(), None)
            }
        };
        self.events.emit(AgentEvent::ToolCallFinished {
            id: call.id.clone(),
            name: call.name.clone(),
            status: ToolStatus::of(&result.outcome),
            detail,
            duration_ms: u64::try_from(result.duration.as_millis()).unwrap_or(u64::MAX),
            output_chars,
            diff,
        });
    }
}

/// Most chars of a result kept for expansion in the terminal.
const EXPANDABLE_CHARS: usize = 200_000;

/// What a person expands after a call: the output, the reason, or the partial output.
fn expandable_text(outcome: &ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text.clone(),
        ToolOutcome::Denied { code, reason } => format!("{code}: {reason}"),
        ToolOutcome::Failed { reason } => reason.clone(),
        ToolOutcome::Cancelled { partial } => partial.clone(),
    }
}

fn bounded(text: &str) -> String {
    match text.char_indices().nth(EXPANDABLE_CHARS) {
        Some((cut, _)) => format!("{}\n… (cut at {EXPANDABLE_CHARS} chars)", &text[..cut]),
        None => text.to_string(),
    }
}

/// Runs `batch` while turning the output lines its tools report into `ToolOutput` events.
pub(super) async fn forward_tool_output<T>(
    batch: impl Future<Output = T>,
    mut lines: mpsc::Receiver<(String, String)>,
    events: &dyn EventSink,
) -> T {
    tokio::pin!(batch);
    loop {
        tokio::select! {
            biased;
            Some((id, line)) = lines.recv() => events.emit(AgentEvent::ToolOutput { id, line }),
            done = &mut batch => return done,
        }
    }
}

/// Runs `batch` while passing on the events of the sub-agents its `agent` calls run. Biased: every event a
/// sub-agent sent before its call ended is passed on before the batch is seen to finish.
pub(super) async fn forward_sub_agent_events<T>(
    batch: impl Future<Output = T>,
    sub_events: &mut mpsc::UnboundedReceiver<AgentEvent>,
    events: &dyn EventSink,
) -> T {
    tokio::pin!(batch);
    loop {
        tokio::select! {
            biased;
            Some(event) = sub_events.recv() => events.emit(event),
            done = &mut batch => return done,
        }
    }
}
