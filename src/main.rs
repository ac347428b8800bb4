//! The `paicli` binary: parse flags, load config, pick a front-end.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{CommandFactory, Parser};
use tokio_util::sync::CancellationToken;

use paicli::app::{HostError, HostOptions, Input, RunAs, Session};
use paicli::channels::ChannelKind;
use paicli::config::settings::{self, flag_help};
use paicli::config::{ApprovalMode, Config, Overrides, ProjectTrust};
use paicli::headless::{self, HeadlessFlags, InputFormat};
use paicli::policy::approval::NonInteractiveApprover;
use paicli::text::{self, Lang};
use paicli::ui::oneshot::piped::{self, Piped};
use paicli::ui::oneshot::{self, OutputFormat, Printing};
use paicli::ui::sessions::{self, Launch};
use paicli::ui::startup::{StartError, bad_flag, locale_lang};

/// The exit codes, shown at the end of `--help` (the README lists the same).
const EXIT_CODES_HELP: &str = "\
Exit codes (-p):
  0    done
  1    model or transport failure
  2    usage or configuration error
  3    stopped by a budget; the output is a partial result
  4    nothing done: every call with side effects was denied
  130  cancelled (Ctrl-C)";

/// A terminal coding agent for any OpenAI-compatible model.
#[derive(Debug, Parser)]
#[command(name = "paicli", version, about, after_help = EXIT_CODES_HELP)]
struct Cli {
    /// Run one task non-interactively and exit. Without a value, or with `-`, the task is read from stdin.
    #[arg(short = 'p', long = "print", value_name = "TASK", num_args = 0..=1, default_missing_value = "-")]
    print: Option<String>,

    /// With `-p`: plan the task as a dependency graph of sub-agent tasks, print the plan and run it unreviewed.
    #[arg(long, requires = "print", conflicts_with = "team")]
    plan: bool,

    /// With `-p`: like `--plan`, with a team: planner, two workers and a reviewer that passes each step.
    #[arg(long, requires = "print")]
    team: bool,

    /// How `-p` prints its result; `json` and `stream-json` are Claude Code's headless schema (docs/headless.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,

    /// With `--output-format stream-json`: also emit `hook_started` and `hook_response` system messages (see
    /// docs/hooks.md).
    #[arg(long)]
    include_hook_events: bool,

    /// Project directory to work in (default: the current directory).
    #[arg(short = 'C', long = "cwd", value_name = "DIR")]
    cwd: Option<PathBuf>,

    // The settings' flags take their help (and choices) from the settings' declarations in `paicli::config`.
    #[arg(long, help = flag_help("--provider"))]
    provider: Option<String>,

    #[arg(long, help = flag_help("--model"))]
    model: Option<String>,

    #[arg(long, value_name = "URL", help = flag_help("--base-url"))]
    base_url: Option<String>,

    #[arg(long, value_name = "N", help = flag_help("--max-iterations"))]
    max_iterations: Option<u32>,

    #[arg(long, value_name = "TOKENS", help = flag_help("--token-budget"))]
    token_budget: Option<u64>,

    #[arg(long, value_name = "TOKENS", help = flag_help("--max-output-tokens"))]
    max_output_tokens: Option<u32>,

    #[arg(long, help = flag_help("--trust-project-mcp"))]
    trust_project_mcp: bool,

    /// Trust this project's .paicli/config.toml and .env with provider endpoints and language servers, and its
    /// hooks; remembered per project and file contents in $PAICLI_HOME/project-trust.json (a changed file or hook
    /// needs trusting again).
    #[arg(long)]
    trust_project: bool,

    #[arg(long, value_name = "MODE", value_parser = flag_choices("--approval"), help = flag_help("--approval"))]
    approval: Option<String>,

    #[arg(long, value_name = "MODE", value_parser = flag_choices("--sandbox"), help = flag_help("--sandbox"))]
    sandbox: Option<String>,

