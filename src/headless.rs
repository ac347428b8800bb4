//! The headless protocol of Claude Code, so `claude -p` scripts and the Claude Agent SDKs drive paicli unchanged
//! (`docs/headless.md`): `--input-format stream-json` reads NDJSON user messages and control requests on stdin
//! and writes NDJSON messages on stdout; `-p --output-format json|stream-json` runs one task with the same
//! messages (`json` prints only the `result`). Each user message is one input to the app's session; this
//! front-end brings its event sink (`messages`), its approver (`approver`, with `--permission-prompt-tool stdio`)
//! and its plan reviewer.

mod approver;
mod channel;
mod control;
pub mod flags;
mod init;
mod messages;
mod reader;
mod result;
mod running;
mod sdk_hooks;
mod state;
pub mod structured;
mod tool_limit;
mod user_input;

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::app::session::{HostError, HostOptions, Input, Ran, Session};
use crate::app::sessions::{StartOptions, Started};
use crate::config::Config;
use crate::llm::providers::price_of;
use crate::protocol::plan::{PlanReviewer, ProposeOnly, RunWithoutReview};
use crate::protocol::{Approver, Usage};
use crate::text::{Lang, Msg, file_notice, tr, trf};
use approver::ClientApprover;
use channel::Channel;
use control::{Setup, prompt_of};
use messages::MessageSink;
use result::{Closing, Structured, result_message};
use running::RunningTurn;
use sdk_hooks::{SdkHooks, SdkHooksTurn};
use state::Headless;
use structured::{MAX_RETRIES, Schema, SchemaError, retry_prompt};
use tool_limit::{LimitHook, ToolLimit};

pub use flags::{HeadlessFlags, InputFormat, PermissionMode};

/// What stdout carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Only the `result` object (`-p --output-format json`).
    Json,
    /// Every message, one per line.
    StreamJson,
}

/// One headless run.
pub struct Launch {
    pub config: Config,
    pub start: StartOptions,
    pub flags: HeadlessFlags,
    pub output: Output,
    /// `-p`'s task; `None` reads user messages from stdin (`--input-format stream-json`).
    pub task: Option<Input>,
    /// Hook runs as system messages (`--include-hook-events`).
    pub hook_events: bool,
    pub lang: Lang,
    /// What stderr says about the session started (resumed, forked), worded by the caller.
    pub started_lines: StartedLines,
}

/// Words the session's start (resumed, forked) for stderr.
pub type StartedLines = Box<dyn Fn(&Started) -> Vec<String> + Send>;

/// Why a headless run could not start.
#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    Schema(#[from] SchemaError),
    #[error("no US dollar prices for {model} at {provider}")]
    NoPrices { provider: String, model: String },
    #[error("--permission-prompt-tool stdio needs --input-format stream-json")]
    PromptToolNeedsInput,
    #[error("--permission-prompt-tool {0} is not supported")]
    UnknownPromptTool(String),
}

impl HeadlessError {
    /// The error for a person, in `lang` (the host's errors are worded by the caller, which knows them).
    pub fn describe(&self, lang: Lang) -> Option<String> {
        Some(match self {
            HeadlessError::Host(_) => return None,
            HeadlessError::Schema(e) => trf(lang, Msg::HeadlessBadSchema, &[("error", e)]),
            HeadlessError::NoPrices { provider, model } => trf(
                lang,
                Msg::HeadlessNoPrices,
                &[("provider", provider), ("model", model)],
            ),
            HeadlessError::PromptToolNeedsInput => {
                tr(lang, Msg::HeadlessPromptToolNeedsInput).to_string()
            }
            HeadlessError::UnknownPromptTool(tool) => {
                trf(lang, Msg::HeadlessUnknownPromptTool, &[("tool", tool)])
            }
        })
    }
}

/// The stderr line about flags accepted and ignored.
pub fn unknown_flags_note(lang: Lang, flags: &[String]) -> String {
    trf(
        lang,
        Msg::HeadlessUnknownFlags,
        &[("flags", &flags.join(", "))],
    )
}

