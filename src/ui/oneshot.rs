//! `paicli -p "task"`: one input to the app's session (a turn, or with `--plan` / `--team` a plan run without
//! review), answer on stdout, progress on stderr; or JSON / JSON lines for scripts.

pub mod piped;
pub mod plan_run;
pub mod review;
mod text_progress;

use std::io::{IsTerminal, Write};
use std::time::Instant;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::agent::{
    AgentEvent, Denial, EventSink, ExitReason, TurnOutcome, TurnReport, empty_answer_notice,
};
use crate::app::session::{Input, Ran, Session};
use crate::llm::Usage;
use crate::protocol::plan::RunWithoutReview;
use crate::text::{Lang, Msg, labelled, tr, trf, visible_lines};
use crate::ui::hints::{Frontend, hint_text};
use crate::ui::render::notice_line;
use text_progress::TextProgress;

/// Exit code: the task finished.
pub const EXIT_OK: i32 = 0;
/// Exit code: the model or transport failed.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code: usage or configuration error.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: a budget stopped the task; the output is a partial result.
pub const EXIT_PARTIAL: i32 = 3;
/// Exit code: nothing done, every call with side effects was refused (the answer may explain why).
pub const EXIT_ALL_DENIED: i32 = 4;
/// Exit code: cancelled (Ctrl-C).
pub const EXIT_CANCELLED: i32 = 130;

/// How `-p` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// The answer streamed as text; progress on stderr.
    #[default]
    Text,
    /// One JSON object when done.
    Json,
    /// One JSON event per line while running, then the result object.
    StreamJson,
}

/// The final object of `json` and `stream-json` output.
#[derive(Debug, Serialize)]
pub struct RunResult {
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The answer (or partial report); empty when cancelled or failed.
    pub result: String,
    pub is_error: bool,
    /// finished | max_tokens (the answer stopped at the output limit) | empty | partial | cancelled | failed
    pub stop_reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What to do about the error, as text output's `hint:` line says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Model requests made.
    pub num_turns: u32,
    pub usage: UsageSummary,
    pub duration_ms: u64,
    pub session_id: String,
    pub model: String,
    /// Calls a policy refused: tool, code, reason.
    pub denials: Vec<Denial>,
    /// Files the file tools wrote or edited, relative to the project root.
    pub changed_files: Vec<String>,
    /// True when every call with side effects was refused (exit code 4).
    pub all_denied: bool,
}

/// Token counts in the result object.
#[derive(Debug, Serialize)]
pub struct UsageSummary {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cached_tokens: u64,
    pub reasoning_tokens: u64,
}

impl From<Usage> for UsageSummary {
    fn from(u: Usage) -> Self {
        UsageSummary {
            input_tokens: u.prompt_tokens,
            output_tokens: u.completion_tokens,
            cached_tokens: u.cached_tokens,
            reasoning_tokens: u.reasoning_tokens,
        }
    }
}

/// How one `-p` run prints: the output format and the language of progress and errors on stderr.
#[derive(Clone, Debug)]
pub struct Printing {
    pub format: OutputFormat,
    pub lang: Lang,
    /// Where the API key came from, named by the hint after an authentication failure.
    pub key_source: Option<String>,
    /// `stream-json` also emits `hook_started` and `hook_response` events (`--include-hook-events`).
    pub hook_events: bool,
}

