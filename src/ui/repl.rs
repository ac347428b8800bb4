//! `paicli` with no task: the interactive loop. Reads a line, runs slash commands from the table in
//! [`crate::ui::commands`], and everything else as a task through the agent.

mod editor;
mod expand_key;
mod history;
mod live_approver;
mod mention_complete;
mod mode_key;
mod paste_fold;
mod paste_key;
mod rewind_key;
mod session;

use std::path::PathBuf;

use rustyline::error::ReadlineError;

use crate::config::{Config, Overrides};
use crate::text::Msg;
use crate::ui::commands::{self, Flow};
use crate::ui::sessions::Launch;

pub use crate::app::mentions::{Expanded, expand_mentions};
pub use editor::{complete_command, complete_path, join_continuations};
pub use history::{looks_secret, should_save};
pub use live_approver::{HiddenLive, LiveSlot};
pub use session::{Session, SessionError};

/// The prompt shown before each input line.
pub const PROMPT: &str = "› ";

/// How long the prompt waits for the person before `Notification` hooks hear `idle_prompt` (Claude Code's 60 s).
const IDLE_PROMPT_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs the REPL until the user quits. Returns the process exit code.
pub fn run(
    config: Config,
    overrides: Overrides,
    launch: Launch,
    first_task: Option<String>,
) -> Result<i32, SessionError> {
    let mut session = Session::new(config, overrides, launch)?;
    print_banner(&session);
    // `paicli "task"`: sent as if typed at the first prompt.
    if let Some(task) = first_task {
        session.type_ahead().queue(task);
    }
    let mut editor = editor::build_editor(&session.config.project_root, session.lang)?;
    if let Some(helper) = editor.helper_mut() {
        helper.set_custom_commands(session.custom_commands.help_rows(session.lang));
        helper.mcp = Some(session.services.mcp.clone());
    }
    expand_key::bind_expand_key(
        &mut editor,
        session.expandable(),
        session.lang,
        session.surface().style,
    );
    paste_key::bind_paste_key(
        &mut editor,
        session.config.project_root.clone(),
        session.lang,
        session.surface().style,
    );
    let history_path = session.config.home.join("history");
    if history_path.exists() {
        let _ = editor.load_history(&history_path);
    }
    let mut ctrl_c_armed = false;
    // The line being edited when Shift+Tab was pressed, and the cursor, to put back after the mode switch.
    let mut resume: Option<(String, usize)> = None;
    loop {
        let prompt = commands::prompt_for(session.plans.next_input, session.lang);
        let read = if let Some(queued) = session.type_ahead().pop_queued() {
            // Sent with Enter while the last task ran: it goes now, shown as if typed at the prompt.
            session.say(&format!("{prompt}{queued}"));
            Ok(queued)
        } else {
            // Dropped once the person has entered something, before it is due.
            let _idle = session
                .services
                .hooks
                .notify_when_idle(session.runtime.handle(), IDLE_PROMPT_AFTER);
            match resume.take() {
                Some((line, pos)) => {
                    editor.readline_with_initial(&prompt, mode_key::split_at_cursor(&line, pos))
                }
                None => {
                    // Typed while the last task ran, without Enter: back in the line, to finish or change.
                    let typed = session.type_ahead().take_line();
                    if typed.is_empty() {
                        editor.readline(&prompt)
                    } else {
                        editor.readline_with_initial(&prompt, (&typed, ""))
                    }
                }
            }
        };
        if let Ok(line) = &read
            && let Some(pos) = editor.helper().and_then(|h| h.mode_key.take())
        {
            commands::cycle_mode(&mut session);
            resume = Some((line.clone(), pos));
            continue;
        }
        let line = match read {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => {
                if ctrl_c_armed {
                    break;
                }
                ctrl_c_armed = true;
                session.say_dim(session.tr(Msg::PressCtrlCAgain));
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        ctrl_c_armed = false;
        // Long pastes were shown folded: the text goes in their place.
        let line = match editor.helper() {
            Some(helper) => helper.paste_fold.unfold(&line),
            None => line,
        };
        if editor.helper().is_some_and(|h| h.rewind_key.take()) {
            commands::dispatch(&mut session, "/rewind");
            continue;
        }
        let input = editor::join_continuations(&line);
        if input.trim().is_empty() {
            continue;
        }
        remember(&mut editor, &history_path, &input);
        // `!command`: the person's own shell command, as in Claude Code's bash mode.
        if let Some(command) = input.trim_start().strip_prefix('!') {
            match command.trim() {
                "" => session.say_error(session.tr(Msg::ShellUsage)),
                command => session.run_shell(command),
            }
            continue;
        }
        let flow = match commands::dispatch(&mut session, input.trim()) {
            Some(flow) => flow,
            None => {
                session.submit(&input);
                Flow::Continue
            }
        };
        match flow {
            Flow::Continue => {}
            Flow::Exit => break,
            Flow::RunTask(prompt) => {
                session.run_task(&prompt);
            }
            Flow::SendAsUser(text) => {
                session.submit(&text);
            }
        }
    }
    session.shutdown();
    let style = session.surface().style;
    if has_content(&mut session) {
        let hint = crate::text::trf(session.lang, Msg::ResumeHint, &[("id", &session.id())]);
        session.say_fitted(&hint, 2, |l| style.dim(l));
    }
    session.say(&style.dim(session.tr(Msg::Bye)));
    Ok(0)
}

/// Whether the session recorded a conversation worth coming back to.
fn has_content(session: &mut Session) -> bool {
    let agent = session.agent_mut();
    agent.ledger().is_some() && !agent.conversation().turn_starts().is_empty()
}

fn print_banner(session: &Session) {
    let style = session.surface().style;
    let p = &session.provider;
    // Wrapped before the name is made bold, so its colour codes take no width.
    let banner = format!(
        "paicli {} · {}/{} · {}",
        env!("CARGO_PKG_VERSION"),
        p.id,
        p.model,
        session.config.project_root.display()
    );
    session.say_fitted(&banner, 2, |l| match l.strip_prefix("paicli") {
        Some(rest) => format!("{}{rest}", style.bold("paicli")),
        None => l.to_string(),
    });
    // What runs without asking is the first thing to know about a session; `full` is said as loudly as `/mode full`.
    let mode = session.approval_mode();
    session.say_dim(&commands::mode_line(mode, session.lang));
    if mode == crate::config::ApprovalMode::Full {
        session.say_notice(session.tr(Msg::ModeFullWarning));
    }
    for refused in &session.config.refused {
        let notice = crate::text::refused_setting(session.lang, refused);
        session.say_notice(&notice);
    }
    for file in session.file_notices() {
        session.say_notice(&crate::text::file_notice(session.lang, &file));
    }
    for notice in startup_skill_notices(session) {
        session.say_notice(&notice);
    }
    let sandbox = crate::app::build_sandbox(&session.config);
    for shortfall in sandbox.notices(&session.config.project_root, Some(&session.config.home)) {
        let notice = crate::text::sandbox_shortfall(session.lang, &shortfall);
        session.say_notice(&notice);
    }
    // The built-in browser server starts on first use: it is not "not ready".
    let mut servers = session.services.mcp.status();
    servers.retain(|s| s.state != crate::mcp::ServerState::OnDemand);
    if !servers.is_empty() {
        let ready = servers
            .iter()
            .filter(|s| s.state == crate::mcp::ServerState::Ready)
            .count();
        session.say_dim(&crate::text::trf(
            session.lang,
            Msg::McpReadyCount,
            &[("ready", &ready), ("total", &servers.len())],
        ));
    }
    session.say_dim(session.tr(Msg::Tip));
}

/// One warning per skipped skill and per ignored command file, shown once at start-up.
fn startup_skill_notices(session: &Session) -> Vec<String> {
    use crate::text::trf;
    use crate::ui::commands::custom::Ignored;
    let lang = session.lang;
    let mut out: Vec<String> = session
        .services
        .skills
        .snapshot()
        .skipped
        .iter()
        .map(|s| {
            trf(
                lang,
                Msg::SkillSkippedNotice,
                &[("path", &s.path.display()), ("problem", &s.problem)],
            )
        })
        .collect();
    for ignored in &session.custom_commands.ignored {
        out.push(match ignored {
            Ignored::Shadows { path, name } => trf(
                lang,
                Msg::CustomCommandShadows,
                &[("path", &path.display()), ("name", name)],
            ),
            Ignored::Broken { path, problem } => trf(
                lang,
                Msg::CustomCommandSkipped,
                &[("path", &path.display()), ("problem", problem)],
            ),
        });
    }
    out
}

/// Adds `input` to the in-memory history, and to the file when it holds no secret and is not too long.
fn remember(editor: &mut editor::LineEditor, path: &PathBuf, input: &str) {
    if !history::should_save(input) {
        return;
    }
    let _ = editor.add_history_entry(input);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if editor.append_history(path).is_ok() {
        restrict_permissions(path);
    }
}

#[cfg(unix)]
fn restrict_permissions(path: &PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
}

#[cfg(not(unix))]
fn restrict_permissions(_path: &PathBuf) {}
