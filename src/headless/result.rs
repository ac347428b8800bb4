//! The `result` message that ends every turn: Claude's subtypes and fields (`errors` on every result that is not
//! a success, which the TypeScript SDK reads), paicli's extras (`changed_files`, `denials`, `all_denied`, `hint`,
//! a plan's `tasks`), and the exit code the same run has under `-p`.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::channel::uuid;
use super::messages::{Seen, claude_usage};
use super::state::Headless;
use crate::agent::{ExitReason, TurnOutcome, TurnReport, empty_answer_notice};
use crate::app::exit_codes::{
    EXIT_FAILURE, EXIT_PARTIAL, nothing_done, plan_exit_code, report_exit_code,
};
use crate::app::hints::{Frontend, hint_text};
use crate::app::session::Ran;
use crate::protocol::Usage;
use crate::text::Lang;

/// How the structured output (`--json-schema`) ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Structured {
    /// The answer parsed and validated.
    Valid(Value),
    /// Still invalid after the retries; the last validation errors.
    GaveUp(Vec<String>),
}

/// What the result is made of.
pub struct Closing<'a> {
    pub ran: &'a Ran,
    /// An `interrupt` (or a denial with `interrupt`) stopped the turn.
    pub interrupted: bool,
    /// `--max-budget-usd` stopped it.
    pub capped: bool,
    pub structured: Option<Structured>,
    pub seen: Seen,
    pub started: Instant,
    /// Model requests and usage of the turn, retries for the structured output included.
    pub requests: u32,
    pub usage: Usage,
    /// Where the API key came from, for the hint after an authentication failure.
    pub key_source: Option<&'a str>,
}

/// The result message and the exit code `-p` gives it.
pub fn result_message(headless: &Headless, closing: Closing<'_>) -> (Value, i32) {
    let mut verdict = judge(closing.ran, closing.key_source);
    if closing.capped {
        verdict.subtype = "error_max_budget_usd";
        verdict.errors = vec!["the --max-budget-usd budget was reached".to_string()];
        verdict.code = EXIT_PARTIAL;
    } else if closing.interrupted && verdict.subtype == "success" {
        verdict.subtype = "error_during_execution";
    }
    let mut structured_output = None;
    match &closing.structured {
        Some(Structured::Valid(value)) => structured_output = Some(value.clone()),
        Some(Structured::GaveUp(errors)) if verdict.subtype == "success" => {
            verdict.subtype = "error_max_structured_output_retries";
            verdict.errors.clone_from(errors);
            verdict.code = EXIT_FAILURE;
        }
        _ => {}
    }
    let is_error = verdict.subtype != "success";
    if is_error && verdict.errors.is_empty() {
        verdict.errors.push(verdict.subtype.replace('_', " "));
    }
    let model = headless.model();
    let cost = headless.total_cost_usd();
    let mut result = Map::new();
    result.insert("type".into(), "result".into());
    result.insert("subtype".into(), verdict.subtype.into());
    result.insert("is_error".into(), is_error.into());
    result.insert(
        "duration_ms".into(),
        millis(closing.started.elapsed()).into(),
    );
    result.insert(
        "duration_api_ms".into(),
        millis(closing.seen.api_time).into(),
    );
    result.insert("num_turns".into(), closing.requests.into());
    result.insert("result".into(), verdict.text.into());
    result.insert(
        "stop_reason".into(),
        verdict.stop_reason.map_or(Value::Null, Value::from),
    );
    result.insert("session_id".into(), headless.session_id.clone().into());
    result.insert("uuid".into(), uuid().into());
    result.insert("total_cost_usd".into(), cost.into());
    result.insert("usage".into(), claude_usage(closing.usage));
    result.insert(
        "modelUsage".into(),
        models_usage(headless, &model, closing.usage, cost),
    );
    result.insert("permission_denials".into(), closing.seen.denials.into());
    if is_error {
        result.insert("errors".into(), verdict.errors.into());
    }
    if let Some(value) = structured_output {
        result.insert("structured_output".into(), value);
    }
    result.insert("model".into(), model.into());
    for (key, value) in verdict.extras {
        result.insert(key, value);
    }
    (Value::Object(result), verdict.code)
}

/// What the outcome says, before the budget, interrupt and schema have their say.
struct Verdict {
    subtype: &'static str,
    text: String,
    stop_reason: Option<&'static str>,
    errors: Vec<String>,
    code: i32,
    extras: Map<String, Value>,
}