/// Runs `input` on `session` (a turn, or a plan run without review) and prints it as `printing` says. Returns
/// the process exit code. JSON output stays English: it is for scripts.
pub async fn run(
    session: &Session,
    input: Input,
    printing: Printing,
    cancel: CancellationToken,
) -> i32 {
    let started = Instant::now();
    let lang = printing.lang;
    let plan = input.plan_mode(session.approval_mode()).is_some();
    let reviewer = RunWithoutReview;
    let ran = match (printing.format, plan) {
        (OutputFormat::Text, false) => {
            let progress = TextProgress::new(lang, std::io::stdout().is_terminal());
            let ran = session.run_input(input, &progress, cancel, &reviewer).await;
            progress.finish();
            ran
        }
        (OutputFormat::Text, true) => {
            let sink = plan_run::TextPlan {
                lang,
                screen_stdout: std::io::stdout().is_terminal(),
            };
            session.run_input(input, &sink, cancel, &reviewer).await
        }
        (OutputFormat::Json, _) => {
            let sink = NoticesOnly { lang };
            session.run_input(input, &sink, cancel, &reviewer).await
        }
        (OutputFormat::StreamJson, _) => {
            let sink = JsonLines {
                hook_events: printing.hook_events,
            };
            session.run_input(input, &sink, cancel, &reviewer).await
        }
    };
    let at = Ended {
        session_id: session.id(),
        model: &session.model,
        started,
    };
    match ran {
        Ran::Turn(report) => print_turn(&report, &printing, &at),
        Ran::Plan(result) => plan_run::print_plan(&result, &printing, &at),
        Ran::Blocked { reason } => {
            eprintln!("paicli: {reason}");
            1
        }
    }
}

/// What a run's result object names besides its outcome.
pub(crate) struct Ended<'a> {
    pub session_id: &'a str,
    pub model: &'a str,
    pub started: Instant,
}

/// Prints what a turn ended with (the result object, or the summary on stderr); returns the exit code.
fn print_turn(report: &TurnReport, printing: &Printing, at: &Ended<'_>) -> i32 {
    let (lang, key_source) = (printing.lang, printing.key_source.as_deref());
    let mut result = summarize(report, at.model, at.session_id, at.started);
    if let TurnOutcome::Failed(e) = &report.outcome {
        // Scripts read English, as the rest of the JSON.
        result.hint = hint_text(Lang::En, e, Frontend::OneShot, key_source);
    }
    match printing.format {
        OutputFormat::Text => {
            for line in stderr_summary(&report.outcome, lang, key_source) {
                eprintln!("{}", visible_lines(&line));
            }
            if nothing_done(report) {
                eprintln!("paicli: {}", tr(lang, Msg::AllDenied));
            }
        }
        OutputFormat::Json | OutputFormat::StreamJson => print_json_line(&result),
    }
    report_exit_code(report)
}

/// A finished turn whose every call with side effects was refused did nothing the task asked for.
fn nothing_done(report: &TurnReport) -> bool {
    matches!(report.outcome, TurnOutcome::Finished { .. }) && report.actions.all_denied()
}

/// The exit code of a whole turn: the outcome's, or 4 when a finished turn was refused everything.
pub fn report_exit_code(report: &TurnReport) -> i32 {
    if nothing_done(report) {
        EXIT_ALL_DENIED
    } else {
        exit_code(&report.outcome)
    }
}

/// What text output adds on stderr after the turn: the error and what to do about it, or why it stopped early.
fn stderr_summary(outcome: &TurnOutcome, lang: Lang, key_source: Option<&str>) -> Vec<String> {
    match outcome {
        TurnOutcome::Failed(e) => {
            let error = trf(lang, Msg::OneShotFailed, &[("error", e)]);
            let mut lines = vec![labelled(lang, Msg::ErrorPrefix, &error)];
            if let Some(hint) = hint_text(lang, e, Frontend::OneShot, key_source) {
                lines.push(labelled(lang, Msg::HintPrefix, &hint));
            }
            lines
        }
        TurnOutcome::Partial { reason, .. } => {
            let msg = match reason {
                ExitReason::StagnationDetected => Msg::PartialStagnation,
                ExitReason::TokenBudgetExceeded => Msg::PartialTokens,
                ExitReason::HardIterationLimit => Msg::PartialIterations,
                ExitReason::OutputLimit => Msg::PartialOutputLimit,
            };
            vec![format!("paicli: {}", trf(lang, msg, &[("reason", reason)]))]
        }
        // The notice that the answer was cut off, or that there was none, is already on stderr.
        TurnOutcome::CutOff { .. } | TurnOutcome::Empty { cut_off: true, .. } => {
            vec![labelled(
                lang,
                Msg::HintPrefix,
                tr(lang, Msg::HintOutputLimit),
            )]
        }
        TurnOutcome::Finished { .. } | TurnOutcome::Empty { .. } | TurnOutcome::Cancelled => {
            Vec::new()
        }
    }
}

