//! The state of one interactive session: the agent, the configuration it came from, and running totals.

use std::sync::{Arc, PoisonError};
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use crate::agent::{Agent, AgentEvent, CompactionError, EventSink, TurnOutcome, TurnReport};
use crate::app::Services;
use crate::app::SetupError;
use crate::app::mentions::expand_mentions;
use crate::config::{Config, Overrides};
use crate::guard::path_guard::PathGuard;
use crate::llm::providers::{ResolvedProvider, price_of};
use crate::policy::approval::ApprovalHook;
use crate::protocol::Usage;
use crate::text::images_need_vision;
use crate::text::{Lang, Msg, tr};
use crate::ui::approval_prompt::TerminalApprover;
use crate::ui::commands::custom::CustomCommands;
use crate::ui::hints::{Frontend, hint_text};
use crate::ui::interrupt::block_on_interruptible;
use crate::ui::keyboard::{Keyboard, TypeAhead};
use crate::ui::render::{LastExpandable, StatusInfo, Surface, TerminalSink, status_line_in};
use crate::ui::repl::live_approver::{LiveAwareApprover, LiveSlot};
use crate::ui::sessions::Launch;

mod plan_run;

pub use plan_run::PlanState;

/// Everything slash commands and turns work on.
pub struct Session {
    pub agent: Agent,
    pub config: Config,
    /// The command-line flags, for `/config`'s provenance.
    pub overrides: Overrides,
    /// The provider and model requests currently go to.
    pub provider: ResolvedProvider,
    pub runtime: tokio::runtime::Runtime,
    pub lang: Lang,
    pub session_id: String,
    /// Turns run so far and model requests they made.
    pub turns: u32,
    pub requests: u32,
    /// Switches approval modes (`/mode`); shared with the agent's turn hook.
    pub approval: ApprovalHook,
    /// MCP servers and language servers; shut down by [`Session::shutdown`].
    pub services: Services,
    /// This project's background tasks (`/task`); running ones are cancelled by [`Session::shutdown`].
    pub tasks: crate::app::tasks::TaskQueue,
    guard: Arc<PathGuard>,
    no_color: bool,
    /// The one reader of the terminal while a task runs; the approval prompt takes its keys from it.
    keyboard: Keyboard,
    /// The first turn waits for MCP servers still starting.
    mcp_waited: bool,
    /// The last tool result, reason or diagnostics block, for Ctrl+O.
    expandable: LastExpandable,
    /// The running turn's working line, cleared by the approval prompt.
    live: LiveSlot,
    /// Slash commands from Markdown files (`~/.paicli/commands/`, `.claude/commands/`, `.paicli/commands/`).
    pub custom_commands: CustomCommands,
    /// Plans: the mode to return to when a plan made in plan mode is approved, and `/plan` or `/team` waiting
    /// for the next input.
    pub plans: PlanState,
}