fn judge(ran: &Ran, key_source: Option<&str>) -> Verdict {
    match ran {
        Ran::Turn(report) => judge_turn(report, key_source),
        Ran::Plan(Ok(report)) => {
            let code = plan_exit_code(report);
            let mut extras = Map::new();
            extras.insert("tasks".into(), json!(report.outcomes));
            extras.insert("replans".into(), report.replans.into());
            Verdict {
                subtype: if code == 0 {
                    "success"
                } else {
                    "error_during_execution"
                },
                text: crate::plan::summary(report),
                stop_reason: Some("end_turn"),
                errors: Vec::new(),
                code,
                extras,
            }
        }
        Ran::Plan(Err(e)) => failure(e.to_string(), Map::new()),
        Ran::Blocked { reason } => failure(reason.clone(), Map::new()),
    }
}

fn failure(error: String, extras: Map<String, Value>) -> Verdict {
    Verdict {
        subtype: "error_during_execution",
        text: String::new(),
        stop_reason: None,
        errors: vec![error],
        code: EXIT_FAILURE,
        extras,
    }
}

fn judge_turn(report: &TurnReport, key_source: Option<&str>) -> Verdict {
    let mut extras = Map::new();
    let changed: Vec<String> = report
        .actions
        .changed_files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    extras.insert("changed_files".into(), json!(changed));
    extras.insert("denials".into(), json!(report.actions.denials));
    extras.insert("all_denied".into(), nothing_done(report).into());
    let code = report_exit_code(report);
    let ok = |text: &String, stop| Verdict {
        subtype: "success",
        text: text.clone(),
        stop_reason: Some(stop),
        errors: Vec::new(),
        code,
        extras: extras.clone(),
    };
    let error = |subtype, text: &str, errors: Vec<String>| Verdict {
        subtype,
        text: text.to_string(),
        stop_reason: None,
        errors,
        code,
        extras: extras.clone(),
    };
    match &report.outcome {
        TurnOutcome::Finished { text } => ok(text, "end_turn"),
        TurnOutcome::CutOff { text } => ok(text, "max_tokens"),
        TurnOutcome::Empty { reasoning, cut_off } => error(
            "error_during_execution",
            "",
            vec![empty_answer_notice(*reasoning, *cut_off).to_string()],
        ),
        TurnOutcome::Partial { reason, text } => {
            let mut verdict = match reason {
                ExitReason::HardIterationLimit => error("error_max_turns", text, Vec::new()),
                other => error("error_during_execution", text, vec![other.to_string()]),
            };
            verdict
                .extras
                .insert("partial_reason".into(), reason.to_string().into());
            verdict
        }
        TurnOutcome::Cancelled => error(
            "error_during_execution",
            "",
            vec!["interrupted by user".to_string()],
        ),
        TurnOutcome::Failed(e) => {
            let mut verdict = error("error_during_execution", "", vec![e.to_string()]);
            // Scripts read English, as the rest of the JSON.
            if let Some(hint) = hint_text(Lang::En, e, Frontend::OneShot, key_source) {
                verdict.extras.insert("hint".into(), hint.into());
            }
            verdict
        }
    }
}

/// `modelUsage`: a line per model that answered. Sub-agents' models have their own; the lead's model has the
/// rest of the turn's usage and of the cost.
fn models_usage(headless: &Headless, lead: &str, turn: Usage, cost: f64) -> Value {
    let mut lines = Map::new();
    let mut lead_usage = turn;
    let mut lead_cost = cost;
    for (model, other) in headless.take_other_models() {
        lead_usage.prompt_tokens = lead_usage
            .prompt_tokens
            .saturating_sub(other.turn.prompt_tokens);
        lead_usage.completion_tokens = lead_usage
            .completion_tokens
            .saturating_sub(other.turn.completion_tokens);
        lead_usage.cached_tokens = lead_usage
            .cached_tokens
            .saturating_sub(other.turn.cached_tokens);
        lead_cost -= other.cost_usd;
        lines.insert(model, model_usage(other.turn, other.cost_usd));
    }
    lines.insert(
        lead.to_string(),
        model_usage(lead_usage, lead_cost.max(0.0)),
    );
    Value::Object(lines)
}

