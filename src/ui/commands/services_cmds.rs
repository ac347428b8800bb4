//! `/mcp` and `/lsp`: the background services of the session. `/compact` lives here too: it is the one command
//! that calls the model outside a task.

use super::lsp_view::lsp_lines;
use super::{Flow, say_error, say_wrapped};

use crate::mcp::{Origin, ServerState, ServerStatus};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::mcp_login::{self, Action};
use crate::ui::render::visible_width;
use crate::ui::repl::Session;

/// `text` padded with spaces to `cells` terminal cells (CJK counts double).
fn pad(text: &str, cells: usize) -> String {
    format!(
        "{text}{}",
        " ".repeat(cells.saturating_sub(visible_width(text)))
    )
}

/// One `/mcp` line: name, where it is configured, its state and tool count, and what to do about it.
pub fn mcp_line(s: &ServerStatus, lang: Lang) -> String {
    let origin = match s.origin {
        Origin::User => Msg::McpOriginUser,
        Origin::Project => Msg::McpOriginProject,
    };
    let state = match &s.state {
        ServerState::OnDemand => Msg::McpStateOnDemand,
        ServerState::Starting => Msg::McpStarting,
        ServerState::Ready => Msg::McpReady,
        ServerState::Failed(_) => Msg::McpFailed,
        ServerState::Disabled => Msg::McpStateDisabled,
        ServerState::NeedsApproval { .. } => Msg::McpNeedsApproval,
        ServerState::NeedsLogin => Msg::McpStateNeedsLogin,
    };
    let tools = if s.tools == 1 {
        Msg::McpOneTool
    } else {
        Msg::McpTools
    };
    let mut line = format!(
        "  {} {} {} {}",
        pad(&s.name, 16),
        pad(tr(lang, origin), 8),
        pad(tr(lang, state), 15),
        trf(lang, tools, &[("count", &s.tools)])
    );
    match &s.state {
        ServerState::Failed(reason) => {
            let first = reason.lines().next().unwrap_or_default();
            let hint = trf(
                lang,
                Msg::McpSeeLogs,
                &[("reason", &first), ("name", &s.name)],
            );
            line.push_str(&format!(" — {hint}"));
        }
        ServerState::NeedsApproval { command_line } => {
            let hint = trf(
                lang,
                Msg::McpApproveHint,
                &[("command", command_line), ("name", &s.name)],
            );
            line.push_str(&format!(" — {hint}"));
        }
        ServerState::NeedsLogin => {
            let hint = trf(lang, Msg::McpLoginHint, &[("name", &s.name)]);
            line.push_str(&format!(" — {hint}"));
        }
        ServerState::Ready => {
            // A revision date next to a name: the same in every language.
            if let Some(version) = &s.protocol_version {
                line.push_str(&format!(" · MCP {version}"));
            }
        }
        _ => {}
    }
    line
}

/// Says what the MCP manager reported (its English sentence names the server), in a translated frame.
fn server_failed(session: &Session, error: &str) {
    say_error(
        session,
        &trf(session.lang, Msg::McpServerError, &[("error", &error)]),
    );
}

