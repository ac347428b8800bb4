//! The state of one interactive session: the app's session (`app::Session`, reached through `Deref`) with what
//! the terminal adds: the keyboard, the working line, the line editor's state and running totals.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::agent::{AgentEvent, CompactionError, EventSink};
use crate::app::SetupError;
use crate::app::session::{HostError, HostOptions};
use crate::config::{Config, Overrides};
use crate::guard::path_guard::PathGuard;
use crate::llm::providers::ResolvedProvider;
use crate::protocol::plan::PlanReviewer;
use crate::text::{Lang, Msg, tr};
use crate::ui::approval_prompt::TerminalApprover;
use crate::ui::commands::custom::CustomCommands;
use crate::ui::interrupt::block_on_task;
use crate::ui::keyboard::{Keyboard, TypeAhead};
use crate::ui::plan_review::TerminalPlanReviewer;
use crate::ui::render::{LastExpandable, Surface, TerminalSink};
use crate::ui::repl::live_approver::{LiveAwareApprover, LiveSlot};
use crate::ui::sessions::{self as ui_sessions, Launch};

mod run;

pub use run::PlanState;

/// Everything slash commands and turns work on.
pub struct Session {
    /// The session every front-end drives: config, agent, services, modes, turns and plans.
    host: crate::app::Session,
    /// The command-line flags, for `/config`'s provenance.
    pub overrides: Overrides,
    /// The provider and model requests currently go to.
    pub provider: ResolvedProvider,
    pub runtime: tokio::runtime::Runtime,
    pub lang: Lang,
    /// Turns run so far and model requests they made.
    pub turns: u32,
    pub requests: u32,
    /// This project's background tasks (`/task`); running ones are cancelled by [`Session::shutdown`].
    pub tasks: crate::app::tasks::TaskQueue,
    no_color: bool,
    /// The one reader of the terminal while a task runs; the approval prompt takes its keys from it.
    keyboard: Keyboard,
    /// The last tool result, reason or diagnostics block, for Ctrl+O.
    expandable: LastExpandable,
    /// The running turn's working line, cleared by the approval prompt.
    live: LiveSlot,
    /// Slash commands from Markdown files (`~/.paicli/commands/`, `.claude/commands/`, `.paicli/commands/`).
    pub custom_commands: CustomCommands,
    /// Plans: `/plan` or `/team` waiting for the next input.
    pub plans: PlanState,
    /// Who decides on plans: the review at the terminal.
    reviewer: Arc<dyn PlanReviewer>,
    /// Gets a copy of every event the terminal shows (see [`Session::watch_events`]).
    watcher: Option<Arc<dyn EventSink>>,
}

impl std::ops::Deref for Session {
    type Target = crate::app::Session;

    fn deref(&self) -> &crate::app::Session {
        &self.host
    }
}