    /// Continue the most recent session of this project.
    #[arg(short = 'c', long = "continue", conflicts_with = "resume")]
    continue_session: bool,

    /// Resume the session with this id (a unique prefix is enough); without an id, pick one from a list.
    #[arg(short = 'r', long, value_name = "ID", num_args = 0..=1, default_missing_value = "")]
    resume: Option<String>,

    /// With --continue or --resume: continue the history under a new session id; the original stays as it was.
    #[arg(long, alias = "fork-session")]
    fork: bool,

    /// Start the interactive session with this as the first message (`paicli "fix the tests"`); after a `-p`
    /// without a value, the task it runs (`paicli -p --plan "fix the tests"`).
    #[arg(value_name = "TASK")]
    task: Option<String>,

    #[command(flatten)]
    headless: HeadlessFlags,

    #[command(subcommand)]
    command: Option<Subcommand>,
}

/// The words a setting's flag accepts, from its declaration.
fn flag_choices(flag: &str) -> clap::builder::PossibleValuesParser {
    let words = settings::for_flag(flag)
        .map(|row| row.choices())
        .unwrap_or_default();
    clap::builder::PossibleValuesParser::new(words)
}

/// Commands besides the agent itself: jobs that run and exit, and front-ends other than the REPL and `-p`.
#[derive(Debug, clap::Subcommand)]
enum Subcommand {
    /// Build or refresh the project's code index for search_code; prints files, chunks and seconds.
    Index {
        /// Project directory (default: -C or the current directory).
        path: Option<PathBuf>,
        /// Empty the index first and index every file again.
        #[arg(long)]
        rebuild: bool,
    },
    /// The runtime API: threads, turns and an SSE event stream over HTTP, behind $PAICLI_RUNTIME_API_KEY.
    Serve {
        /// Port to listen on (0 picks a free one and prints it).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on; anything but loopback needs --unsafe-bind.
        #[arg(long, value_name = "ADDR", default_value_t = paicli::serve::ServeOptions::LOOPBACK)]
        bind: std::net::IpAddr,
        /// Allow a bind address other than loopback (anyone who can reach it and has the key runs commands).
        #[arg(long)]
        unsafe_bind: bool,
    },
    /// MCP servers: log in to a remote server (OAuth) or remove its tokens.
    Mcp {
        #[command(subcommand)]
        action: McpAction,
    },
    /// The Agent Client Protocol over stdio, for editors (Zed, JetBrains, Neovim): sessions, prompts, approvals.
    Acp,
    /// Chat channels: talk to the agent from Telegram or WeChat (see docs/channels.md).
    Channel {
        #[command(subcommand)]
        service: ChannelService,
    },
    /// The WeChat channel (`paicli channel wechat …`).
    Wechat {
        #[command(subcommand)]
        action: ChannelCli,
    },
    /// Review changes with the reviewer agent: since the default branch (default), a base branch, a commit, or
    /// --staged; exits 1 on a blocking finding ([agents] review_fail_on).
    Review {
        /// A base branch to compare with, or a commit to review.
        target: Option<String>,
        /// Review the staged changes.
        #[arg(long, conflicts_with = "target")]
        staged: bool,
    },
}

#[derive(Debug, clap::Subcommand)]
enum ChannelService {
    /// A Telegram bot (Bot API): token and allowed user ids from your config or the environment.
    Telegram {
        #[command(subcommand)]
        action: ChannelCli,
    },
    /// WeChat over Tencent's iLink bot API: log in with a QR code.
    Wechat {
        #[command(subcommand)]
        action: ChannelCli,
    },
}

#[derive(Debug, Clone, Copy, clap::Subcommand)]
enum ChannelCli {
    /// Log in (WeChat) or check the bot and list who wrote to it (Telegram).
    Setup,
    /// Serve the chats from this folder until SIGTERM or Ctrl-C.
    Start {
        /// Detach and keep running as a service (output to the channel's log).
        #[arg(long)]
        background: bool,
    },
    /// Whether the channel runs, and its pid.
    Status,
    /// Stop the running channel (SIGTERM) and wait for it to end.
    Stop,
}