pub(super) fn mcp(session: &mut Session, args: &str) -> Flow {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mcp = &session.services.mcp;
    match words.as_slice() {
        [] => {
            let statuses = mcp.status();
            if statuses.is_empty() {
                say_wrapped(session, session.tr(Msg::McpNone));
            } else {
                let lines: Vec<String> =
                    statuses.iter().map(|s| mcp_line(s, session.lang)).collect();
                // One line per server, however long: people and tests look a server up by its line.
                session.say(&lines.join("\n"));
            }
            for notice in mcp.take_notices() {
                let text = crate::text::notice_text(session.lang, &notice);
                session.say_notice(&text);
            }
        }
        ["logs", name] => match mcp.logs(name) {
            Some(lines) if lines.is_empty() => {
                say_wrapped(session, &format!("{} {name}", session.tr(Msg::McpNoLogs)));
            }
            Some(lines) => say_wrapped(session, &lines.join("\n")),
            None => say_error(
                session,
                &trf(session.lang, Msg::McpNoServer, &[("name", name)]),
            ),
        },
        ["approve", name] => {
            // Starting spawns onto the runtime.
            let result = {
                let _inside = session.runtime.enter();
                mcp.approve(name)
            };
            match result {
                Ok(()) => say_wrapped(
                    session,
                    &format!("{name}: {}", session.tr(Msg::McpApproved)),
                ),
                Err(e) => server_failed(session, &e),
            }
        }
        [action @ ("login" | "logout"), name] => {
            let action = if *action == "login" {
                Action::Login
            } else {
                Action::Logout
            };
            login_action(session, action, name);
        }
        ["restart", name] => {
            let result = session.runtime.block_on(mcp.restart(name));
            report(session, name, result, Msg::McpRestarting);
        }
        ["disable", name] => {
            let result = session.runtime.block_on(mcp.disable(name));
            report(session, name, result, Msg::McpDisabled);
        }
        ["enable", name] => {
            // Starting spawns onto the runtime.
            let result = {
                let _inside = session.runtime.enter();
                mcp.enable(name)
            };
            report(session, name, result, Msg::McpEnabling);
        }
        ["resources", name] => match session.runtime.block_on(mcp.resources(name)) {
            Ok(list) if list.is_empty() => {
                say_wrapped(
                    session,
                    &format!("{name}: {}", session.tr(Msg::McpNoResources)),
                );
            }
            Ok(list) => {
                let lines: Vec<String> = list
                    .iter()
                    .map(|r| {
                        let mut line = format!("@{name}:{}  {}", r.uri, r.name);
                        if let Some(d) = r.description.as_deref().filter(|d| !d.is_empty()) {
                            line.push_str(&format!(" — {d}"));
                        }
                        line
                    })
                    .collect();
                say_wrapped(session, &lines.join("\n"));
            }
            Err(e) => server_failed(session, &e),
        },
        ["prompts", name] => match session.runtime.block_on(mcp.prompts(name)) {
            Ok(list) if list.is_empty() => {
                say_wrapped(
                    session,
                    &format!("{name}: {}", session.tr(Msg::McpNoPrompts)),
                );
            }
            Ok(list) => {
                let lines: Vec<String> = list
                    .iter()
                    .map(|p| {
                        let mut line = format!("{}({})", p.name, p.arguments.join(", "));
                        if let Some(d) = p.description.as_deref().filter(|d| !d.is_empty()) {
                            line.push_str(&format!(" — {d}"));
                        }
                        line
                    })
                    .collect();
                say_wrapped(session, &lines.join("\n"));
            }
            Err(e) => server_failed(session, &e),
        },
        _ => say_error(session, session.tr(Msg::McpUsage)),
    }
    Flow::Continue
}

/// Says `done` for `name`, or the error.
/// `/mcp login|logout <name>`: the browser step runs like a task (ESC or Ctrl-C stops it); after a login the
/// server is restarted so it connects with its new tokens.
fn login_action(session: &mut Session, action: Action, name: &str) {
    let lang = session.lang;
    let config = &session.config;
    let ok = session.block_on_cancellable(|cancel| async move {
        // Raw mode is on while keys are read: lines need a carriage return.
        let say = |line: &str| {
            let text = line.replace('\n', "\r\n");
            print!("{text}\r\n");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        };
        mcp_login::run(config, lang, action, name, &cancel, &say).await
    });
    if ok && action == Action::Login && session.services.mcp.has_server(name) {
        let result = session.runtime.block_on(session.services.mcp.restart(name));
        report(session, name, result, Msg::McpRestarting);
    }
}

fn report(session: &Session, name: &str, result: Result<(), String>, done: Msg) {
    match result {
        Ok(()) => say_wrapped(session, &format!("{name}: {}", session.tr(done))),
        Err(e) => server_failed(session, &e),
    }
}

pub(super) fn lsp(session: &mut Session, _args: &str) -> Flow {
    match &session.services.lsp {
        Some(lsp) => say_wrapped(session, &lsp_lines(&lsp.status(), session.lang).join("\n")),
        None => say_wrapped(session, session.tr(Msg::DiagnosticsOff)),
    }
    Flow::Continue
}

pub(super) fn compact(session: &mut Session, args: &str) -> Flow {
    let focus = (!args.is_empty()).then_some(args);
    if let Err(e) = session.compact_history(focus) {
        say_wrapped(
            session,
            &format!("{}: {e}", session.tr(Msg::NothingCompacted)),
        );
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(state: ServerState, tools: usize) -> ServerStatus {
        ServerStatus {
            name: "fs".into(),
            origin: Origin::Project,
            state,
            tools,
            resources: false,
            tool_loads: 1,
            protocol_version: None,
        }
    }

    #[test]
    fn mcp_lines_speak_both_languages_and_stay_aligned() {
        let ready = status(ServerState::Ready, 1);
        assert_eq!(
            mcp_line(&ready, Lang::En),
            "  fs               project  ready           1 tool"
        );
        assert_eq!(
            mcp_line(&ready, Lang::Zh),
            "  fs               项目     就绪            1 个工具"
        );
        let waiting = status(
            ServerState::NeedsApproval {
                command_line: "npx srv".into(),
            },
            0,
        );
        let zh = mcp_line(&waiting, Lang::Zh);
        assert!(
            zh.ends_with("待批准          0 个工具 — 将运行 `npx srv`；/mcp approve fs"),
            "{zh}"
        );
        // The tool count starts in the same cell in both languages.
        let at = |line: &str| {
            visible_width(&line[..line.find(|c: char| c.is_ascii_digit()).unwrap_or(0)])
        };
        assert_eq!(
            at(&mcp_line(&ready, Lang::En)),
            at(&mcp_line(&ready, Lang::Zh))
        );
    }
}
