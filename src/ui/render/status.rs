//! The status line after each turn.

use std::time::Duration;

use super::Style;
use crate::llm::Usage;
use crate::llm::providers::{Price, cost_of};
use crate::text::{Lang, Msg, tr};

/// What the status line reports.
#[derive(Clone, Debug)]
pub struct StatusInfo {
    pub model: String,
    /// Estimated tokens in the context and the model's window.
    pub context: Option<(u64, u64)>,
    pub turn: Usage,
    pub session: Usage,
    pub price: Option<Price>,
    pub elapsed: Duration,
    /// The approval mode, shown last with the key that cycles it (REPL only).
    pub mode: Option<&'static str>,
}

/// `model · ctx 3% · turn in 1.2k out 80 cached 0 · session in … · $0.0012 · 2.4 s`, dimmed, in English.
pub fn status_line(info: &StatusInfo, style: Style) -> String {
    status_line_in(info, style, Lang::En)
}

/// The status line in `lang`.
pub fn status_line_in(info: &StatusInfo, style: Style, lang: Lang) -> String {
    let t = |m| tr(lang, m);
    let mut parts = vec![info.model.clone()];
    if let Some((used, window)) = info.context
        && window > 0
    {
        let pct = (used.saturating_mul(100) / window).min(999);
        parts.push(format!("ctx {pct}%"));
    }
    let tokens = |u: &Usage| {
        format!(
            "{} {} {} {} {} {}",
            t(Msg::StatusIn),
            format_count(u.prompt_tokens),
            t(Msg::StatusOut),
            format_count(u.completion_tokens),
            t(Msg::StatusCached),
            format_count(u.cached_tokens)
        )
    };
    parts.push(format!("{} {}", t(Msg::StatusTurn), tokens(&info.turn)));
    parts.push(format!(
        "{} {}",
        t(Msg::StatusSession),
        tokens(&info.session)
    ));
    if let Some((currency, cost, _)) = cost_of(&info.session, info.price) {
        parts.push(format!("{currency}{cost:.4}"));
    }
    let secs = info.elapsed.as_secs_f64();
    parts.push(match lang {
        Lang::En => format!("{secs:.1} s"),
        Lang::Zh => format!("{secs:.1} {}", t(Msg::Seconds)),
    });
    if let Some(mode) = info.mode {
        parts.push(format!("{mode} {} (shift+tab)", t(Msg::StatusMode)));
    }
    style.dim(&parts.join(" · "))
}

/// `950`, `1.2k`, `3.4M`.
pub fn format_count(n: u64) -> String {
    match n {
        0..1000 => n.to_string(),
        1000..1_000_000 => format!("{:.1}k", n as f64 / 1000.0),
        _ => format!("{:.1}M", n as f64 / 1_000_000.0),
    }
}

/// The one-line report of a compaction, shared by the REPL and `-p` output.
pub fn compaction_line(
    stage: impl std::fmt::Display,
    tokens_before: u64,
    tokens_after: u64,
    messages: usize,
) -> String {
    format!(
        "· context compacted: {stage} ({messages} messages, ~{tokens_before} → ~{tokens_after} tokens)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_short() {
        assert_eq!(format_count(950), "950");
        assert_eq!(format_count(1234), "1.2k");
        assert_eq!(format_count(3_400_000), "3.4M");
    }

    #[test]
    fn cost_is_omitted_without_a_price() {
        let info = StatusInfo {
            model: "m".into(),
            context: Some((500, 1000)),
            turn: Usage::default(),
            session: Usage::default(),
            price: None,
            elapsed: Duration::from_millis(1500),
            mode: None,
        };
        let line = status_line(&info, Style::new(false));
        assert_eq!(
            line,
            "m · ctx 50% · turn in 0 out 0 cached 0 · session in 0 out 0 cached 0 · 1.5 s"
        );
        let with_mode = StatusInfo {
            mode: Some("plan"),
            ..info
        };
        assert!(
            status_line(&with_mode, Style::new(false))
                .ends_with(" · 1.5 s · plan mode (shift+tab)")
        );
    }
}