impl ChannelCli {
    fn action(self) -> paicli::channels::command::ChannelAction {
        use paicli::channels::command::ChannelAction;
        match self {
            ChannelCli::Setup => ChannelAction::Setup,
            ChannelCli::Start { background } => ChannelAction::Start { background },
            ChannelCli::Status => ChannelAction::Status,
            ChannelCli::Stop => ChannelAction::Stop,
        }
    }
}

#[derive(Debug, clap::Subcommand)]
enum McpAction {
    /// Log in to a remote MCP server: prints the authorization URL and waits for the browser's redirect.
    Login { server: String },
    /// Remove the stored OAuth tokens of a server.
    Logout { server: String },
}

fn main() -> ExitCode {
    paicli::sandbox::harden_process();
    paicli::app::prewarm_patterns();
    // In headless mode flags this version does not know are taken out (the SDKs add new ones often).
    let (args, ignored) =
        headless::flags::drop_unknown(std::env::args_os().collect(), &Cli::command());
    if !ignored.is_empty() {
        eprintln!(
            "paicli: {}",
            headless::unknown_flags_note(locale_lang(), &ignored)
        );
    }
    let cli = match parse_cli(args) {
        Ok(cli) => cli,
        // clap words help, version and English errors itself; a Chinese locale gets a Chinese sentence.
        Err(e) if e.use_stderr() && locale_lang() == Lang::Zh => {
            eprintln!("{}", bad_flag(Lang::Zh, &e.to_string()));
            return ExitCode::from(oneshot::EXIT_USAGE as u8);
        }
        Err(e) => e.exit(),
    };
    // Errors found before the configuration names a language are worded for the locale.
    let mut lang = locale_lang();
    match run(cli, &mut lang) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("{}", e.describe(lang));
            ExitCode::from(oneshot::EXIT_USAGE as u8)
        }
    }
}

/// The command line; a `-p` without a value takes the task given after the other flags.
fn parse_cli(args: Vec<std::ffi::OsString>) -> Result<Cli, clap::Error> {
    let mut cli = Cli::try_parse_from(args)?;
    match (cli.print.as_deref(), cli.task.is_some()) {
        (Some("-"), true) => cli.print = cli.task.take(),
        (Some(_), true) => {
            return Err(Cli::command().error(
                clap::error::ErrorKind::ArgumentConflict,
                "the task was given twice: after -p and again after the flags",
            ));
        }
        _ => {}
    }
    Ok(cli)
}

