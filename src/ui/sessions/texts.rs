//! What sessions, resuming and forking tell the user: the wordings live in the message table (`Msg::Session*`);
//! these functions pick the message and fill its placeholders.

use crate::app::sessions::{Resumed, StartError};
use crate::session::ledger::{FindError, SessionSummary};
use crate::text::{Lang, Msg, tr, trf};

use super::PickFor;
use super::picker::summary_lines;

/// Flags that do not fit together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagError {
    /// `--fork` without `--continue` or `--resume`.
    ForkAlone,
}

/// The error for `e`.
pub fn flag_error(lang: Lang, e: &FlagError) -> String {
    match e {
        FlagError::ForkAlone => tr(lang, Msg::SessionForkAlone).to_string(),
    }
}

/// `-p --resume` without an id: the picker needs a terminal; lists what could be passed instead.
pub fn picker_needs_terminal(lang: Lang, summaries: &[SessionSummary]) -> String {
    let mut text = tr(lang, Msg::SessionPickerNeedsTerminal).to_string();
    if !summaries.is_empty() {
        text.push('\n');
        text.push_str(picker_heading(lang));
        for line in summary_lines(lang, summaries, None) {
            text.push('\n');
            text.push_str(&line);
        }
    }
    text
}

/// Before the numbered list.
pub fn picker_heading(lang: Lang) -> &'static str {
    tr(lang, Msg::SessionPickerHeading)
}

/// The picker's question, saying what Enter alone does.
pub fn picker_prompt(lang: Lang, pick_for: PickFor) -> &'static str {
    match pick_for {
        PickFor::Start => tr(lang, Msg::SessionPickerPrompt),
        PickFor::Switch => tr(lang, Msg::SessionPickerPromptSwitch),
    }
}

/// The project has no ledgers.
pub fn no_sessions(lang: Lang, pick_for: PickFor) -> &'static str {
    match pick_for {
        PickFor::Start => tr(lang, Msg::SessionNoneToPick),
        PickFor::Switch => tr(lang, Msg::SessionNoneToSwitch),
    }
}

/// The typed answer was not a number of the list.
pub fn not_a_choice(lang: Lang, pick_for: PickFor) -> &'static str {
    match pick_for {
        PickFor::Start => tr(lang, Msg::SessionNotAChoice),
        PickFor::Switch => tr(lang, Msg::SessionNotAChoiceSwitch),
    }
}

/// The line after a session was loaded.
pub fn resumed_text(lang: Lang, id: &str, resumed: &Resumed) -> String {
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("id", &id),
        ("from", &resumed.from),
        ("turns", &resumed.turns),
    ];
    if id == resumed.from {
        trf(lang, Msg::SessionResumed, &args)
    } else {
        trf(lang, Msg::SessionResumedAsFork, &args)
    }
}

/// Why the requested session could not start.
pub fn start_error_text(lang: Lang, e: &StartError) -> String {
    match e {
        StartError::NothingToContinue { root } => trf(
            lang,
            Msg::SessionNothingToContinue,
            &[("root", &root.display())],
        ),
        StartError::Find(find) => find_error_text(lang, find),
        e => trf(lang, Msg::SessionCannotResume, &[("error", e)]),
    }
}

/// An id that named no session, or several.
pub fn find_error_text(lang: Lang, e: &FindError) -> String {
    let (msg, prefix, candidates) = match e {
        FindError::Unknown { prefix, candidates } if candidates.is_empty() => {
            (Msg::SessionUnknownIdNoSessions, prefix, candidates)
        }
        FindError::Unknown { prefix, candidates } => (Msg::SessionUnknownId, prefix, candidates),
        FindError::Ambiguous { prefix, candidates } => {
            (Msg::SessionAmbiguousId, prefix, candidates)
        }
    };
    let ids = candidates.join(tr(lang, Msg::SessionIdSeparator));
    trf(lang, msg, &[("prefix", prefix), ("ids", &ids)])
}

/// `/sessions` with no ledgers for this project.
pub fn no_project_sessions(lang: Lang) -> &'static str {
    tr(lang, Msg::SessionNoProjectSessions)
}

/// After `/fork`.
pub fn forked_text(lang: Lang, from: &str, id: &str) -> String {
    trf(lang, Msg::SessionForked, &[("from", &from), ("id", &id)])
}

/// `/history clear`'s question.
pub fn history_clear_question(lang: Lang, count: usize) -> String {
    trf(lang, Msg::SessionHistoryClearQuestion, &[("count", &count)])
}

/// After `/history clear`.
pub fn history_cleared(lang: Lang, count: usize) -> String {
    trf(lang, Msg::SessionHistoryCleared, &[("count", &count)])
}

/// `/history clear` answered with anything but yes.
pub fn nothing_deleted(lang: Lang) -> &'static str {
    tr(lang, Msg::SessionNothingDeleted)
}

/// `/history` with an unknown subcommand.
pub fn history_usage(lang: Lang) -> &'static str {
    tr(lang, Msg::SessionHistoryUsage)
}