fn summarize(report: &TurnReport, model: &str, session_id: &str, started: Instant) -> RunResult {
    let (result, stop_reason, partial_reason, error) = match &report.outcome {
        TurnOutcome::Finished { text } => (text.clone(), "finished", None, None),
        TurnOutcome::CutOff { text } => (text.clone(), "max_tokens", None, None),
        TurnOutcome::Empty { reasoning, cut_off } => (
            String::new(),
            "empty",
            None,
            Some(empty_answer_notice(*reasoning, *cut_off).to_string()),
        ),
        TurnOutcome::Partial { reason, text } => {
            (text.clone(), "partial", Some(reason.to_string()), None)
        }
        TurnOutcome::Cancelled => (
            String::new(),
            "cancelled",
            None,
            Some("cancelled by user".to_string()),
        ),
        TurnOutcome::Failed(e) => (String::new(), "failed", None, Some(e.to_string())),
    };
    RunResult {
        kind: "result",
        result,
        is_error: error.is_some(),
        stop_reason,
        partial_reason,
        error,
        hint: None,
        num_turns: report.requests,
        usage: report.usage.into(),
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        session_id: session_id.to_string(),
        model: model.to_string(),
        denials: report.actions.denials.clone(),
        changed_files: report
            .actions
            .changed_files
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        all_denied: nothing_done(report),
    }
}

/// The exit code for a turn's outcome.
pub fn exit_code(outcome: &TurnOutcome) -> i32 {
    match outcome {
        TurnOutcome::Finished { .. } => EXIT_OK,
        // A cut-off answer is incomplete: scripts must not take it for the whole result.
        TurnOutcome::Partial { .. } | TurnOutcome::CutOff { .. } => EXIT_PARTIAL,
        TurnOutcome::Empty { .. } => EXIT_FAILURE,
        TurnOutcome::Cancelled => EXIT_CANCELLED,
        TurnOutcome::Failed(_) => EXIT_FAILURE,
    }
}

fn print_json_line<T: Serialize>(value: &T) {
    let mut out = std::io::stdout().lock();
    // A closed stdout (e.g. `| head`) is not worth failing the task for.
    if serde_json::to_writer(&mut out, value).is_ok() {
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }
}

/// `json` output shows nothing on stdout until the end; notices go to stderr, as in text output.
struct NoticesOnly {
    lang: Lang,
}

impl EventSink for NoticesOnly {
    fn emit(&self, event: AgentEvent) {
        if let AgentEvent::Notice { notice } = event {
            eprintln!("! {}", notice_line(self.lang, &notice));
        }
    }
}

/// `stream-json`: every event as one JSON line (hook runs only when asked for).
struct JsonLines {
    hook_events: bool,
}

impl EventSink for JsonLines {
    fn emit(&self, event: AgentEvent) {
        let hook = matches!(
            event,
            AgentEvent::HookStarted { .. } | AgentEvent::HookFinished { .. }
        );
        if !hook || self.hook_events {
            print_json_line(&event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::LlmError;

    #[test]
    fn failures_and_budget_stops_are_explained_in_the_users_language() {
        let failed = TurnOutcome::Failed(LlmError::Auth {
            status: 401,
            message: "invalid api key".into(),
        });
        let zh = stderr_summary(&failed, Lang::Zh, None);
        assert!(zh[0].starts_with("错误：模型请求失败："), "{zh:?}");
        assert!(zh[0].contains("invalid api key"), "{zh:?}");
        assert!(
            zh[1].starts_with("提示：检查所用提供商的 API 密钥变量"),
            "{zh:?}"
        );
        let en = stderr_summary(&failed, Lang::En, None);
        assert!(
            en[0].starts_with("error: ") && en[1].starts_with("hint: check the API key"),
            "{en:?}"
        );
        let partial = TurnOutcome::Partial {
            reason: ExitReason::TokenBudgetExceeded,
            text: String::new(),
        };
        assert_eq!(
            stderr_summary(&partial, Lang::Zh, None),
            vec![
                "paicli: 提前停止（TOKEN_BUDGET_EXCEEDED）：任务用完了 token 预算（--token-budget）；输出是部分结果"
            ]
        );
    }
}