/// Errors returned here are usage or configuration errors (exit code 2); task outcomes come back as codes.
/// `lang` becomes the configured UI language as soon as the configuration is loaded.
fn run(mut cli: Cli, lang: &mut Lang) -> Result<i32, StartError> {
    let index_dir = match &cli.command {
        Some(Subcommand::Index { path, .. }) => path.clone(),
        _ => None,
    };
    let project_dir = match index_dir.as_ref().or(cli.cwd.as_ref()) {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(StartError::Cwd)?,
    };
    // `--settings` folds into the flags it matches; its hooks and `--setting-sources` go to the configuration.
    let caller = headless::caller_settings::CallerSettings::from_flags(&cli.headless)
        .map_err(|e| StartError::Headless(e.describe(*lang)))?;
    if !caller.ignored.is_empty() {
        let note = headless::caller_settings::ignored_note(*lang, &caller.ignored);
        eprintln!("paicli: {note}");
    }
    let claude_caller = caller.fold_into(&mut cli.headless, &mut cli.model);
    let approval = cli
        .approval
        .as_deref()
        .map(str::parse::<ApprovalMode>)
        .transpose()
        .map_err(StartError::BadApproval)?;
    let mut overrides = Overrides {
        provider: cli.provider.clone(),
        model: cli.model.clone(),
        base_url: cli.base_url.clone(),
        max_iterations: cli.max_iterations,
        token_budget: cli.token_budget,
        max_output_tokens: cli.max_output_tokens,
        approval,
        trust_project_mcp: cli.trust_project_mcp,
        // clap has already limited the value to the three modes.
        sandbox: cli.sandbox.as_deref().and_then(|m| m.parse().ok()),
    };
    cli.headless.apply_overrides(&mut overrides);
    let mut config = Config::load(&project_dir, &overrides)?;
    *lang = Lang::resolve(config.ui_language, &config.env);
    let lang = *lang;
    if cli.trust_project {
        ProjectTrust::load(&config.home)
            .trust(&config.project_root)
            .map_err(StartError::Trust)?;
        // The project's hooks as they are now, too (see docs/hooks.md).
        paicli::hooks::trust::trust_project_hooks(&paicli::app::hook_paths(&config))
            .map_err(StartError::Trust)?;
        eprintln!(
            "paicli: {}",
            text::project_trusted(lang, &config.project_root)
        );
        config = Config::load(&project_dir, &overrides)?;
    }
    config.claude_caller = claude_caller;
    cli.headless.apply_rules(&mut config);
    let _log_guard = paicli::app::init_logging(&config);
    if let Some(Subcommand::Index { rebuild, .. }) = &cli.command {
        return Ok(paicli::ui::index_cli::run(&config, *rebuild, lang));
    }

    if let Some(Subcommand::Serve {
        port,
        bind,
        unsafe_bind,
    }) = cli.command
    {
        let options = paicli::serve::ServeOptions {
            bind,
            port,
            unsafe_bind,
            overrides,
            default_project: config.project_root,
        };
        return Ok(run_serve(options, lang));
    }
    if let Some(Subcommand::Mcp { action }) = &cli.command {
        return run_mcp_action(&config, lang, action);
    }

    if let Some(Subcommand::Review { target, staged }) = &cli.command {
        let target = match (staged, target) {
            (true, _) => paicli::app::review::ReviewTarget::Staged,
            (false, Some(t)) => paicli::app::review::ReviewTarget::parse(t),
            (false, None) => paicli::app::review::ReviewTarget::Default,
        };
        return Ok(paicli::ui::oneshot::review::run(
            &config,
            target,
            cli.output_format,
            lang,
        ));
    }
    if let Some(Subcommand::Acp) = cli.command {
        return Ok(run_acp(overrides, lang));
    }
    let channel = match &cli.command {
        Some(Subcommand::Channel {
            service: ChannelService::Telegram { action },
        }) => Some((ChannelKind::Telegram, *action)),
        Some(
            Subcommand::Channel {
                service: ChannelService::Wechat { action },
            }
            | Subcommand::Wechat { action },
        ) => Some((ChannelKind::Wechat, *action)),
        _ => None,
    };
    if let Some((kind, action)) = channel {
        return Ok(paicli::channels::command::run(
            config,
            lang,
            kind,
            action.action(),
        ));
    }

    // The prompt files are read once here, for the headless host and plain-text `-p` alike.
    cli.headless.read_prompt_files().map_err(|(file, error)| {
        StartError::Headless(
            headless::HeadlessError::PromptFile { file, error }
                .describe(lang)
                .unwrap_or_default(),
        )
    })?;
    let launch = Launch::from_flags(cli.continue_session, cli.resume.as_deref(), cli.fork)
        .map_err(|e| StartError::Sessions(sessions::flag_error(lang, &e)))?;
    let stream_input = cli.headless.input_format == Some(InputFormat::StreamJson);
    if stream_input || (cli.print.is_some() && cli.output_format != OutputFormat::Text) {
        return run_headless(cli, config, &launch, lang);
    }
    let Some(task) = cli.print.as_deref() else {
        let refused = config.refused.clone();
        return paicli::ui::repl::run(config, overrides, launch, cli.task).map_err(|e| {
            // The banner never came; a refused setting may be why (a project URL without its key).
            for r in &refused {
                eprintln!("paicli: {}", text::refused_setting(lang, r));
            }
            e.into()
        });
    };
    let (task, piped) = if task == "-" {
        (read_stdin_task()?, Piped::Nothing)
    } else {
        (
            task.to_string(),
            piped::read_stdin().map_err(StartError::Stdin)?,
        )
    };
    if task.trim().is_empty() {
        return Err(StartError::EmptyTask);
    }

    // The REPL shows these in its banner; `-p` has only stderr.
    start_notices_on_stderr(&config, lang);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    // A local engine is asked which model it serves when none is named (hosted providers are not); its window is
    // asked for while the first request goes out.
    let window = runtime.block_on(paicli::app::discover_served_model(&mut config))?;
    let start = sessions::oneshot_options(&config, &launch, lang).map_err(StartError::Sessions)?;
    let printing = Printing {
        lang,
        key_source: config.provider().ok().and_then(|p| p.key_source),
    };
    let session = {
        let _runtime = runtime.enter();
        let options = HostOptions {
            start,
            window,
            ..HostOptions::default()
        };
        Session::start(config, Arc::new(NonInteractiveApprover), options).map_err(|e| match e {
            HostError::Setup(e) => StartError::Setup(e),
            HostError::Start(e) => StartError::Sessions(sessions::start_error_text(lang, &e)),
        })?
    };
    // `claude -p` scripts pass the prompt flags with text output too.
    let (own_prompt, added_prompt) = (
        &cli.headless.system_prompt,
        &cli.headless.append_system_prompt,
    );
    if own_prompt.is_some() || added_prompt.is_some() {
        runtime.block_on(async {
            let base = session.system_prompt().await;
            let prompt =
                headless::flags::prompt_over(&base, own_prompt.as_deref(), added_prompt.as_deref());
            session.set_system_prompt(prompt).await;
        });
    }
    for file in session.file_notices() {
        eprintln!("paicli: {}", text::file_notice(lang, &file));
    }
    for line in sessions::started_lines(lang, session.started()) {
        eprintln!("paicli: {line}");
    }
    if let Some(note) = piped_note(lang, &piped) {
        eprintln!("paicli: {note}");
    }
    let run_as = match plan_mode(&cli) {
        Some(mode) => RunAs::Plan(mode),
        // In the `plan` approval mode too: its calls are judged read-only, nothing is planned.
        None => RunAs::Turn,
    };
    let input = Input::typed(task)
        .run_as(run_as)
        .attach(piped::stdin_block(&piped));
    let code = runtime.block_on(async {
        let cancel = CancellationToken::new();
        tokio::spawn(cancel_on_ctrl_c(cancel.clone()));
        let code = oneshot::run(&session, input, printing, cancel).await;
        session.shutdown().await;
        code
    });
    Ok(code)
}