impl std::ops::DerefMut for Session {
    fn deref_mut(&mut self) -> &mut crate::app::Session {
        &mut self.host
    }
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
        let lang = Lang::resolve(config.ui_language, &config.env);
        let no_color = config.no_color;
        let keyboard = Keyboard::default();
        let live = LiveSlot::default();
        let approver = Arc::new(LiveAwareApprover {
            inner: TerminalApprover::new(keyboard.clone(), Some(Arc::new(guard)), lang, no_color),
            live: Arc::clone(&live),
        });
        let say = |line: &str| {
            let width = Surface::detect(no_color).width;
            let line = crate::text::visible_lines(line);
            for row in crate::ui::render::wrap_hanging(&line, width, 2) {
                println!("{row}");
            }
        };
        // Sessions: a new ledger, or the one `--continue` / `--resume` (or its picker) names.
        let start = ui_sessions::interactive_options(&config, &launch, lang, &say);
        let (config_home, project_root) = (config.home.clone(), config.project_root.clone());
        let tasks =
            crate::app::tasks::TaskQueue::open(&config, crate::app::tasks::DEFAULT_PARALLEL);
        let mut host = {
            let _inside = runtime.enter();
            let options = HostOptions {
                start,
                ..HostOptions::default()
            };
            crate::app::Session::start(config, approver, options).map_err(|e| match e {
                HostError::Setup(e) => SessionError::Setup(e),
                HostError::Start(e) => {
                    SessionError::Resume(ui_sessions::start_error_text(lang, &e))
                }
            })?
        };
        for line in ui_sessions::started_lines(lang, host.started()) {
            say(&line);
        }
        if host.started().resumed.is_some() {
            // Rendered and made visible by `last_exchange`, and fitted to the width: printed as they are.
            let surface = Surface::detect(no_color);
            let conversation = host.agent_mut().conversation();
            for line in ui_sessions::last_exchange(conversation, surface.width, surface.style) {
                println!("{line}");
            }
        }
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
        host.services.mcp.set_elicitor(
            crate::app::mcp_audit::McpAudit::new(&host.config)
                .elicitor(form, crate::policy::audit::ApprovedBy::Hitl),
        );
        let reviewer = Arc::new(TerminalPlanReviewer {
            keyboard: keyboard.clone(),
            live: Arc::clone(&live),
            lang,
            no_color,
        });
        Ok(Session {
            host,
            overrides,
            provider,
            runtime,
            lang,
            turns: 0,
            requests: 0,
            tasks,
            no_color,
            keyboard,
            expandable: LastExpandable::default(),
            live,
            custom_commands: CustomCommands::load(&config_home, &project_root),
            plans: PlanState::default(),
            reviewer,
            watcher: None,
        })
    }

    /// Sends a copy of every event of this session's turns and plans to `watcher` too (a transcript, or a test
    /// comparing what the terminal was given with what another front-end gets).
    pub fn watch_events(&mut self, watcher: Arc<dyn EventSink>) {
        self.watcher = Some(watcher);
    }

    /// Lets `reviewer` decide on plans instead of the review at the terminal.
    pub fn set_plan_reviewer(&mut self, reviewer: Arc<dyn PlanReviewer>) {
        self.reviewer = reviewer;
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

    /// Prints `text` line by line. It may quote text from outside (a memory, a skill, a server's status): every
    /// control sequence but a colour is made visible (`say_fitted` and friends make colours in it visible too).
    pub fn say(&self, text: &str) {
        let text = crate::text::visible_lines_but_sgr(text);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        TerminalSink::stdout(self.surface(), self.lang).print_lines(&lines);
    }

    /// Prints `text` wrapped at word boundaries to the terminal's width, lines after the first indented by
    /// `indent`; `paint` colours each line after wrapping, so colour codes never count as width. `text` may quote
    /// what came from outside: its control characters are made visible before any colour is added.
    pub fn say_fitted(&self, text: &str, indent: usize, paint: impl Fn(&str) -> String) {
        let width = self.surface().width;
        let text = crate::text::visible_lines(text);
        let lines: Vec<String> = crate::ui::render::wrap_hanging(&text, width, indent)
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
        let text = crate::text::visible_lines(text);
        let lines: Vec<String> = crate::ui::render::marked("!", &text, surface.width)
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

    /// Compacts the history now (`/compact`), with ESC / Ctrl-C cancellation; the `Compacted` event is printed.
    /// A cancelled run prints that it was cancelled and counts as success (the history is unchanged).
    pub fn compact_history(&mut self, focus: Option<&str>) -> Result<(), CompactionError> {
        let sink = TerminalSink::stdout(self.surface(), self.lang);
        let cancel = CancellationToken::new();
        let keys = self.keyboard.start_task(cancel.clone());
        let work = self
            .host
            .agent_mut()
            .compact_now(focus, &sink, cancel.clone());
        let result = block_on_task(&self.runtime, &cancel, &self.keyboard, work);
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
        let result = block_on_task(&self.runtime, &cancel, &self.keyboard, work(cancel.clone()));
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

    /// Forgets the conversation (`/clear`), with the host's `SessionEnd`/`SessionStart` hooks.
    pub fn clear_history(&mut self) {
        self.runtime.block_on(self.host.clear_history());
    }

    /// Stops the background tasks, then the session's MCP servers and language servers (the person left: hooks
    /// see `SessionEnd` with reason `prompt_input_exit`).
    pub fn shutdown(&self) {
        self.runtime.block_on(async {
            self.tasks.shutdown().await;
            self.host.shutdown_for("prompt_input_exit").await;
        });
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
