//! The message table: both languages for every row, the same placeholders, and locale resolution.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::config::{EnvVars, UiLanguage};
use crate::config::{Refusal, RefusedSetting};

#[test]
fn auto_follows_the_first_set_locale_variable() {
    let zh = EnvVars::from_pairs([("LANG", "zh_CN.UTF-8")]);
    assert_eq!(Lang::resolve(UiLanguage::Auto, &zh), Lang::Zh);
    assert_eq!(Lang::resolve(UiLanguage::Auto, &zh), Lang::Zh);
    let both = EnvVars::from_pairs([("LC_ALL", "en_US.UTF-8"), ("LANG", "zh_CN.UTF-8")]);
    assert_eq!(Lang::resolve(UiLanguage::Auto, &both), Lang::En);
    assert_eq!(
        Lang::resolve(UiLanguage::Auto, &EnvVars::default()),
        Lang::En
    );
}

#[test]
fn an_explicit_setting_wins_over_the_locale() {
    let zh = EnvVars::from_pairs([("LANG", "zh_CN.UTF-8")]);
    assert_eq!(Lang::resolve(UiLanguage::En, &zh), Lang::En);
    assert_eq!(Lang::resolve(UiLanguage::Zh, &EnvVars::default()), Lang::Zh);
}

#[test]
fn refusal_notices_name_the_file_and_key_in_both_languages() {
    for refusal in [
        Refusal::UserOnly,
        Refusal::NeedsTrust,
        Refusal::NeedsOwnKey,
        Refusal::Loosens,
    ] {
        let r = RefusedSetting {
            file: std::path::PathBuf::from("p/.env"),
            key: "DEEPSEEK_BASE_URL".to_string(),
            refusal,
        };
        let (en, zh) = (refused_setting(Lang::En, &r), refused_setting(Lang::Zh, &r));
        assert_ne!(en, zh);
        for text in [en, zh] {
            assert!(
                text.contains("p/.env") && text.contains("`DEEPSEEK_BASE_URL`"),
                "{text}"
            );
        }
    }
}

/// Words of running English: what is left after placeholders, `code`, /commands, --flags, @paths, key names and
/// upper-case names (API, DEEPSEEK_API_KEY) are taken out.
fn english_words(text: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut in_code = false;
    let mut in_placeholder = false;
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '{' => in_placeholder = true,
            '}' => in_placeholder = false,
            _ if in_code || in_placeholder => {}
            _ => plain.push(c),
        }
    }
    plain
        .split(|c: char| c.is_whitespace() || "()（）[]|,;:.·→<>\"'".contains(c))
        .filter(|w| !w.is_empty())
        .filter(|w| !w.starts_with(['/', '-', '@', '$', '.']))
        .filter(|w| {
            let mut chars = w.chars();
            let first = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
            first && w.len() >= 2 && chars.all(|c| c.is_ascii_lowercase())
        })
        .filter(|w| {
            !matches!(
                *w,
                "paicli" | "auto" | "plan" | "ask" | "full" | "on" | "default" | "none"
            )
        })
        .map(str::to_string)
        .collect()
}

fn has_cjk(text: &str) -> bool {
    text.chars()
        .any(|c| ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c))
}

#[test]
fn every_message_has_english_and_chinese_with_the_same_placeholders() {
    let mut problems = Vec::new();
    for msg in Msg::all() {
        let (en, zh) = (tr(Lang::En, msg), tr(Lang::Zh, msg));
        if en.trim().is_empty() {
            problems.push(format!("{msg:?}: the English text is empty"));
        }
        if zh.trim().is_empty() {
            problems.push(format!("{msg:?}: the Chinese text is empty"));
        }
        let words = english_words(en);
        if !words.is_empty() && !has_cjk(zh) {
            problems.push(format!(
                "{msg:?}: the Chinese text {zh:?} is not translated ({words:?})"
            ));
        }
        let (mut a, mut b) = (placeholders(en), placeholders(zh));
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            problems.push(format!(
                "{msg:?}: placeholders differ: English {a:?}, Chinese {b:?}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_table_test_catches_untranslated_text() {
    assert_eq!(
        english_words("Usage: /mcp [logs|approve] {name} `x y`"),
        vec!["Usage", "logs", "approve"]
    );
    assert!(english_words("Ctrl-C · DEEPSEEK_API_KEY · /help · --save").is_empty());
    assert!(has_cjk("按键") && has_cjk("（") && !has_cjk("keys"));
}

#[test]
fn placeholders_are_filled_by_name() {
    let text = fill(
        "{name} ({ms} ms) {other} {",
        &[("ms", &12), ("name", &"read_file")],
    );
    assert_eq!(text, "read_file (12 ms) {other} {");
    assert_eq!(
        placeholders("a {one} {Two} {} {two_b}"),
        vec!["one", "two_b"]
    );
    assert_eq!(
        trf(Lang::Zh, Msg::CostEstimate, &[("cost", &"$0.0100")]),
        "估算费用：$0.0100"
    );
}

#[test]
fn counts_and_trust_read_as_before() {
    assert_eq!(task_count(Lang::En, 1), "1 task");
    assert_eq!(task_count(Lang::En, 3), "3 tasks");
    assert_eq!(task_count(Lang::Zh, 3), "3 个任务");
    let r = RefusedSetting {
        file: std::path::PathBuf::from(".paicli/config.toml"),
        key: "llm.base_url".to_string(),
        refusal: Refusal::Loosens,
    };
    assert_eq!(
        refused_setting(Lang::En, &r),
        "ignored `llm.base_url` in .paicli/config.toml: a project may only tighten this setting"
    );
    assert_eq!(
        project_trusted(Lang::Zh, std::path::Path::new("/p")),
        "已信任 /p：在其 .paicli/config.toml 和 .env 改变之前，它们可以设置模型地址和语言服务器"
    );
}

#[test]
fn a_row_is_named_by_its_constant() {
    assert_eq!(Msg::Bye.name(), "Bye");
    assert_eq!(format!("{:?}", Msg::PlanTaskCount), "PlanTaskCount");
    assert_eq!(tr(Lang::Zh, Msg::Bye), "再见");
    assert!(Msg::all().any(|m| m == Msg::ServeListening));
}
