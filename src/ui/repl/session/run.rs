//! Running what the person sent through the app's session (a turn; a plan for `/plan`, `/team` and the `plan`
//! approval mode; a command's prompt as a turn): the terminal's sink with its working line, the keyboard owner
//! (ESC or Ctrl-C cancel everything running through the one token), the plan review, then the next-step hint and
//! the status line.

use std::sync::{Arc, PoisonError};
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::Session;
use crate::agent::{AgentEvent, EventSink, TurnOutcome};
use crate::app::session::{Input, Ran, RunAs, ShellRan};
use crate::llm::providers::price_of;
use crate::plan::PlanMode;
use crate::protocol::Usage;
use crate::text::Msg;
use crate::ui::hints::{Frontend, hint_text};
use crate::ui::interrupt::block_on_task;
use crate::ui::render::{StatusInfo, TerminalSink, TypedAhead, status_line_in};

/// What the REPL remembers about plans between inputs (the mode plan mode returns to is the approval hook's).
#[derive(Debug, Default)]
pub struct PlanState {
    /// `/plan` or `/team` without a task: the next input is planned so.
    pub next_input: Option<PlanMode>,
}

impl Session {
    /// Runs what the person typed: as a plan when `/plan` or `/team` waits for it or the mode is `plan`,
    /// otherwise as a turn.
    pub fn submit(&mut self, text: &str) {
        let run_as = match self.plans.next_input.take() {
            Some(mode) => RunAs::Plan(mode),
            None => RunAs::ByMode,
        };
        self.run(Input::typed(text).run_as(run_as));
    }

    /// Plans `goal`, shows the plan for review, and runs it (`/plan goal`, `/team goal`).
    pub fn run_plan_task(&mut self, goal: &str, mode: PlanMode) {
        self.run(Input::typed(goal).run_as(RunAs::Plan(mode)));
    }

    /// Runs `prompt` (written by a command such as `/init`) as one turn, as it is.
    pub fn run_task(&mut self, prompt: &str) {
        self.run(Input::prompt(prompt));
    }

    /// Runs the person's `!command` (ESC / Ctrl-C stop it) and says that its output goes with the next message.
    pub fn run_shell(&mut self, command: &str) {
        let sink = self.work_sink(false);
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = self.host.run_shell(command, &sink, cancel.clone());
        let ran = block_on_task(&self.runtime, &cancel, &self.keyboard, work);
        sink.finish();
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = None;
        keys.stop();
        match ran {
            ShellRan::Ran => self.say_dim(self.tr(Msg::ShellOutputJoins)),
            ShellRan::Stopped => self.say_dim(self.tr(Msg::Cancelled)),
            ShellRan::Refused => {}
        }
    }

    /// Runs `input` with ESC / Ctrl-C cancellation and prints the status line after it.
    fn run(&mut self, input: Input) {
        let started = Instant::now();
        let before = self.host.agent_mut().session_usage();
        let sink = self.work_sink(input.plan_mode(self.approval_mode()).is_some());
        let shown = Shown {
            terminal: &sink,
            watcher: self.watcher.as_deref(),
        };
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = self
            .host
            .run_input(input, &shown, cancel.clone(), self.reviewer.as_ref());
        let ran = block_on_task(&self.runtime, &cancel, &self.keyboard, work);
        sink.finish();
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = None;
        keys.stop();
        self.turns += 1;
        let used = match &ran {
            Ran::Turn(report) => {
                self.requests += report.requests;
                if let TurnOutcome::Failed(e) = &report.outcome {
                    self.say_next_step(e);
                }
                report.usage
            }
            // The planner's and the tasks' tokens are in the lead's totals (forks report to it).
            Ran::Plan(_) => used_between(before, self.host.agent_mut().session_usage()),
            // The reason was shown as a notice; nothing reached the model.
            Ran::Blocked { .. } => Default::default(),
        };
        self.print_status(started, used);
    }

    /// What to do about a failed turn, when there is something to do.
    fn say_next_step(&self, error: &crate::llm::LlmError) {
        let key_source = self.provider.key_source.as_deref();
        if let Some(hint) = hint_text(self.lang, error, Frontend::Repl, key_source) {
            let line = format!("  {}: {}", self.tr(Msg::NextStep), hint);
            self.say_fitted(&line, 4, str::to_string);
        }
    }

    /// The sink of a running turn or plan, registered as the live output prompts pause.
    fn work_sink(&self, plan: bool) -> TerminalSink {
        let mut sink = TerminalSink::stdout(self.surface(), self.lang)
            .with_expandable(self.expandable.clone());
        if plan {
            sink = sink.for_plan();
        }
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            // The working line is for people: never in a pipe or a log. It shows the type-ahead too.
            let keyboard = self.keyboard.clone();
            sink = sink
                .with_input_preview(Arc::new(move || {
                    let typed = keyboard.type_ahead();
                    let shown = TypedAhead {
                        line: typed.line(),
                        queued: typed.queued_lines(),
                    };
                    (!shown.line.is_empty() || !shown.queued.is_empty()).then_some(shown)
                }))
                .with_live_line();
        }
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = Some(sink.live_handle());
        sink
    }

    /// Prints the status line after a turn (or a plan) that started at `started` and used `turn`.
    fn print_status(&mut self, started: Instant, turn: Usage) {
        let agent = self.host.agent_mut();
        let context = Some((agent.context_estimate().total(), agent.context_window()));
        let session = agent.session_usage();
        let surface = self.surface();
        let info = StatusInfo {
            model: self.provider.model.clone(),
            context,
            turn,
            session,
            price: price_of(&self.provider.id, &self.provider.model),
            elapsed: started.elapsed(),
            mode: Some(crate::ui::commands::mode_name(self.approval_mode())),
        };
        // In Chinese or on a narrow screen it is longer than a line: it breaks between its facts.
        let status = status_line_in(&info, surface.style, self.lang);
        let facts: Vec<String> = status.split(" · ").map(str::to_string).collect();
        self.say(&crate::ui::render::pack(&facts, " · ", surface.width).join("\n"));
    }
}

/// The terminal, and the watcher a copy of each event goes to.
struct Shown<'a> {
    terminal: &'a TerminalSink,
    watcher: Option<&'a dyn EventSink>,
}

impl EventSink for Shown<'_> {
    fn emit(&self, event: AgentEvent) {
        if let Some(watcher) = self.watcher {
            watcher.emit(event.clone());
        }
        self.terminal.emit(event);
    }

    fn wants_tool_output(&self) -> bool {
        self.terminal.wants_tool_output() || self.watcher.is_some_and(|w| w.wants_tool_output())
    }
}

/// Tokens used between two readings of the session's totals.
fn used_between(before: Usage, after: Usage) -> Usage {
    Usage::tokens(
        after.prompt_tokens.saturating_sub(before.prompt_tokens),
        after
            .completion_tokens
            .saturating_sub(before.completion_tokens),
        after.cached_tokens.saturating_sub(before.cached_tokens),
        after
            .reasoning_tokens
            .saturating_sub(before.reasoning_tokens),
    )
}
