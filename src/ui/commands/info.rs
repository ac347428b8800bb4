//! `/config`, `/context`, `/cost`: read-only views of the session.

use super::{Flow, say_wrapped};
use crate::config::{describe_config, settings};
use crate::llm::providers::{CostSource, Price, cost_of, price_of, prices_as_of};
use crate::llm::tokens::ContextEstimate;
use crate::llm::{Role, Usage};
use crate::session::ModelKey;
use crate::text::{Lang, Msg, refused_setting, tr, trf};
use crate::ui::render::{Surface, format_count, visible_width, wrap, wrap_hanging};
use crate::ui::repl::Session;

/// `/config [filter]`: every setting, or those whose key contains `filter` with their documentation line.
pub(super) fn config(session: &mut Session, args: &str) -> Flow {
    let Surface {
        style,
        width: columns,
        ..
    } = session.surface();
    let mut entries = describe_config(&session.config, &session.overrides);
    entries.retain(|e| e.key.contains(args));
    // The session may have switched model since start-up.
    for e in &mut entries {
        match e.key.as_str() {
            "llm.provider" if e.value != session.provider.id => {
                e.value.clone_from(&session.provider.id);
                e.source = session.tr(Msg::ConfigThisSession).to_string();
            }
            "llm.model" if e.value != session.provider.model => {
                e.value.clone_from(&session.provider.model);
                e.source = session.tr(Msg::ConfigThisSession).to_string();
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
            // With a filter each key's documentation follows, wrapped under the value column.
            let doc = settings::find(&e.key)
                .or_else(|| settings::for_file_key(&e.key))
                .filter(|_| !args.is_empty())
                .map(|row| {
                    let indent = " ".repeat(width + 3);
                    wrap(&row.info().doc_text(), columns.saturating_sub(width + 3))
                        .iter()
                        .map(|l| format!("\n{indent}{}", style.dim(l)))
                        .collect::<String>()
                })
                .unwrap_or_default();
            format!("{:width$} = {}{source}{doc}", e.key, e.value)
        })
        .collect();
    session.say(&lines.join("\n"));
    if "sandbox".contains(args) || args.contains("sandbox") {
        session.say(&super::sandbox_view::sandbox_lines(session).join("\n"));
    }
    for refused in &session.config.refused {
        let notice = format!("! {}", refused_setting(session.lang, refused));
        let lines: Vec<String> = wrap_hanging(&notice, columns, 2)
            .iter()
            .map(|l| style.yellow(l))
            .collect();
        session.say(&lines.join("\n"));
    }
    Flow::Continue
}

pub(super) fn context(session: &mut Session, _args: &str) -> Flow {
    let agent = session.agent_mut();
    let messages = agent
        .history()
        .iter()
        .skip(1)
        .filter(|m| m.role != Role::System)
        .count();
    let (window, estimate) = (agent.context_window(), agent.context_estimate());
    let (tools, thresholds) = (agent.tool_specs().len(), agent.thresholds());
    let view = ContextView {
        lang: session.lang,
        heading: session.tr(Msg::ContextHeading),
        model: &session.provider.model,
        window,
        window_text: super::model::window_text(session, window),
        estimate,
        tools,
        messages,
    };
    let mut lines = context_lines(&view);
    lines.push(trf(
        session.lang,
        Msg::ContextThresholds,
        &[
            ("clearing", &thresholds.clearing),
            ("summary", &thresholds.summary),
        ],
    ));
    say_wrapped(session, &lines.join("\n"));
    Flow::Continue
}

/// What `/context` reports.
struct ContextView<'a> {
    lang: Lang,
    heading: &'a str,
    model: &'a str,
    window: u64,
    /// The window with where it came from (`16,384 (reported by the server: …)`).
    window_text: String,
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
    let label_width = 10;
    let row = |label: Msg, n: u64| {
        let label = tr(v.lang, label);
        let pad = " ".repeat(label_width - visible_width(label).min(label_width));
        format!("  {label}{pad} {:>8}  {:>5.1}%", format_count(n), pct(n))
    };
    let e = &v.estimate;
    let count = |msg: Msg, n: usize| trf(v.lang, msg, &[("count", &n)]);
    vec![
        format!("{} · {} {}", v.heading, v.model, v.window_text),
        row(Msg::ContextSystem, e.system),
        row(Msg::ContextTools, e.tools) + "  " + &count(Msg::ContextToolCount, v.tools),
        row(Msg::ContextHistory, e.history) + "  " + &count(Msg::ContextMessageCount, v.messages),
        row(Msg::ContextTotal, e.total()),
    ]
}