/// `--input-format stream-json`, or `-p` with `--output-format json|stream-json`: Claude Code's headless protocol.
fn run_headless(
    cli: Cli,
    mut config: Config,
    launch: &Launch,
    lang: Lang,
) -> Result<i32, StartError> {
    let stream_input = cli.headless.input_format == Some(InputFormat::StreamJson);
    let task = match cli.print.as_deref() {
        _ if stream_input => None,
        Some("-") => Some((read_stdin_task()?, Piped::Nothing)),
        Some(task) => Some((
            task.to_string(),
            piped::read_stdin().map_err(StartError::Stdin)?,
        )),
        None => None,
    };
    if task.as_ref().is_some_and(|(t, _)| t.trim().is_empty()) {
        return Err(StartError::EmptyTask);
    }
    start_notices_on_stderr(&config, lang);
    if let Some(note) = task.as_ref().and_then(|(_, piped)| piped_note(lang, piped)) {
        eprintln!("paicli: {note}");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    let window = runtime.block_on(paicli::app::discover_served_model(&mut config))?;
    let start = sessions::oneshot_options(&config, launch, lang).map_err(StartError::Sessions)?;
    let run_as = match plan_mode(&cli) {
        Some(mode) => RunAs::Plan(mode),
        None => RunAs::Turn,
    };
    let task = task.map(|(task, piped)| {
        Input::typed(task)
            .run_as(run_as)
            .attach(piped::stdin_block(&piped))
    });
    let output = match cli.output_format {
        OutputFormat::Json => headless::Output::Json,
        OutputFormat::Text | OutputFormat::StreamJson => headless::Output::StreamJson,
    };
    let run = headless::Launch {
        config,
        start,
        flags: cli.headless,
        output,
        task,
        hook_events: cli.include_hook_events,
        window,
        lang,
        started_lines: Box::new(move |started| sessions::started_lines(lang, started)),
    };
    let ran = runtime.block_on(async {
        let cancel = CancellationToken::new();
        tokio::spawn(cancel_on_ctrl_c(cancel.clone()));
        headless::run(run, cancel).await
    });
    ran.or_else(|e| match e {
        headless::HeadlessError::Host(HostError::Setup(e)) => Err(StartError::Setup(e)),
        headless::HeadlessError::Host(HostError::Start(e)) => {
            Err(StartError::Sessions(sessions::start_error_text(lang, &e)))
        }
        other => {
            eprintln!("paicli: {}", other.describe(lang).unwrap_or_default());
            Ok(oneshot::EXIT_USAGE)
        }
    })
}

/// The plan engine `-p --plan` / `--team` asks for.
fn plan_mode(cli: &Cli) -> Option<paicli::plan::PlanMode> {
    match (cli.plan, cli.team) {
        (_, true) => Some(paicli::plan::PlanMode::Team),
        (true, false) => Some(paicli::plan::PlanMode::Plan),
        (false, false) => None,
    }
}

/// The runtime of a long-running front-end (`acp`, `serve`); `None` (the error printed in `lang`) when the OS
/// refuses it.
fn server_runtime(lang: Lang) -> Option<tokio::runtime::Runtime> {
    let built = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build();
    built
        .map_err(|e| eprintln!("{}", StartError::Runtime(e).describe(lang)))
        .ok()
}

/// `paicli acp` until the editor closes stdin; returns the exit code.
fn run_acp(overrides: paicli::config::Overrides, lang: Lang) -> i32 {
    let Some(runtime) = server_runtime(lang) else {
        return oneshot::EXIT_FAILURE;
    };
    match runtime.block_on(paicli::acp::run(overrides)) {
        Ok(()) => oneshot::EXIT_OK,
        Err(e) => {
            eprintln!("paicli: {e}");
            oneshot::EXIT_FAILURE
        }
    }
}

/// `paicli serve` until Ctrl-C; returns the exit code (its errors are printed here, in `lang`).
fn run_serve(options: paicli::serve::ServeOptions, lang: Lang) -> i32 {
    let Some(runtime) = server_runtime(lang) else {
        return oneshot::EXIT_FAILURE;
    };
    // The process environment only: a project's .env must not choose the key.
    let key = std::env::var(paicli::serve::API_KEY_VAR).ok();
    let served = runtime.block_on(async {
        let server = paicli::serve::Server::bind(options, key.as_deref()).await?;
        eprintln!(
            "paicli: {}",
            paicli::serve::listening_text(lang, server.local_addr()?)
        );
        let stop = CancellationToken::new();
        let on_ctrl_c = stop.clone();
        tokio::spawn(async move {
            stop_signal().await;
            on_ctrl_c.cancel();
        });
        server.run(stop).await
    });
    match served {
        Ok(()) => oneshot::EXIT_OK,
        Err(e) => {
            eprintln!("{}", e.describe(lang));
            oneshot::EXIT_USAGE
        }
    }
}

/// Ctrl-C, or (a server is often stopped by a supervisor) SIGTERM.
async fn stop_signal() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    tokio::select! {
        Ok(()) = tokio::signal::ctrl_c() => {}
        Some(()) = async { match term.as_mut() { Some(t) => t.recv().await, None => None } } => {}
        // Neither could be registered: run until killed.
        else => std::future::pending::<()>().await,
    }
}

