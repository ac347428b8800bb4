//! `/help`, `/exit`, `/clear`, `/cancel`, `/init`.

use super::help::{custom_help_lines, help_lines};
use super::{Flow, say_wrapped};
use crate::text::Msg;
use crate::ui::repl::Session;

/// The task `/init` gives the agent.
pub const INIT_PROMPT: &str = "\
Create a PAI.md file at the project root that helps a coding agent work in this project. Explore first (list the \
root, read the build files, README and main entry points), then write PAI.md with write_file. Keep it under 80 \
lines with these sections: Overview (what the project is, main languages and frameworks); Layout (key directories \
and files); Build, test and run (exact commands); Conventions (code style, naming, error handling, testing \
patterns you observed); Pitfalls (anything surprising). Only state what you verified in the files.";

pub(super) fn help(session: &mut Session, _args: &str) -> Flow {
    let surface = session.surface();
    let mut lines = help_lines(session.lang, surface.width, surface.style);
    if !session.custom_commands.is_empty() {
        let custom = session.custom_commands.help_rows(session.lang);
        lines.extend(custom_help_lines(
            &custom,
            session.lang,
            surface.width,
            surface.style,
        ));
    }
    session.say(&lines.join("\n"));
    Flow::Continue
}

pub(super) fn exit(_session: &mut Session, _args: &str) -> Flow {
    Flow::Exit
}

pub(super) fn clear(session: &mut Session, _args: &str) -> Flow {
    session.clear_history();
    say_wrapped(session, session.tr(Msg::HistoryCleared));
    Flow::Continue
}

/// Between tasks there is nothing to cancel; during a task ESC and Ctrl-C cancel it.
pub(super) fn cancel(session: &mut Session, _args: &str) -> Flow {
    say_wrapped(session, session.tr(Msg::NoRunningTask));
    Flow::Continue
}

pub(super) fn init(session: &mut Session, args: &str) -> Flow {
    let force = args.split_whitespace().any(|a| a == "--force" || a == "-f");
    if !force && session.config.project_root.join("PAI.md").exists() {
        say_wrapped(session, session.tr(Msg::InitExists));
        return Flow::Continue;
    }
    let found: Vec<String> = crate::agent::context::prompt::project_instructions(
        &session.config.project_root,
        &session.config.home,
        // Said once at start-up already.
        &mut Vec::new(),
    )
    .into_iter()
    .map(|(label, _)| label)
    .collect();
    let note = if found.is_empty() {
        session.tr(Msg::InitFoundNone).to_string()
    } else {
        crate::text::trf(
            session.lang,
            Msg::InitFound,
            &[("files", &found.join(", "))],
        )
    };
    say_wrapped(session, &note);
    Flow::RunTask(init_prompt(&found))
}

/// The `/init` task; instruction files already there are named so the new PAI.md builds on them.
fn init_prompt(found: &[String]) -> String {
    if found.is_empty() {
        return INIT_PROMPT.to_string();
    }
    format!(
        "{INIT_PROMPT} The project already has these instruction files, which you see in your instructions: {}. \
         Keep what is still true in them and do not repeat them word for word.",
        found.join(", ")
    )
}
