//! Messages with data: named `{placeholders}` filled at the call site, and `label: text` lines.

use super::{Lang, Msg, tr};

/// `label: text` in `lang` (`error: …`, `错误：…`): Chinese takes the full-width colon.
pub fn labelled(lang: Lang, label: Msg, text: &str) -> String {
    match lang {
        Lang::En => format!("{}: {text}", tr(lang, label)),
        Lang::Zh => format!("{}：{text}", tr(lang, label)),
    }
}

/// The text of `msg` in `lang` with its `{name}` placeholders filled from `args`.
pub fn trf(lang: Lang, msg: Msg, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    fill(tr(lang, msg), args)
}

/// How many tasks a plan has: "1 task", "3 tasks", "3 个任务".
pub fn task_count(lang: Lang, n: usize) -> String {
    let msg = if n == 1 {
        Msg::PlanTaskCountOne
    } else {
        Msg::PlanTaskCount
    };
    trf(lang, msg, &[("count", &n)])
}

/// `n` counted with `one` when it is 1 and `many` otherwise (each a message with a `{count}` placeholder).
pub fn counted(lang: Lang, n: impl Into<u64>, one: Msg, many: Msg) -> String {
    let n: u64 = n.into();
    trf(lang, if n == 1 { one } else { many }, &[("count", &n)])
}

/// Replaces each `{name}` in `template` by the value paired with `name`; unknown placeholders stay as written.
pub fn fill(template: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    crate::protocol::notice::fill_placeholders(template, |name| {
        args.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    })
}

/// The `{name}` placeholders of a template, in order (the table test compares them across languages).
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_placeholder(&after[..close]) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

fn is_placeholder(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}