/// `paicli mcp login|logout <server>`: exit code 0 on success, 1 otherwise.
fn run_mcp_action(config: &Config, lang: Lang, action: &McpAction) -> Result<i32, StartError> {
    use paicli::ui::mcp_login::{self, Action};
    let (action, server) = match action {
        McpAction::Login { server } => (Action::Login, server),
        McpAction::Logout { server } => (Action::Logout, server),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    let ok = runtime.block_on(async {
        let cancel = CancellationToken::new();
        let on_signal = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_signal.cancel();
            }
        });
        let say = |line: &str| eprintln!("{line}");
        mcp_login::run(config, lang, action, server, &cancel, &say).await
    });
    Ok(if ok { 0 } else { 1 })
}

fn read_stdin_task() -> Result<String, StartError> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(StartError::NoTask);
    }
    let mut task = String::new();
    stdin.read_to_string(&mut task).map_err(StartError::Stdin)?;
    Ok(task)
}

/// What stderr says about piped input that was cut or refused.
fn piped_note(lang: Lang, piped: &Piped) -> Option<String> {
    match piped {
        Piped::Text {
            cut_from: Some(total),
            ..
        } => Some(text::trf(
            lang,
            text::Msg::PipedCut,
            &[("limit", &piped::MAX_PIPED_CHARS), ("total", total)],
        )),
        Piped::Binary { bytes } => {
            Some(text::trf(lang, text::Msg::PipedBinary, &[("bytes", bytes)]))
        }
        Piped::Text { .. } | Piped::Nothing => None,
    }
}

