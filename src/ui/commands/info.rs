//! `/config`, `/context`, `/cost`: read-only views of the session.

use super::Flow;
use crate::config::{describe_config, settings};
use crate::llm::Role;
use crate::llm::providers::price_of;
use crate::ui::i18n::{Msg, refused_setting};
use crate::ui::render::{estimate_message_tokens, format_count};
use crate::ui::repl::Session;

/// `/config [filter]`: every setting, or those whose key contains `filter` with their documentation line.
pub(super) fn config(session: &mut Session, args: &str) -> Flow {
    let style = session.surface().style;
    let mut entries = describe_config(&session.config, &session.overrides);
    entries.retain(|e| e.key.contains(args));
    // The session may have switched model since start-up.
    for e in &mut entries {
        match e.key.as_str() {
            "llm.provider" if e.value != session.provider.id => {
                e.value.clone_from(&session.provider.id);
                e.source = "/model (this session)".to_string();
            }
            "llm.model" if e.value != session.provider.model => {
                e.value.clone_from(&session.provider.model);
                e.source = "/model (this session)".to_string();
            }
            _ => {}
        }
    }
    let width = entries.iter().map(|e| e.key.len()).max().unwrap_or(0);
    let lines: Vec<String> = entries
        .iter()
        .map(|e| {
            let source = if e.source.is_empty() {
                String::new()
            } else {
                style.dim(&format!("  ({})", e.source))
            };
            let doc = settings::find(&e.key)
                .or_else(|| settings::for_file_key(&e.key))
                .filter(|_| !args.is_empty())
                .map(|row| style.dim(&format!("\n{:width$}   {}", "", row.doc)))
                .unwrap_or_default();
            format!("{:width$} = {}{source}{doc}", e.key, e.value)
        })
        .collect();
    session.say(&lines.join("\n"));
    for refused in &session.config.refused {
        let notice = refused_setting(session.lang, refused);
        session.say(&style.yellow(&format!("! {notice}")));
    }
    Flow::Continue
}

pub(super) fn context(session: &mut Session, _args: &str) -> Flow {
    let history = session.agent.history();
    let system = history.first().map_or(0, estimate_message_tokens);
    let tools = session.tool_tokens();
    let conversation: u64 = history.iter().skip(1).map(estimate_message_tokens).sum();
    let messages = history
        .iter()
        .skip(1)
        .filter(|m| m.role != Role::System)
        .count();
    let total = system + tools + conversation;
    let window = session.provider.context_window;
    let pct = |n: u64| {
        if window == 0 {
            0.0
        } else {
            n as f64 * 100.0 / window as f64
        }
    };
    let row =
        |label: &str, n: u64| format!("  {label:<10} {:>8}  {:>5.1}%", format_count(n), pct(n));
    let lines = [
        format!(
            "{} · {} {}",
            session.tr(Msg::ContextHeading),
            session.provider.model,
            format_count(window)
        ),
        row("system", system),
        row("tools", tools) + &format!("  ({} tools)", session.agent.tool_specs().len()),
        row("history", conversation) + &format!("  ({messages} messages)"),
        row("total", total),
    ];
    session.say(&lines.join("\n"));
    Flow::Continue
}

pub(super) fn cost(session: &mut Session, _args: &str) -> Flow {
    let u = session.agent.session_usage();
    let mut lines = vec![format!(
        "session: {} turns, {} requests · in {} · out {} · cached {} · reasoning {}",
        session.turns,
        session.requests,
        u.prompt_tokens,
        u.completion_tokens,
        u.cached_tokens,
        u.reasoning_tokens
    )];
    match price_of(&session.provider.id, &session.provider.model) {
        Some(price) => lines.push(format!(
            "estimated cost: {}{:.4}",
            price.currency,
            price.cost(u.prompt_tokens, u.completion_tokens, u.cached_tokens)
        )),
        None => lines.push(session.tr(Msg::CostUnknown).to_string()),
    }
    session.say(&lines.join("\n"));
    Flow::Continue
}
