//! The process exit codes of a run without a person (`-p` in every output format, the headless protocol's
//! `-p` runs): one table, so text, JSON and the headless front-end agree.

use crate::agent::{TurnOutcome, TurnReport};
use crate::plan::PlanReport;
use crate::protocol::plan::TaskState;

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

/// A finished turn whose every call with side effects was refused did nothing the task asked for.
pub fn nothing_done(report: &TurnReport) -> bool {
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

/// The exit code of a plan run: 0 when every task is done, 130 when cancelled, 1 otherwise.
pub fn plan_exit_code(report: &PlanReport) -> i32 {
    if report.cancelled {
        EXIT_CANCELLED
    } else if report.outcomes.iter().all(|o| o.state == TaskState::Done) {
        EXIT_OK
    } else {
        EXIT_FAILURE
    }
}