pub(super) fn cost(session: &mut Session, _args: &str) -> Flow {
    let usage = session.agent_mut().session_usage();
    let price = price_of(&session.provider.id, &session.provider.model);
    let model = session.provider.model.clone();
    let mut lines = cost_lines(
        session.lang,
        (session.turns, session.requests),
        usage,
        &model,
        price,
    );
    let by_model = session.agent_mut().usage_by_model();
    let provider = session.provider.id.clone();
    lines.extend(model_lines(session.lang, &by_model, |m| {
        price_of(m.provider_or(&provider), &m.model)
    }));
    // Each fact of the session line stays whole on a narrow screen (`推理 0`, not `推理` / `0`).
    let width = session.surface().width;
    let mut shown: Vec<String> = Vec::new();
    for line in &lines {
        let facts: Vec<String> = line.split(" · ").map(str::to_string).collect();
        shown.extend(crate::ui::render::pack(&facts, " · ", width));
    }
    say_wrapped(session, &shown.join("\n"));
    Flow::Continue
}

/// What `/cost` reports: the session's turns, requests and tokens, and the cost when prices are known.
fn cost_lines(
    lang: Lang,
    (turns, requests): (u32, u32),
    u: Usage,
    model: &str,
    price: Option<Price>,
) -> Vec<String> {
    let mut lines = vec![trf(
        lang,
        Msg::CostSession,
        &[
            (
                "turns",
                &crate::text::counted(lang, turns, Msg::CostTurnOne, Msg::CostTurns),
            ),
            (
                "requests",
                &crate::text::counted(lang, requests, Msg::CostRequestOne, Msg::CostRequests),
            ),
            ("input", &u.prompt_tokens),
            ("output", &u.completion_tokens),
            ("cached", &u.cached_tokens),
            ("reasoning", &u.reasoning_tokens),
        ],
    )];
    match cost_of(&u, price) {
        Some((currency, amount, source)) => {
            let cost = format!("{currency}{amount:.4}");
            lines.push(trf(lang, Msg::CostEstimate, &[("cost", &cost)]));
            lines.push(match source {
                CostSource::Reported => tr(lang, Msg::CostReported).to_string(),
                CostSource::ListPrice => trf(lang, Msg::PricesAsOf, &[("date", &prices_as_of())]),
            });
        }
        None => lines.push(trf(
            lang,
            Msg::CostUnknownModel,
            &[("model", &model), ("date", &prices_as_of())],
        )),
    }
    lines
}