/// First Ctrl-C cancels the task cleanly; a second one exits at once.
async fn cancel_on_ctrl_c(cancel: CancellationToken) {
    if tokio::signal::ctrl_c().await.is_ok() {
        cancel.cancel();
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(oneshot::EXIT_CANCELLED);
        }
    }
}

/// What a run without a banner says before it starts: refused settings and what the sandbox cannot do here.
fn start_notices_on_stderr(config: &paicli::config::Config, lang: Lang) {
    for refused in &config.refused {
        eprintln!("paicli: {}", text::refused_setting(lang, refused));
    }
    let sandbox = paicli::app::build_sandbox(config);
    for shortfall in sandbox.notices(&config.project_root, Some(&config.home)) {
        eprintln!("paicli: {}", text::sandbox_shortfall(lang, &shortfall));
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;
    use paicli::config::settings;

    /// Flags that are actions or front-end choices, not settings.
    const NOT_SETTINGS: &[&str] = &[
        "print",
        "output-format",
        "include-hook-events",
        "plan",
        "team",
        "cwd",
        "trust-project",
        "continue",
        "resume",
        "fork",
        "help",
        "version",
    ];

    #[test]
    fn every_flag_is_a_settings_row_or_an_action() {
        for arg in Cli::command().get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            // Claude Code's headless flags are compatibility, not settings.
            if arg.get_help_heading() == Some(paicli::headless::flags::HEADING) {
                continue;
            }
            let flag = format!("--{long}");
            assert!(
                NOT_SETTINGS.contains(&long) || settings::for_flag(&flag).is_some(),
                "{flag} is not declared by a setting"
            );
        }
        for row in settings::all() {
            if let Some(flag) = row.info().flag {
                let long = flag.trim_start_matches("--");
                assert!(
                    Cli::command()
                        .get_arguments()
                        .any(|a| a.get_long() == Some(long)),
                    "{} names {flag}, which paicli does not accept",
                    row.info().key
                );
            }
        }
    }
}