/// Runs the session until its task is done (`-p`) or stdin closes and the queued turns have run; `cancel`
/// (Ctrl-C) stops it. Returns the exit code: `-p`'s codes, or for a stream 0, or 1 when the last result was an
/// error other than an interrupt. Must run inside the Tokio runtime.
pub async fn run(launch: Launch, cancel: CancellationToken) -> Result<i32, HeadlessError> {
    let Launch {
        config,
        start,
        flags,
        output,
        task,
        hook_events,
        lang,
        started_lines,
    } = launch;
    let schema = flags
        .json_schema
        .as_deref()
        .map(Schema::from_flag)
        .transpose()?;
    let asks_client = match flags.permission_prompt_tool.as_deref() {
        None => false,
        Some("stdio") if task.is_none() => true,
        Some("stdio") => return Err(HeadlessError::PromptToolNeedsInput),
        Some(other) => return Err(HeadlessError::UnknownPromptTool(other.to_string())),
    };
    let provider = config.provider().ok();
    let price = match (flags.max_budget_usd, &provider) {
        (None, _) => None,
        (Some(_), Some(p)) => match price_of(&p.id, &p.model).filter(|p| p.currency == "$") {
            Some(price) => Some(price),
            None => {
                return Err(HeadlessError::NoPrices {
                    provider: p.id.clone(),
                    model: p.model.clone(),
                });
            }
        },
        (Some(_), None) => None,
    };
    let key_source = provider.and_then(|p| p.key_source);
    let stdout: Box<dyn std::io::Write + Send> = Box::new(std::io::stdout());
    let channel = Arc::new(Channel::new(stdout));
    let running = Arc::new(RunningTurn::default());
    let client = Arc::new(ClientApprover::new(
        Arc::clone(&channel),
        Arc::clone(&running),
    ));
    let approver: Arc<dyn Approver> = if asks_client {
        client.clone()
    } else {
        Arc::new(crate::protocol::approval::NonInteractiveApprover)
    };
    // Claude's modes in use: `acceptEdits` asks about every command, as Claude's does.
    let options = HostOptions {
        start,
        files: None,
        no_classifier: flags.permission_mode.is_some(),
    };
    let mut session = Session::start(config, approver, options)?;
    let sdk_hooks = Arc::new(SdkHooks::new(
        Arc::clone(&channel),
        session.id().to_string(),
        session.config.project_root.display().to_string(),
    ));
    session
        .agent_mut()
        .add_turn_hook(Arc::new(SdkHooksTurn(Arc::clone(&sdk_hooks))));
    let limit = flags.tools.as_deref().and_then(ToolLimit::from_flag);
    if let Some(limit) = &limit {
        session
            .agent_mut()
            .add_turn_hook(Arc::new(LimitHook(Arc::clone(limit))));
    }
    let session = Arc::new(session);
    for file in session.file_notices() {
        eprintln!("paicli: {}", file_notice(lang, &file));
    }
    for line in started_lines(session.started()) {
        eprintln!("paicli: {line}");
    }
    let mut headless = Headless::new(
        channel,
        running,
        session.id().to_string(),
        session.model.clone(),
    );
    headless.partials = flags.include_partial_messages;
    headless.hook_events = hook_events;
    headless.quiet = output == Output::Json;
    headless.lang = lang;
    headless.set_budget(price, flags.max_budget_usd);
    let setup = Arc::new(Setup::new(sdk_hooks));
    setup.ask_prompt(
        flags.system_prompt.clone(),
        flags.append_system_prompt.clone(),
    );
    let reviewer: Arc<dyn PlanReviewer> = match (&task, asks_client) {
        (Some(_), _) => Arc::new(RunWithoutReview),
        (None, true) => client,
        (None, false) => Arc::new(ProposeOnly),
    };
    let runner = Runner {
        base_prompt: session.system_prompt().await,
        session: Arc::clone(&session),
        headless: Arc::new(headless),
        setup,
        schema,
        key_source,
        reviewer,
        limit,
    };
    let code = match task {
        Some(input) => runner.turn(input, &cancel).await.code,
        None => runner.stream(&cancel).await,
    };
    session.shutdown().await;
    Ok(code)
}

/// Runs turns and writes their results.
struct Runner {
    session: Arc<Session>,
    headless: Arc<Headless>,
    setup: Arc<Setup>,
    /// paicli's own system prompt, which `--system-prompt ""` keeps and `--append-system-prompt` adds to.
    base_prompt: String,
    /// `--json-schema`; a schema sent with `initialize` takes its place.
    schema: Option<Schema>,
    key_source: Option<String>,
    reviewer: Arc<dyn PlanReviewer>,
    /// `--tools`: the tools `init` lists.
    limit: Option<Arc<ToolLimit>>,
}