/// A line per model when more than one answered (sub-agents on models of their own): its tokens and its cost,
/// from `price` (which looks a model up at its own provider, else the session's), or that no price is known.
fn model_lines(
    lang: Lang,
    by_model: &[(ModelKey, Usage)],
    price: impl Fn(&ModelKey) -> Option<Price>,
) -> Vec<String> {
    if by_model.len() < 2 {
        return Vec::new();
    }
    by_model
        .iter()
        .map(|(model, u)| {
            let cost = match cost_of(u, price(model)) {
                Some((currency, amount, _)) => format!(" · {currency}{amount:.4}"),
                None => format!(" · {}", tr(lang, Msg::CostUnpriced)),
            };
            trf(
                lang,
                Msg::CostByModel,
                &[
                    ("model", &model.label()),
                    ("input", &u.prompt_tokens),
                    ("output", &u.completion_tokens),
                    ("cached", &u.cached_tokens),
                    ("cost", &cost),
                ],
            )
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::llm::tokens::estimate_request;
    use crate::llm::{Message, ToolSpec};
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
            lang: Lang::En,
            heading: "Context",
            model: "m",
            window,
            window_text: format_count(window),
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

    #[test]
    fn cost_has_a_line_per_model_once_a_second_model_answered() {
        let lead = (
            ModelKey::of_session("lead-model"),
            Usage::tokens(1_000_000, 0, 0, 0),
        );
        assert!(model_lines(Lang::En, std::slice::from_ref(&lead), |_| None).is_empty());
        let cheap = (
            ModelKey::of_session("cheap-model"),
            Usage::tokens(2_000, 100, 500, 0),
        );
        let price = |m: &ModelKey| {
            (m.model == "lead-model").then_some(Price {
                currency: "$",
                input_per_mtok: 2.0,
                output_per_mtok: 8.0,
                cached_input_per_mtok: None,
            })
        };
        assert_eq!(
            model_lines(Lang::En, &[cheap.clone(), lead.clone()], price),
            [
                "cheap-model: in 2000 · out 100 · cached 500 · no price known",
                "lead-model: in 1000000 · out 0 · cached 0 · $2.0000",
            ]
        );
        assert_eq!(
            model_lines(Lang::Zh, &[cheap, lead], |_| None)[0],
            "cheap-model：输入 2000 · 输出 100 · 缓存 500 · 价格未知"
        );
    }

    #[test]
    fn a_sub_agent_on_another_provider_is_priced_from_that_providers_list() {
        let kimi = ModelKey {
            provider: "kimi".into(),
            model: "kimi-k2.6".into(),
        };
        let million = Usage::tokens(1_000_000, 0, 0, 0);
        let by_model = [
            (ModelKey::of_session("deepseek-chat"), million),
            (kimi, million),
        ];
        // At the session's provider the sub-agent's model has no price; at its own it has one.
        assert!(price_of("deepseek", "kimi-k2.6").is_none());
        let (currency, amount, _) = cost_of(&million, price_of("kimi", "kimi-k2.6")).unwrap();
        let lines = model_lines(Lang::En, &by_model, |m| {
            price_of(m.provider_or("deepseek"), &m.model)
        });
        assert_eq!(
            lines[1],
            format!("kimi/kimi-k2.6: in 1000000 · out 0 · cached 0 · {currency}{amount:.4}")
        );
    }

    #[test]
    fn cost_speaks_both_languages() {
        let usage = Usage::tokens(12_000, 3_000, 2_000, 500);
        let price = Some(Price {
            currency: "¥",
            input_per_mtok: 2.0,
            output_per_mtok: 8.0,
            cached_input_per_mtok: Some(0.5),
        });
        assert_eq!(
            cost_lines(Lang::Zh, (2, 5), usage, "m", price),
            vec![
                "本会话：2 轮，5 次请求 · 输入 12000 · 输出 3000 · 缓存 2000 · 推理 500"
                    .to_string(),
                "估算费用：¥0.0450".to_string(),
                format!("按 {} 的公开价格估算", prices_as_of()),
            ]
        );
        assert_eq!(
            cost_lines(Lang::Zh, (0, 0), Usage::default(), "deepseek-flash", None)[1],
            format!(
                "费用：没有 deepseek-flash 的已知价格（价格表日期 {}）",
                prices_as_of()
            )
        );
        assert_eq!(
            cost_lines(Lang::En, (2, 5), usage, "m", price),
            vec![
                "session: 2 turns, 5 requests · in 12000 · out 3000 · cached 2000 · reasoning 500"
                    .to_string(),
                "estimated cost: ¥0.0450".to_string(),
                format!("list prices as of {}", prices_as_of()),
            ]
        );
    }

    #[test]
    fn a_reported_cost_is_shown_as_the_providers() {
        let usage = Usage {
            reported_cost_nano_usd: Some(1_234_500),
            ..Usage::tokens(900, 10, 0, 0)
        };
        let lines = cost_lines(Lang::En, (1, 1), usage, "deepseek/deepseek-chat", None);
        assert_eq!(
            lines[1..],
            ["estimated cost: $0.0012", "as reported by the provider"]
        );
        let lines = cost_lines(Lang::Zh, (1, 1), usage, "deepseek/deepseek-chat", None);
        assert_eq!(lines[2], "由服务商报告");
    }

    #[test]
    fn one_turn_and_one_request_are_singular() {
        let usage = Usage::tokens(10, 2, 0, 0);
        assert_eq!(
            cost_lines(Lang::En, (1, 1), usage, "m", None)[0],
            "session: 1 turn, 1 request · in 10 · out 2 · cached 0 · reasoning 0"
        );
        assert_eq!(
            cost_lines(Lang::Zh, (1, 1), usage, "m", None)[0],
            "本会话：1 轮，1 次请求 · 输入 10 · 输出 2 · 缓存 0 · 推理 0"
        );
    }

    #[test]
    fn context_rows_line_up_in_chinese() {
        let lines = context_lines(&ContextView {
            lang: Lang::Zh,
            heading: tr(Lang::Zh, Msg::ContextHeading),
            model: "m",
            window: 1_000,
            window_text: "1,000".into(),
            estimate: ContextEstimate::default(),
            tools: 3,
            messages: 4,
        });
        let columns: Vec<usize> = lines[1..]
            .iter()
            .map(|l| visible_width(&l[..l.find('%').unwrap()]))
            .collect();
        assert!(columns.windows(2).all(|w| w[0] == w[1]), "{lines:#?}");
        assert!(lines[2].ends_with("（3 个工具）"), "{lines:#?}");
        assert!(lines[3].ends_with("（4 条消息）"), "{lines:#?}");
    }
}
