//! `/config`, `/context`, `/cost`: read-only views of the session.

use super::Flow;
use crate::config::{describe_config, settings};
use crate::llm::Role;
use crate::llm::providers::price_of;
use crate::llm::tokens::ContextEstimate;
use crate::ui::i18n::{Msg, refused_setting};
use crate::ui::render::format_count;
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
    let agent = &session.agent;
    let messages = agent
        .history()
        .iter()
        .skip(1)
        .filter(|m| m.role != Role::System)
        .count();
    let view = ContextView {
        heading: session.tr(Msg::ContextHeading),
        model: &session.provider.model,
        window: agent.context_window(),
        estimate: agent.context_estimate(),
        tools: agent.tool_specs().len(),
        messages,
    };
    session.say(&context_lines(&view).join("\n"));
    Flow::Continue
}

/// What `/context` reports.
struct ContextView<'a> {
    heading: &'a str,
    model: &'a str,
    window: u64,
    /// The same estimate the status line shows as `ctx N%`.
    estimate: ContextEstimate,
    tools: usize,
    messages: usize,
}

fn context_lines(v: &ContextView<'_>) -> Vec<String> {
    let pct = |n: u64| {
        if v.window == 0 {
            0.0
        } else {
            n as f64 * 100.0 / v.window as f64
        }
    };
    let row =
        |label: &str, n: u64| format!("  {label:<10} {:>8}  {:>5.1}%", format_count(n), pct(n));
    let e = &v.estimate;
    vec![
        format!("{} · {} {}", v.heading, v.model, format_count(v.window)),
        row("system", e.system),
        row("tools", e.tools) + &format!("  ({} tools)", v.tools),
        row("history", e.history) + &format!("  ({} messages)", v.messages),
        row("total", e.total()),
    ]
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::llm::tokens::estimate_request;
    use crate::llm::{Message, ToolSpec, Usage};
    use crate::ui::render::{StatusInfo, Style, status_line};

    #[test]
    fn context_and_the_status_line_report_the_request_estimate() {
        let history = [
            Message::system("you are paicli"),
            Message::user("看看 src/main.rs"),
            Message::assistant("it parses flags ".repeat(300)),
        ];
        let tools = [ToolSpec {
            name: "read_file".into(),
            description: "Reads a file".into(),
            parameters: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }];
        let estimate = ContextEstimate::of(&history, &tools);
        let total = estimate_request(&history, &tools);
        assert_eq!(estimate.total(), total);
        let window = 4_000;
        let lines = context_lines(&ContextView {
            heading: "Context",
            model: "m",
            window,
            estimate,
            tools: 1,
            messages: 2,
        });
        let pct = total as f64 * 100.0 / window as f64;
        assert_eq!(
            lines[4],
            format!("  total      {:>8}  {pct:>5.1}%", format_count(total))
        );
        let status = status_line(
            &StatusInfo {
                model: "m".into(),
                context: Some((estimate.total(), window)),
                turn: Usage::default(),
                session: Usage::default(),
                price: None,
                elapsed: Duration::ZERO,
                mode: None,
            },
            Style::new(false),
        );
        assert!(
            status.contains(&format!("ctx {}%", total * 100 / window)),
            "{status}"
        );
    }
}