/// How a turn ended.
struct Turned {
    result: Value,
    code: i32,
    interrupted: bool,
}

impl Runner {
    /// Reads stdin and runs its user messages in order until it closes and the queue is empty.
    async fn stream(&self, cancel: &CancellationToken) -> i32 {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let stdin = tokio::io::BufReader::new(tokio::io::stdin());
        tokio::spawn(reader::read(
            stdin,
            Arc::clone(&self.session),
            Arc::clone(&self.headless),
            Arc::clone(&self.setup),
            tx,
        ));
        let mut code = 0;
        loop {
            let input = tokio::select! {
                input = rx.recv() => input,
                () = cancel.cancelled() => None,
            };
            let Some(input) = input else { break };
            let turned = self.turn(input, cancel).await;
            let failed = turned.result["is_error"] == Value::Bool(true) && !turned.interrupted;
            code = i32::from(failed);
        }
        if cancel.is_cancelled() {
            return crate::app::exit_codes::EXIT_CANCELLED;
        }
        code
    }

    /// Runs one input (and the structured output's retries) and writes its messages and result.
    async fn turn(&self, input: Input, cancel: &CancellationToken) -> Turned {
        let started = Instant::now();
        if let Some(change) = self.setup.take_prompt() {
            self.session
                .set_system_prompt(prompt_of(&self.base_prompt, &change))
                .await;
        }
        let sent_schema = self.setup.schema().map(Schema::new);
        let schema = match &sent_schema {
            Some(Ok(schema)) => Some(schema),
            Some(Err(e)) => {
                eprintln!("paicli: initialize: {e}");
                self.schema.as_ref()
            }
            None => self.schema.as_ref(),
        };
        if !self.headless.quiet {
            let key_source = self.key_source.as_deref();
            let limit = self.limit.as_deref();
            let init = init::init_message(&self.session, &self.headless, key_source, limit).await;
            self.headless.channel.send(&init);
        }
        let input = match schema {
            Some(schema) => {
                let attached = [input.attached.clone(), Some(schema.instructions())];
                let attached = attached
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("\n\n");
                input.attach(Some(attached))
            }
            None => input,
        };
        let sink = MessageSink::new(&self.headless);
        let mut spent = Spent::default();
        let (mut ran, mut interrupted) = self.run_once(input, &sink, cancel).await;
        spent.add(&ran);
        let mut structured = None;
        if let Some(schema) = schema {
            let mut tries = 0;
            while let (Ran::Turn(report), false) = (&ran, interrupted) {
                let crate::agent::TurnOutcome::Finished { text } = &report.outcome else {
                    break;
                };
                match schema.check(text) {
                    Ok(value) => {
                        structured = Some(Structured::Valid(value));
                        break;
                    }
                    Err(errors) if tries < MAX_RETRIES => {
                        tries += 1;
                        let again = Input::prompt(retry_prompt(&errors));
                        (ran, interrupted) = self.run_once(again, &sink, cancel).await;
                        spent.add(&ran);
                    }
                    Err(errors) => {
                        structured = Some(Structured::GaveUp(errors));
                        break;
                    }
                }
            }
        }
        // The budget stops a turn as an interrupt does, but its result is an error like any other.
        let capped = self.headless.take_capped();
        let interrupted = interrupted && !capped;
        let closing = Closing {
            ran: &ran,
            interrupted,
            capped,
            structured,
            seen: sink.seen(),
            started,
            requests: spent.requests,
            usage: spent.usage,
            key_source: self.key_source.as_deref(),
        };
        let (result, code) = result_message(&self.headless, closing);
        self.headless.channel.send(&result);
        Turned {
            result,
            code,
            interrupted,
        }
    }

    async fn run_once(
        &self,
        input: Input,
        sink: &MessageSink<'_>,
        cancel: &CancellationToken,
    ) -> (Ran, bool) {
        let token = self.headless.running.begin(cancel);
        let ran = self
            .session
            .run_input(input, sink, token, self.reviewer.as_ref())
            .await;
        (ran, self.headless.running.end())
    }
}

/// Requests and tokens of a turn and its retries.
#[derive(Default)]
struct Spent {
    requests: u32,
    usage: Usage,
}

impl Spent {
    fn add(&mut self, ran: &Ran) {
        if let Ran::Turn(report) = ran {
            self.requests += report.requests;
            self.usage.add(&report.usage);
        }
    }
}
