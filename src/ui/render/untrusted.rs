//! The terminal boundary: every event a terminal sink renders passes [`screened`] first, so the model's text and
//! reasoning, tool names, commands, output, paths, plan texts and errors reach the renderer with their control
//! characters made visible (`text::visible`), before paicli adds its own colours. The match names every field of
//! every event, so a new event or field does not compile until it says how it is shown.

use std::borrow::Cow;

use crate::agent::AgentEvent;
use crate::protocol::plan::{Plan, PlanTask, PlanTaskOutcome};
use crate::protocol::{DiagnosticsFile, Notice};
use crate::text::{Lang, notice_text, strip_sgr, visible, visible_lines};

/// `event` with every text it carries made safe to print: one-line fields (names, ids, commands, paths) as the
/// approval prompt shows them, texts with lines keeping their line breaks, tool output without its colour codes.
pub fn screened(event: AgentEvent) -> AgentEvent {
    use AgentEvent as E;
    match event {
        E::RequestStarted { iteration } => E::RequestStarted { iteration },
        E::ReasoningDelta { text } => E::ReasoningDelta { text: lines(text) },
        E::TextDelta { text } => E::TextDelta { text: lines(text) },
        E::ToolCallStarted {
            id,
            name,
            arguments,
            kind,
            summary,
        } => E::ToolCallStarted {
            id: line(id),
            name: line(name),
            arguments: line(arguments),
            kind,
            summary: line(summary),
        },
        E::ToolCallDelta {
            index,
            id,
            name,
            arguments,
        } => E::ToolCallDelta {
            index,
            id: line(id),
            name: line(name),
            arguments: line(arguments),
        },
        E::ToolCallFinished {
            id,
            name,
            status,
            detail,
            duration_ms,
            output_chars,
            diff,
        } => E::ToolCallFinished {
            id: line(id),
            name: line(name),
            status,
            detail: output(detail),
            duration_ms,
            output_chars,
            diff: diff.map(lines),
        },
        E::Usage {
            response,
            session,
            model,
            provider,
        } => E::Usage {
            response,
            session,
            model: line(model),
            provider: line(provider),
        },
        E::HookStarted {
            hook_event,
            command,
        } => E::HookStarted {
            hook_event: line(hook_event),
            command: line(command),
        },
        // A hook's reason is its own output (or the model's words it quotes).
        E::HookFinished {
            hook_event,
            command,
            outcome,
            reason,
            duration_ms,
        } => E::HookFinished {
            hook_event: line(hook_event),
            command: line(command),
            outcome,
            reason: output(reason),
            duration_ms,
        },
        E::Compacted {
            stage,
            tokens_before,
            tokens_after,
            messages,
        } => E::Compacted {
            stage,
            tokens_before,
            tokens_after,
            messages,
        },
        // Worded by `notice_text` and shown through `notice_line`.
        E::Notice { notice } => E::Notice { notice },
        E::TurnFinished { text } => E::TurnFinished { text: lines(text) },
        E::TurnPartial { reason, text } => E::TurnPartial {
            reason: lines(reason),
            text: lines(text),
        },
        E::TurnCancelled => E::TurnCancelled,
        E::TurnFailed { error } => E::TurnFailed {
            error: lines(error),
        },
        E::ToolOutput { id, line: text } => E::ToolOutput {
            id: line(id),
            // One line of the live view: a `\r` progress step reads as the next piece of the same line.
            line: output(text).replace('\n', " "),
        },
        E::ToolCallOutput { id, text } => E::ToolCallOutput {
            id: line(id),
            text: output(text),
        },
        E::DiagnosticsInjected { files, text } => E::DiagnosticsInjected {
            files: files
                .into_iter()
                .map(|DiagnosticsFile { path, problems }| DiagnosticsFile {
                    path: line(path),
                    problems,
                })
                .collect(),
            text: lines(text),
        },
        E::PlanProposed { plan, revision } => E::PlanProposed {
            plan: screened_plan(plan),
            revision,
        },
        E::PlanTaskStarted { task_id, title } => E::PlanTaskStarted {
            task_id: line(task_id),
            title: line(title),
        },
        E::PlanTaskEvent { task_id, event } => E::PlanTaskEvent {
            task_id: line(task_id),
            event: Box::new(screened(*event)),
        },
        E::TaskList { list } => E::TaskList {
            list: crate::protocol::TaskList {
                explanation: list.explanation.map(lines),
                plan: list
                    .plan
                    .into_iter()
                    .map(|s| crate::protocol::TaskStep {
                        step: line(s.step),
                        status: s.status,
                    })
                    .collect(),
            },
        },
        E::SubAgent {
            parent_call_id,
            agent,
            event,
        } => E::SubAgent {
            parent_call_id: line(parent_call_id),
            agent: line(agent),
            event: Box::new(screened(*event)),
        },
        E::PlanTaskFinished {
            task_id,
            state,
            summary,
        } => E::PlanTaskFinished {
            task_id: line(task_id),
            state,
            summary: lines(summary),
        },
        E::PlanFinished { outcomes } => E::PlanFinished {
            outcomes: outcomes
                .into_iter()
                .map(
                    |PlanTaskOutcome {
                         task_id,
                         title,
                         state,
                         summary,
                     }| PlanTaskOutcome {
                        task_id: line(task_id),
                        title: line(title),
                        state,
                        summary: lines(summary),
                    },
                )
                .collect(),
        },
    }
}

/// A notice worded in `lang`, the text it quotes (a path, a server's error) made visible, lines kept.
pub fn notice_line(lang: Lang, notice: &Notice) -> String {
    lines(notice_text(lang, notice))
}

fn screened_plan(Plan { goal, tasks }: Plan) -> Plan {
    Plan {
        goal: lines(goal),
        tasks: tasks
            .into_iter()
            .map(
                |PlanTask {
                     id,
                     title,
                     description,
                     depends_on,
                 }| PlanTask {
                    id: line(id),
                    title: line(title),
                    description: lines(description),
                    depends_on: depends_on.into_iter().map(line).collect(),
                },
            )
            .collect(),
    }
}

/// One line, as the approval prompt shows it (newlines and tabs as marks too).
fn line(text: String) -> String {
    changed(text, visible)
}

/// Text with lines (see `text::visible_lines`).
fn lines(text: String) -> String {
    changed(text, visible_lines)
}

/// A tool's output: its colour codes dropped, everything else shown.
fn output(text: String) -> String {
    changed(text, |t| match strip_sgr(t) {
        Cow::Borrowed(plain) => visible_lines(plain),
        Cow::Owned(plain) => Cow::Owned(visible_lines(&plain).into_owned()),
    })
}

/// `text` through `screen`, copied only when `screen` changed it.
fn changed(text: String, screen: impl Fn(&str) -> Cow<'_, str>) -> String {
    let shown = match screen(&text) {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    shown.unwrap_or(text)
}

#[cfg(test)]
mod tests;
