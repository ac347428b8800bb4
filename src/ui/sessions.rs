//! Starting, resuming and forking sessions from the front-ends: the `--continue` / `--resume` / `--fork` flags,
//! the resume picker, and what the user is told (in English and Chinese).

mod picker;
mod texts;

use crate::app::sessions::{ResumeFrom, StartOptions, Started};
use crate::config::Config;
use crate::session::ledger::SessionStore;
use crate::text::{Lang, start_notice_text};

pub use crate::ui::answer::{LineInput, Step, read_answer};
pub use picker::{PICKER_LIMIT, last_exchange, parse_choice, summary_lines};
pub use texts::{
    FlagError, find_error_text, flag_error, forked_text, history_clear_question, history_cleared,
    history_usage, no_project_sessions, nothing_deleted, picker_heading, resumed_text,
    start_error_text,
};

/// How the command line asked the session to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// Start given options (a new session, or one to continue by id or as the latest).
    Start(StartOptions),
    /// `--resume` without an id: pick from this project's sessions (interactive only).
    Pick { fork: bool },
}

impl Launch {
    /// The launch `-c`, `-r [id]` and `--fork` describe.
    pub fn from_flags(
        continue_latest: bool,
        resume: Option<&str>,
        fork: bool,
    ) -> Result<Launch, FlagError> {
        let resume = match (continue_latest, resume) {
            (true, _) => Some(ResumeFrom::Latest),
            (false, Some(id)) if id.trim().is_empty() => return Ok(Launch::Pick { fork }),
            (false, Some(id)) => Some(ResumeFrom::Id(id.trim().to_string())),
            (false, None) if fork => return Err(FlagError::ForkAlone),
            (false, None) => None,
        };
        Ok(Launch::Start(StartOptions {
            resume,
            fork,
            id: None,
        }))
    }
}

/// How a `-p` run starts; `--resume` without an id is an error (the text to print): `-p` cannot show the picker.
pub fn oneshot_options(
    config: &Config,
    launch: &Launch,
    lang: Lang,
) -> Result<StartOptions, String> {
    match launch {
        Launch::Start(options) => Ok(options.clone()),
        Launch::Pick { .. } => {
            let store = SessionStore::new(&config.home);
            Err(texts::picker_needs_terminal(
                lang,
                &store.summaries(&config.project_root, PICKER_LIMIT),
            ))
        }
    }
}

/// How the REPL starts: `--resume` without an id shows the picker (lines for the user go to `say`); an empty
/// choice (Enter, ESC, Ctrl-C) starts a new session.
pub fn interactive_options(
    config: &Config,
    launch: &Launch,
    lang: Lang,
    say: &dyn Fn(&str),
) -> StartOptions {
    match launch {
        Launch::Start(options) => options.clone(),
        Launch::Pick { fork } => StartOptions {
            resume: pick(config, lang, PickFor::Start, say).map(ResumeFrom::Id),
            fork: *fork,
            id: None,
        },
    }
}

/// What picking nothing means: a new session (`--resume` at start-up) or the running one goes on (`/resume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickFor {
    Start,
    Switch,
}

/// Shows this project's sessions and reads a choice; `None` when there are none or the user cancelled.
pub fn pick(config: &Config, lang: Lang, pick_for: PickFor, say: &dyn Fn(&str)) -> Option<String> {
    let summaries = SessionStore::new(&config.home).summaries(&config.project_root, PICKER_LIMIT);
    if summaries.is_empty() {
        say(texts::no_sessions(lang, pick_for));
        return None;
    }
    say(texts::picker_heading(lang));
    for line in summary_lines(lang, &summaries, None) {
        say(&line);
    }
    let answer = read_answer(texts::picker_prompt(lang, pick_for))?;
    match parse_choice(&answer, summaries.len()) {
        Some(n) => Some(summaries[n].id.clone()),
        None => {
            if !answer.trim().is_empty() {
                say(texts::not_a_choice(lang, pick_for));
            }
            None
        }
    }
}

/// What the user is told about a started session.
pub fn started_lines(lang: Lang, started: &Started) -> Vec<String> {
    let mut lines: Vec<String> = started
        .notices
        .iter()
        .map(|n| start_notice_text(lang, n))
        .collect();
    if let Some(resumed) = &started.resumed {
        lines.push(resumed_text(lang, &started.id, resumed));
    }
    lines
}

#[cfg(test)]
mod tests;
