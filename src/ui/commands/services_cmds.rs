//! `/mcp` and `/lsp`: the background services of the session. `/compact` lives here too: it is the one command
//! that calls the model outside a task.

use super::Flow;
use crate::mcp::{Origin, ServerState, ServerStatus};
use crate::ui::i18n::Msg;
use crate::ui::repl::Session;

const MCP_USAGE: &str =
    "usage: /mcp [logs|approve|restart|disable|enable|resources|prompts <name>]";

/// One `/mcp` line: name, where it is configured, its state and tool count, and what to do about it.
pub fn mcp_line(s: &ServerStatus) -> String {
    let origin = match s.origin {
        Origin::User => "user",
        Origin::Project => "project",
    };
    let tools = if s.tools == 1 { "tool" } else { "tools" };
    let mut line = format!(
        "  {:<16} {:<8} {:<15} {} {tools}",
        s.name,
        origin,
        s.state.label(),
        s.tools
    );
    match &s.state {
        ServerState::Failed(reason) => {
            let first = reason.lines().next().unwrap_or_default();
            line.push_str(&format!(" — {first} (/mcp logs {})", s.name));
        }
        ServerState::NeedsApproval { command_line } => {
            line.push_str(&format!(
                " — runs `{command_line}`; /mcp approve {}",
                s.name
            ));
        }
        _ => {}
    }
    line
}

pub(super) fn mcp(session: &mut Session, args: &str) -> Flow {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mcp = &session.services.mcp;
    match words.as_slice() {
        [] => {
            let statuses = mcp.status();
            if statuses.is_empty() {
                session.say(session.tr(Msg::McpNone));
            } else {
                let lines: Vec<String> = statuses.iter().map(mcp_line).collect();
                session.say(&lines.join("\n"));
            }
            for notice in mcp.take_notices() {
                session.say(&session.surface().style.yellow(&format!("! {notice}")));
            }
        }
        ["logs", name] => match mcp.logs(name) {
            Some(lines) if lines.is_empty() => {
                session.say(&format!("{} {name}", session.tr(Msg::McpNoLogs)));
            }
            Some(lines) => session.say(&lines.join("\n")),
            None => session.say_error(&format!("no MCP server named `{name}`")),
        },
        ["approve", name] => {
            // Starting spawns onto the runtime.
            let result = {
                let _inside = session.runtime.enter();
                mcp.approve(name)
            };
            match result {
                Ok(()) => session.say(&format!("{name}: {}", session.tr(Msg::McpApproved))),
                Err(e) => session.say_error(&e),
            }
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
                session.say(&format!("{name}: {}", session.tr(Msg::McpNoResources)));
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
                session.say(&lines.join("\n"));
            }
            Err(e) => session.say_error(&e),
        },
        ["prompts", name] => match session.runtime.block_on(mcp.prompts(name)) {
            Ok(list) if list.is_empty() => {
                session.say(&format!("{name}: {}", session.tr(Msg::McpNoPrompts)));
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
                session.say(&lines.join("\n"));
            }
            Err(e) => session.say_error(&e),
        },
        _ => session.say_error(MCP_USAGE),
    }
    Flow::Continue
}

/// Says `done` for `name`, or the error.
fn report(session: &Session, name: &str, result: Result<(), String>, done: Msg) {
    match result {
        Ok(()) => session.say(&format!("{name}: {}", session.tr(done))),
        Err(e) => session.say_error(&e),
    }
}

pub(super) fn lsp(session: &mut Session, _args: &str) -> Flow {
    match &session.services.lsp {
        Some(lsp) => session.say(&lsp.status().to_string()),
        None => session.say(session.tr(Msg::DiagnosticsOff)),
    }
    Flow::Continue
}

pub(super) fn compact(session: &mut Session, args: &str) -> Flow {
    let focus = (!args.is_empty()).then_some(args);
    if let Err(e) = session.compact_history(focus) {
        session.say(&format!("{}: {e}", session.tr(Msg::NothingCompacted)));
    }
    Flow::Continue
}
