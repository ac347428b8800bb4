//! `paicli -p "task"` as text: one input to the app's session (a turn, or with `--plan` / `--team` a plan run
//! without review), answer on stdout, progress on stderr. `--output-format json|stream-json` is the headless
//! front-end's (`docs/headless.md`).

pub mod piped;
pub mod plan_run;
pub mod review;
mod text_progress;

use std::io::IsTerminal;

use tokio_util::sync::CancellationToken;

use crate::agent::{ExitReason, TurnOutcome, TurnReport};
use crate::app::session::{Input, Ran, Session};
use crate::protocol::plan::RunWithoutReview;
use crate::text::{Lang, Msg, labelled, tr, trf, visible_lines};
use crate::ui::hints::{Frontend, hint_text};
use text_progress::TextProgress;

pub use crate::app::exit_codes::{
    EXIT_ALL_DENIED, EXIT_CANCELLED, EXIT_FAILURE, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, exit_code,
    nothing_done, report_exit_code,
};

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

/// How one `-p` run prints: the language of progress and errors on stderr.
#[derive(Clone, Debug)]
pub struct Printing {
    pub lang: Lang,
    /// Where the API key came from, named by the hint after an authentication failure.
    pub key_source: Option<String>,
}

/// Runs `input` on `session` (a turn, or a plan run without review) and prints it as `printing` says. Returns
/// the process exit code.
pub async fn run(
    session: &Session,
    input: Input,
    printing: Printing,
    cancel: CancellationToken,
) -> i32 {
    let lang = printing.lang;
    let plan = input.plan_mode(session.approval_mode()).is_some();
    let reviewer = RunWithoutReview;
    let ran = if plan {
        let sink = plan_run::TextPlan {
            lang,
            screen_stdout: std::io::stdout().is_terminal(),
        };
        session.run_input(input, &sink, cancel, &reviewer).await
    } else {
        let progress = TextProgress::new(lang, std::io::stdout().is_terminal());
        let ran = session.run_input(input, &progress, cancel, &reviewer).await;
        progress.finish();
        ran
    };
    match ran {
        Ran::Turn(report) => print_turn(&report, &printing),
        Ran::Plan(result) => plan_run::print_plan(&result, printing.lang),
        Ran::Blocked { reason } => {
            eprintln!("paicli: {reason}");
            1
        }
    }
}

/// Prints what a turn ended with on stderr (the error and its hint, or why it stopped early); returns the exit
/// code.
fn print_turn(report: &TurnReport, printing: &Printing) -> i32 {
    let (lang, key_source) = (printing.lang, printing.key_source.as_deref());
    for line in stderr_summary(&report.outcome, lang, key_source) {
        eprintln!("{}", visible_lines(&line));
    }
    if nothing_done(report) {
        eprintln!("paicli: {}", tr(lang, Msg::AllDenied));
    }
    report_exit_code(report)
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
