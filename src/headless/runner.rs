//! Runs the client's turns in order on the session: before each, the prompt `initialize` asked for and the
//! `system`/`init` message; then the input (with the schema's instructions), its retries while the answer does not
//! validate, and the `result`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::control::{Setup, prompt_of};
use super::init;
use super::messages::MessageSink;
use super::reader;
use super::result::{Closing, Structured, result_message};
use super::state::Headless;
use super::structured::{MAX_RETRIES, Schema, retry_prompt};
use super::tool_limit::ToolLimit;
use crate::agent::TurnOutcome;
use crate::app::session::{Input, Ran, Session};
use crate::llm::LlmError;
use crate::protocol::Usage;
use crate::protocol::plan::PlanReviewer;
use crate::text::{Msg, trf};

/// Runs turns and writes their results.
pub(super) struct Runner {
    pub(super) session: Arc<Session>,
    pub(super) headless: Arc<Headless>,
    pub(super) setup: Arc<Setup>,
    /// paicli's own system prompt, which `--system-prompt ""` keeps and `--append-system-prompt` adds to.
    pub(super) base_prompt: String,
    /// `--json-schema`; a schema sent with `initialize` takes its place.
    pub(super) schema: Option<Schema>,
    pub(super) key_source: Option<String>,
    pub(super) reviewer: Arc<dyn PlanReviewer>,
    /// `--tools`: the tools `init` lists.
    pub(super) limit: Option<Arc<ToolLimit>>,
    /// `--fallback-model`: a turn the model failed with an overload or server error runs on once more.
    pub(super) fallback_model: Option<String>,
    /// Set once the first `init` has waited for the MCP servers still starting.
    pub(super) mcp_waited: AtomicBool,
}

/// How a turn ended.
pub(super) struct Turned {
    pub(super) result: Value,
    pub(super) code: i32,
    pub(super) interrupted: bool,
}

impl Runner {
    /// Reads stdin and runs its user messages in order until it closes and the queue is empty.
    pub(super) async fn stream(&self, cancel: &CancellationToken) -> i32 {
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
    pub(super) async fn turn(&self, input: Input, cancel: &CancellationToken) -> Turned {
        let started = Instant::now();
        if let Some(change) = self.setup.take_prompt() {
            self.session
                .set_system_prompt(prompt_of(&self.base_prompt, &change))
                .await;
        }
        let agents = self.setup.agents.take_pending();
        if !agents.is_empty() {
            self.session.add_agents(agents).await;
        }
        let sent_schema = self.setup.schema().map(Schema::new);
        let schema = match &sent_schema {
            Some(Ok(schema)) => Some(schema),
            Some(Err(e)) => {
                let note = trf(
                    self.headless.lang,
                    Msg::HeadlessSchemaRefused,
                    &[("error", e)],
                );
                eprintln!("paicli: {note}");
                self.schema.as_ref()
            }
            None => self.schema.as_ref(),
        };
        if !self.mcp_waited.swap(true, Ordering::SeqCst) {
            // The first `init` lists the servers' tools, as Claude's does (the SDKs' in-process servers connect
            // in a moment); the session waits at most this long itself before the first request.
            let wait = self.session.config.mcp.startup_wait;
            tokio::select! {
                _ = self.session.services.mcp.wait_for_startup(wait) => {}
                () = cancel.cancelled() => {}
            }
        }
        if !self.headless.quiet {
            let key_source = self.key_source.as_deref();
            let limit = self.limit.as_deref();
            let agents = self.setup.agents.names();
            let init =
                init::init_message(&self.session, &self.headless, key_source, limit, agents).await;
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
        if let Some((fallback, error)) = self.fallback_for(&ran, interrupted)
            && let Some(again) = self.on_fallback(&fallback, &error, &sink, cancel).await
        {
            (ran, interrupted) = again;
            spent.add(&ran);
        }
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

    /// The fallback model and the error, when `ran` failed with an overload or a server error (after the
    /// client's own retries) and `--fallback-model` names another model.
    fn fallback_for(&self, ran: &Ran, interrupted: bool) -> Option<(String, String)> {
        let fallback = self.fallback_model.as_deref()?;
        let Ran::Turn(report) = ran else { return None };
        let TurnOutcome::Failed(error) = &report.outcome else {
            return None;
        };
        let overloaded = matches!(
            error,
            LlmError::Server { .. }
                | LlmError::StreamError {
                    retryable: true,
                    ..
                }
        );
        (overloaded && !interrupted && fallback != self.headless.model())
            .then(|| (fallback.to_string(), error.to_string()))
    }

    /// Says so in a `system` message and carries the failed turn on once on `fallback`, then goes back to the
    /// session's model. The failed request stays in the history, so the retry asks the model to carry on.
    /// `None` when the fallback model cannot be used (said on stderr; the failure stands).
    async fn on_fallback(
        &self,
        fallback: &str,
        error: &str,
        sink: &MessageSink<'_>,
        cancel: &CancellationToken,
    ) -> Option<(Ran, bool)> {
        let main = self.headless.model();
        let note = trf(
            self.headless.lang,
            Msg::HeadlessFallbackModel,
            &[("model", &main), ("error", &error), ("fallback", &fallback)],
        );
        if let Err(e) = self.session.switch_model(fallback).await {
            eprintln!("paicli: {note}: {e}");
            return None;
        }
        sink.system(
            "model_fallback",
            json!({"model": main, "fallback_model": fallback, "error": error, "message": note}),
        );
        self.headless.set_model(fallback);
        let again = Input::prompt(FALLBACK_PROMPT);
        let ran = self.run_once(again, sink, cancel).await;
        if self.session.switch_model(&main).await.is_ok() {
            self.headless.set_model(&main);
        }
        Some(ran)
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

/// What the fallback model is asked after the failed request (which stays in the history).
const FALLBACK_PROMPT: &str = "The previous model request failed with a provider error before an answer; carry on with the task above.";

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