impl Session {
    /// Builds the agent for `config`.
    pub fn new(
        config: Config,
        overrides: Overrides,
        launch: Launch,
    ) -> Result<Session, SessionError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(SessionError::Runtime)?;
        // A local engine is asked which model it serves and how large its window is (hosted providers are not).
        let mut config = config;
        runtime.block_on(crate::app::discover_served(&mut config))?;
        let provider = config.provider().map_err(SetupError::from)?;
        let guard =
            PathGuard::new(&config.project_root).map_err(|source| SetupError::ProjectRoot {
                path: config.project_root.clone(),
                source,
            })?;
        let guard = Arc::new(guard);
        let lang = Lang::resolve(config.ui_language, &config.env);
        let no_color = config.no_color;
        let keyboard = Keyboard::default();
        let live = LiveSlot::default();
        let approver = Arc::new(LiveAwareApprover {
            inner: TerminalApprover::new(
                keyboard.clone(),
                Some(Arc::clone(&guard)),
                lang,
                no_color,
            ),
            live: Arc::clone(&live),
        });
        let approval = crate::app::build_approval_hook(&config, approver)?;
        let (mut agent, services) = {
            let _inside = runtime.enter();
            crate::app::build_session(&config, approval.clone())?
        };
        // Sessions: a new ledger, or the one `--continue` / `--resume` (or its picker) names.
        let session_id =
            crate::ui::sessions::start_interactive(&config, &mut agent, &launch, lang, &|line| {
                let width = Surface::detect(no_color).width;
                for row in crate::ui::render::wrap_hanging(line, width, 2) {
                    println!("{row}");
                }
            })
            .map_err(SessionError::Resume)?;
        services.snapshots.set_session(&session_id);
        let (config_home, project_root) = (config.home.clone(), config.project_root.clone());
        let tasks =
            crate::app::tasks::TaskQueue::open(&config, crate::app::tasks::DEFAULT_PARALLEL);
        {
            let _inside = runtime.enter();
            tasks.start();
        }
        // Elicitation requests become a form while a task runs; each answer is audited as the person's.
        let form = Arc::new(crate::ui::elicit_form::TerminalElicitor {
            keyboard: keyboard.clone(),
            lang,
            no_color,
            live: Arc::clone(&live),
        });
        services.mcp.set_elicitor(
            crate::app::mcp_audit::McpAudit::new(&config)
                .elicitor(form, crate::policy::audit::ApprovedBy::Hitl),
        );
        Ok(Session {
            agent,
            config,
            overrides,
            provider,
            runtime,
            lang,
            session_id,
            turns: 0,
            requests: 0,
            approval,
            services,
            tasks,
            guard,
            no_color,
            keyboard,
            mcp_waited: false,
            expandable: LastExpandable::default(),
            live,
            custom_commands: CustomCommands::load(&config_home, &project_root),
            plans: PlanState::default(),
        })
    }

    /// How output looks right now (the terminal may have been resized).
    pub fn surface(&self) -> Surface {
        Surface::detect(self.no_color)
    }

    /// The last expandable block (Ctrl+O shows it).
    pub fn expandable(&self) -> LastExpandable {
        self.expandable.clone()
    }

    /// The running turn's working line (empty between turns): for type-ahead to show what is queued.
    pub fn live_slot(&self) -> LiveSlot {
        Arc::clone(&self.live)
    }

    /// The message `msg` in the session's language.
    pub fn tr(&self, msg: Msg) -> &'static str {
        tr(self.lang, msg)
    }

    /// Prints `text` line by line.
    pub fn say(&self, text: &str) {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        TerminalSink::stdout(self.surface(), self.lang).print_lines(&lines);
    }

    /// Prints `text` wrapped at word boundaries to the terminal's width, lines after the first indented by
    /// `indent`; `paint` colours each line after wrapping, so colour codes never count as width.
    pub fn say_fitted(&self, text: &str, indent: usize, paint: impl Fn(&str) -> String) {
        let width = self.surface().width;
        let lines: Vec<String> = crate::ui::render::wrap_hanging(text, width, indent)
            .iter()
            .map(|l| paint(l))
            .collect();
        self.say(&lines.join("\n"));
    }

    /// Prints an error in red, wrapped at word boundaries (continuation lines indented two cells).
    pub fn say_error(&self, text: &str) {
        let style = self.surface().style;
        let sentence = crate::text::labelled(self.lang, Msg::ErrorPrefix, text);
        self.say_fitted(&sentence, 2, |l| style.red(l));
    }

    /// Prints a warning (`! text`) in yellow, wrapped at word boundaries under its first word.
    pub fn say_notice(&self, text: &str) {
        let surface = self.surface();
        let lines: Vec<String> = crate::ui::render::marked("!", text, surface.width)
            .iter()
            .map(|l| surface.style.yellow(l))
            .collect();
        self.say(&lines.join("\n"));
    }

    /// Prints a hint dimmed, wrapped at word boundaries.
    pub fn say_dim(&self, text: &str) {
        let style = self.surface().style;
        self.say_fitted(text, 0, |l| style.dim(l));
    }

    /// Runs a user's input as a turn: `@path` and `@server:uri` mentions expanded (turn policies still judge the
    /// text as typed), ESC watched, status line printed.
    pub fn run_user_task(&mut self, submitted: &str) -> TurnReport {
        let mut expanded = expand_mentions(submitted, &self.guard);
        for (mention, reason) in &expanded.skipped {
            self.say_notice(&format!(
                "{mention} {}: {reason}",
                self.tr(Msg::MentionSkipped)
            ));
        }
        let images = std::mem::take(&mut expanded.images);
        let refused = crate::app::mentions::queue_images(&mut self.agent, images);
        if !refused.is_empty() {
            let text = images_need_vision(self.lang, self.agent.model(), &refused);
            self.say_notice(&text);
        }
        let cancel = CancellationToken::new();
        let first = !self.mcp_waited;
        self.mcp_waited = true;
        let (config, mcp) = (&self.config, &self.services.mcp);
        let (input, mut notices) = self.runtime.block_on(async {
            if first {
                crate::app::prepare_first_input(config, mcp, &expanded.text, &cancel).await
            } else {
                (
                    crate::app::expand_mcp_mentions(config, mcp, &expanded.text, &cancel).await,
                    Vec::new(),
                )
            }
        });
        notices.extend(self.services.mcp.take_notices());
        for notice in notices {
            let text = crate::text::notice_text(self.lang, &notice);
            self.say_notice(&text);
        }
        self.run_expanded_task(submitted, &input)
    }

    /// Runs `prompt` (generated by a command such as `/init`) as one turn.
    pub fn run_task(&mut self, prompt: &str) -> TurnReport {
        self.run_expanded_task(prompt, prompt)
    }

    /// Compacts the history now (`/compact`), with ESC / Ctrl-C cancellation; the `Compacted` event is printed.
    /// A cancelled run prints that it was cancelled and counts as success (the history is unchanged).
    pub fn compact_history(&mut self, focus: Option<&str>) -> Result<(), CompactionError> {
        let sink = TerminalSink::stdout(self.surface(), self.lang);
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = self.agent.compact_now(focus, &sink, cancel.clone());
        let result = block_on_interruptible(&self.runtime, &cancel, work);
        keys.stop();
        if result.is_err() && cancel.is_cancelled() {
            sink.emit(AgentEvent::TurnCancelled);
            sink.finish();
            return Ok(());
        }
        sink.finish();
        result
    }

    /// Runs `work` to its end on the runtime while ESC and Ctrl-C cancel the token it gets (a slash command
    /// that waits, e.g. `/browser connect`).
    pub fn block_on_cancellable<T, F>(&self, work: impl FnOnce(CancellationToken) -> F) -> T
    where
        F: std::future::Future<Output = T>,
    {
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let result = block_on_interruptible(&self.runtime, &cancel, work(cancel.clone()));
        keys.stop();
        result
    }

    /// What the person typed while tasks ran: the line in progress and the lines queued with Enter.
    pub fn type_ahead(&self) -> &TypeAhead {
        self.keyboard.type_ahead()
    }

    /// The keyboard owner (e.g. whether the approval prompt has the keys).
    pub fn keyboard(&self) -> &Keyboard {
        &self.keyboard
    }

    /// Stops MCP servers and language servers.
    pub fn shutdown(&self) {
        self.runtime.block_on(async {
            self.tasks.shutdown().await;
            self.services.shutdown().await;
        });
    }

    /// The sink of a running turn or plan, registered as the live output prompts pause.
    fn work_sink(&self) -> TerminalSink {
        let mut sink = TerminalSink::stdout(self.surface(), self.lang)
            .with_expandable(self.expandable.clone());
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            // The working line is for people: never in a pipe or a log. It shows the type-ahead too.
            let keyboard = self.keyboard.clone();
            sink = sink
                .with_input_preview(Arc::new(move || {
                    let typed = keyboard.type_ahead();
                    let (line, queued) = (typed.line(), typed.queued());
                    (!line.is_empty() || queued > 0).then_some((line, queued))
                }))
                .with_live_line();
        }
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = Some(sink.live_handle());
        sink
    }

    /// Runs one turn with ESC / Ctrl-C cancellation and prints the status line after it.
    fn run_expanded_task(&mut self, submitted: &str, prompt: &str) -> TurnReport {
        let started = Instant::now();
        let sink = self.work_sink();
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = self
            .agent
            .run_expanded_turn(submitted, prompt, &sink, cancel.clone());
        let report = block_on_interruptible(&self.runtime, &cancel, work);
        sink.finish();
        *self.live.lock().unwrap_or_else(PoisonError::into_inner) = None;
        keys.stop();
        self.turns += 1;
        self.requests += report.requests;
        if let TurnOutcome::Failed(e) = &report.outcome
            && let Some(hint) = hint_text(
                self.lang,
                e,
                Frontend::Repl,
                self.provider.key_source.as_deref(),
            )
        {
            let line = format!("  {}: {}", self.tr(Msg::NextStep), hint);
            self.say_fitted(&line, 4, str::to_string);
        }
        self.print_status(started, report.usage);
        report
    }

    /// Prints the status line after a turn (or a plan) that started at `started` and used `turn`.
    fn print_status(&self, started: Instant, turn: Usage) {
        let surface = self.surface();
        let info = StatusInfo {
            model: self.provider.model.clone(),
            context: Some((
                self.agent.context_estimate().total(),
                self.agent.context_window(),
            )),
            turn,
            session: self.agent.session_usage(),
            price: price_of(&self.provider.id, &self.provider.model),
            elapsed: started.elapsed(),
            mode: Some(crate::ui::commands::mode_name(self.approval.mode())),
        };
        // In Chinese or on a narrow screen it is longer than a line: it breaks between its facts.
        let status = status_line_in(&info, surface.style, self.lang);
        let facts: Vec<String> = status.split(" · ").map(str::to_string).collect();
        self.say(&crate::ui::render::pack(&facts, " · ", surface.width).join("\n"));
    }
}

/// Why the session could not start.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{0}")]
    Resume(String),
    #[error("cannot start the line editor: {0}")]
    Editor(#[from] rustyline::error::ReadlineError),
}