/// One model's line of `modelUsage`, in the SDKs' camelCase.
fn model_usage(usage: Usage, cost: f64) -> Value {
    json!({
        "inputTokens": usage.prompt_tokens.saturating_sub(usage.cached_tokens),
        "outputTokens": usage.completion_tokens,
        "cacheReadInputTokens": usage.cached_tokens,
        "cacheCreationInputTokens": 0,
        "webSearchRequests": 0,
        "costUSD": cost,
    })
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::TurnActions;
    use crate::headless::channel::Channel;
    use crate::headless::running::RunningTurn;
    use crate::llm::LlmError;
    use std::sync::Arc;

    fn closing(ran: &Ran) -> Closing<'_> {
        Closing {
            ran,
            interrupted: false,
            capped: false,
            structured: None,
            seen: Seen {
                denials: Vec::new(),
                api_time: Duration::ZERO,
            },
            started: Instant::now(),
            requests: 1,
            usage: Usage::default(),
            key_source: None,
        }
    }

    fn turn(outcome: TurnOutcome) -> Ran {
        Ran::Turn(TurnReport {
            outcome,
            requests: 1,
            usage: Usage::default(),
            actions: TurnActions::default(),
        })
    }

    fn headless() -> Headless {
        let channel = Arc::new(Channel::new(Box::new(std::io::sink())));
        Headless::new(
            channel,
            Arc::new(RunningTurn::default()),
            "S".into(),
            "m".into(),
        )
    }

    #[test]
    fn each_outcome_has_its_subtype_errors_and_exit_code() {
        let h = headless();
        let cases = [
            (TurnOutcome::Finished { text: "ok".into() }, "success", 0),
            (TurnOutcome::CutOff { text: "o".into() }, "success", 3),
            (
                TurnOutcome::Partial {
                    reason: ExitReason::HardIterationLimit,
                    text: "part".into(),
                },
                "error_max_turns",
                3,
            ),
            (
                TurnOutcome::Partial {
                    reason: ExitReason::TokenBudgetExceeded,
                    text: "part".into(),
                },
                "error_during_execution",
                3,
            ),
            (TurnOutcome::Cancelled, "error_during_execution", 130),
            (
                TurnOutcome::Failed(LlmError::Auth {
                    status: 401,
                    message: "bad key".into(),
                }),
                "error_during_execution",
                1,
            ),
        ];
        for (outcome, subtype, code) in cases {
            let ran = turn(outcome);
            let (result, exit) = result_message(&h, closing(&ran));
            assert_eq!(
                (result["subtype"].as_str(), exit),
                (Some(subtype), code),
                "{result}"
            );
            let success = subtype == "success";
            assert_eq!(result["is_error"], !success);
            assert_eq!(result.get("errors").is_some(), !success, "{result}");
            if !success {
                assert!(
                    !result["errors"].as_array().is_none_or(Vec::is_empty),
                    "{result}"
                );
            }
        }
    }

    #[test]
    fn model_usage_has_a_line_per_model_that_answered() {
        let h = headless();
        let ran = turn(TurnOutcome::Finished { text: "ok".into() });
        assert_eq!(h.spent_by("cheap", "", &Usage::tokens(30, 3, 10, 0)), 0.0);
        h.spent_by("m", "", &Usage::tokens(70, 7, 0, 0));
        let mut end = closing(&ran);
        // The turn's usage counts the sub-agent's too.
        end.usage = Usage::tokens(100, 10, 10, 0);
        let (result, _) = result_message(&h, end);
        let lines = &result["modelUsage"];
        assert_eq!(lines["cheap"]["inputTokens"], 20, "{lines}");
        assert_eq!(lines["cheap"]["cacheReadInputTokens"], 10, "{lines}");
        assert_eq!(lines["cheap"]["outputTokens"], 3, "{lines}");
        assert_eq!(lines["m"]["inputTokens"], 70, "{lines}");
        assert_eq!(lines["m"]["outputTokens"], 7, "{lines}");
        // The next turn's result counts only its own tokens.
        let (next, _) = result_message(&h, closing(&ran));
        assert_eq!(next["modelUsage"]["cheap"]["inputTokens"], 0, "{next}");
    }

    #[test]
    fn the_budget_and_the_schema_override_a_success() {
        let h = headless();
        let ran = turn(TurnOutcome::Finished { text: "x".into() });
        let mut capped = closing(&ran);
        capped.capped = true;
        assert_eq!(
            result_message(&h, capped).0["subtype"],
            "error_max_budget_usd"
        );
        let mut invalid = closing(&ran);
        invalid.structured = Some(Structured::GaveUp(vec!["/n: wrong".into()]));
        let (result, code) = result_message(&h, invalid);
        assert_eq!(result["subtype"], "error_max_structured_output_retries");
        assert_eq!(result["errors"], json!(["/n: wrong"]));
        assert_eq!(code, 1);
        let mut valid = closing(&ran);
        valid.structured = Some(Structured::Valid(json!({"n": 1})));
        assert_eq!(
            result_message(&h, valid).0["structured_output"],
            json!({"n": 1})
        );
    }
}
