//! `/sessions`, `/resume [id]`, `/fork` and `/history clear`: this project's recorded sessions.

use super::Flow;
use crate::app::sessions::{ResumeFrom, StartOptions};
use crate::session::ledger::SessionStore;
use crate::ui::repl::Session;
use crate::ui::sessions::{self as ui_sessions, PICKER_LIMIT, read_answer, summary_lines};

pub(super) fn sessions(session: &mut Session, _args: &str) -> Flow {
    let store = SessionStore::new(&session.config.home);
    let summaries = store.summaries(&session.config.project_root, PICKER_LIMIT);
    if summaries.is_empty() {
        session.say(ui_sessions::no_project_sessions(session.lang));
        return Flow::Continue;
    }
    let style = session.surface().style;
    let mut lines = vec![style.bold(ui_sessions::picker_heading(session.lang))];
    lines.extend(summary_lines(session.lang, &summaries, Some(session.id())));
    session.say(&lines.join("\n"));
    Flow::Continue
}

pub(super) fn resume(session: &mut Session, args: &str) -> Flow {
    let lang = session.lang;
    let id = if args.is_empty() {
        let say = |line: &str| session.say(line);
        match ui_sessions::pick(&session.config, lang, ui_sessions::PickFor::Switch, &say) {
            Some(id) => id,
            None => return Flow::Continue,
        }
    } else {
        args.to_string()
    };
    let options = StartOptions {
        resume: Some(ResumeFrom::Id(id)),
        fork: false,
        id: None,
    };
    match session.resume(&options) {
        Ok(started) => {
            let lines = ui_sessions::started_lines(lang, started);
            for line in lines {
                session.say(&line);
            }
        }
        Err(e) => session.say_error(&ui_sessions::start_error_text(lang, &e)),
    }
    Flow::Continue
}

pub(super) fn fork(session: &mut Session, _args: &str) -> Flow {
    let from = session.id().to_string();
    let lang = session.lang;
    match session.fork() {
        Ok(id) => {
            let text = ui_sessions::forked_text(lang, &from, id);
            session.say(&text);
        }
        Err(e) => session.say_error(&ui_sessions::start_error_text(session.lang, &e)),
    }
    Flow::Continue
}

/// `/history clear` deletes this project's recorded sessions (the ledgers `/resume` reads) after a y/N question;
/// the running session's ledger is kept. The line editor's input history is not touched.
pub(super) fn history(session: &mut Session, args: &str) -> Flow {
    let lang = session.lang;
    if args != "clear" {
        session.say_error(ui_sessions::history_usage(lang));
        return Flow::Continue;
    }
    let store = SessionStore::new(&session.config.home);
    let keep = session.agent_mut().ledger().map(|l| l.path());
    let root = &session.config.project_root;
    let others = store
        .for_project(root)
        .into_iter()
        .filter(|s| Some(&s.path) != keep.as_ref())
        .count();
    if others == 0 {
        session.say(ui_sessions::no_project_sessions(lang));
        return Flow::Continue;
    }
    let answer = read_answer(&ui_sessions::history_clear_question(lang, others));
    if !matches!(
        answer.as_deref().map(str::trim),
        Some("y" | "Y" | "yes" | "YES")
    ) {
        session.say(ui_sessions::nothing_deleted(lang));
        return Flow::Continue;
    }
    let removed = store.remove_project(root, keep.as_deref());
    session.say(&ui_sessions::history_cleared(lang, removed));
    Flow::Continue
}
