#![allow(clippy::unwrap_used, clippy::expect_used)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::app::sessions::{Resumed, StartError, StartNotice};
use crate::session::ledger::{LoadNotice, SessionSummary};
use crate::ui::render::Style;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn flags_choose_the_launch() {
    let start = |resume, fork| {
        Launch::Start(StartOptions {
            resume,
            fork,
            id: None,
        })
    };
    assert_eq!(
        Launch::from_flags(false, None, false),
        Ok(start(None, false))
    );
    assert_eq!(
        Launch::from_flags(true, None, true),
        Ok(start(Some(ResumeFrom::Latest), true))
    );
    assert_eq!(
        Launch::from_flags(false, Some("ab12"), false),
        Ok(start(Some(ResumeFrom::Id("ab12".into())), false))
    );
    assert_eq!(
        Launch::from_flags(false, Some(""), true),
        Ok(Launch::Pick { fork: true })
    );
    assert_eq!(
        Launch::from_flags(false, None, true),
        Err(FlagError::ForkAlone)
    );
}

#[test]
fn the_answer_is_typed_edited_and_cancelled_by_keys() {
    let mut input = LineInput::default();
    assert_eq!(input.feed(key(KeyCode::Char('1'))), Step::Echo("1".into()));
    assert_eq!(input.feed(key(KeyCode::Char('x'))), Step::Echo("x".into()));
    assert_eq!(
        input.feed(key(KeyCode::Backspace)),
        Step::Echo("\u{8} \u{8}".into())
    );
    assert_eq!(input.feed(key(KeyCode::Char('2'))), Step::Echo("2".into()));
    assert_eq!(input.feed(key(KeyCode::Enter)), Step::Done("12".into()));
    assert_eq!(
        input.feed(key(KeyCode::Backspace)),
        Step::Echo(String::new())
    );
    assert_eq!(input.feed(key(KeyCode::Esc)), Step::Cancel);
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(input.feed(ctrl_c), Step::Cancel);
}

#[test]
fn choices_are_numbers_of_the_list() {
    assert_eq!(parse_choice("1", 3), Some(0));
    assert_eq!(parse_choice(" 3 ", 3), Some(2));
    for bad in ["0", "4", "", "x", "-1"] {
        assert_eq!(parse_choice(bad, 3), None, "{bad}");
    }
}

#[test]
fn summary_lines_show_date_turns_model_id_and_first_message() {
    let summary = |id: &str, turns, first: Option<&str>| SessionSummary {
        id: id.into(),
        path: "/x".into(),
        project: "/p".into(),
        started: "2026-12-01T10:05:33.123+08:00".into(),
        model: "glm-4".into(),
        first_input: first.map(str::to_string),
        turns,
        forked_from: None,
    };
    let long = format!("fix it\n{}", "x".repeat(10));
    let lines = summary_lines(
        Lang::En,
        &[
            summary("aaa", 1, Some(&long)),
            summary("bbb", 12, Some(&"y".repeat(80))),
            summary("ccc", 0, None),
        ],
        Some("bbb"),
    );
    assert_eq!(
        lines[0],
        "  1. 2026-12-01 10:05    1 turn   glm-4  aaa  fix it"
    );
    assert!(lines[1].starts_with("* 2. 2026-12-01 10:05   12 turns  glm-4  bbb  yyy"));
    assert!(
        lines[1].ends_with("y…") && lines[1].chars().count() < 110,
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "  3. 2026-12-01 10:05    0 turns  glm-4  ccc  ");
    let zh = summary_lines(Lang::Zh, &[summary("aaa", 1, Some("修复"))], None);
    assert_eq!(zh[0], "  1. 2026-12-01 10:05    1 轮  glm-4  aaa  修复");
}

#[test]
fn a_fork_names_its_original() {
    let fork = SessionSummary {
        id: "bbb".into(),
        path: "/x".into(),
        project: "/p".into(),
        started: "2026-12-01T10:05:33.123+08:00".into(),
        model: "glm-4".into(),
        first_input: Some("fix it".into()),
        turns: 2,
        forked_from: Some("aaa".into()),
    };
    let en = summary_lines(Lang::En, std::slice::from_ref(&fork), None);
    assert_eq!(
        en[0],
        "  1. 2026-12-01 10:05    2 turns  glm-4  bbb  [fork of aaa]  fix it"
    );
    let zh = summary_lines(Lang::Zh, &[fork], None);
    assert_eq!(
        zh[0],
        "  1. 2026-12-01 10:05    2 轮  glm-4  bbb  [分叉自 aaa]  fix it"
    );
}

#[test]
fn every_text_exists_in_both_languages() {
    let notices = [
        StartNotice::Load(LoadNotice::TornLastLine),
        StartNotice::Load(LoadNotice::SkippedLines { count: 2, first: 3 }),
        StartNotice::Load(LoadNotice::AbortedCalls { count: 1 }),
        StartNotice::InstructionsChanged,
        StartNotice::LedgerUnavailable("disk full".into()),
    ];
    for n in &notices {
        assert_ne!(
            start_notice_text(Lang::En, n),
            start_notice_text(Lang::Zh, n)
        );
    }
    let resumed = Resumed {
        from: "abc".into(),
        turns: 2,
    };
    for id in ["abc", "def"] {
        assert_ne!(
            resumed_text(Lang::En, id, &resumed),
            resumed_text(Lang::Zh, id, &resumed)
        );
    }
    assert!(resumed_text(Lang::En, "def", &resumed).contains("forked session abc as def"));
    for text in [
        texts::picker_heading,
        no_project_sessions,
        nothing_deleted,
        history_usage,
    ] {
        assert_ne!(text(Lang::En), text(Lang::Zh));
    }
    for pick_for in [PickFor::Start, PickFor::Switch] {
        for text in [
            texts::picker_prompt,
            texts::no_sessions,
            texts::not_a_choice,
        ] {
            assert_ne!(text(Lang::En, pick_for), text(Lang::Zh, pick_for));
        }
    }
    // Enter alone starts a new session at start-up, and keeps the conversation in `/resume`.
    assert!(
        texts::picker_prompt(Lang::En, PickFor::Start)
            .contains("Enter alone, ESC or Ctrl-C: new session")
    );
    assert!(
        texts::picker_prompt(Lang::En, PickFor::Switch)
            .contains("Enter alone, ESC or Ctrl-C: keep this conversation")
    );
    assert!(texts::picker_prompt(Lang::Zh, PickFor::Switch).contains("保留当前对话"));
    assert_ne!(
        history_clear_question(Lang::En, 2),
        history_clear_question(Lang::Zh, 2)
    );
    assert_ne!(history_cleared(Lang::En, 2), history_cleared(Lang::Zh, 2));
    assert_ne!(
        forked_text(Lang::En, "a", "b"),
        forked_text(Lang::Zh, "a", "b")
    );
    assert_ne!(
        flag_error(Lang::En, &FlagError::ForkAlone),
        flag_error(Lang::Zh, &FlagError::ForkAlone)
    );
}

/// The table's templates are filled by name here: a placeholder the caller does not supply stays as `{name}`.
#[test]
fn texts_from_the_table_have_every_placeholder_filled() {
    use crate::session::ledger::FindError;
    let candidates = vec!["aa11".to_string(), "aa22".to_string()];
    let unknown = FindError::Unknown {
        prefix: "zz".into(),
        candidates: candidates.clone(),
    };
    let ambiguous = FindError::Ambiguous {
        prefix: "aa".into(),
        candidates,
    };
    let nothing = StartError::NothingToContinue {
        root: "/p/demo".into(),
    };
    let resumed = Resumed {
        from: "abc".into(),
        turns: 4,
    };
    for lang in [Lang::En, Lang::Zh] {
        let texts = [
            find_error_text(lang, &unknown),
            find_error_text(lang, &ambiguous),
            start_error_text(lang, &nothing),
            resumed_text(lang, "def", &resumed),
            resumed_text(lang, "abc", &resumed),
            forked_text(lang, "abc", "def"),
            history_clear_question(lang, 3),
            history_cleared(lang, 3),
            start_notice_text(
                lang,
                &StartNotice::Load(LoadNotice::SkippedLines { count: 2, first: 7 }),
            ),
            start_notice_text(lang, &StartNotice::LedgerUnavailable("disk full".into())),
        ];
        for text in &texts {
            assert!(!text.contains('{') && !text.contains('}'), "{text}");
        }
        assert!(texts[3].contains("abc") && texts[3].contains("def") && texts[3].contains('4'));
        assert!(texts[2].contains("/p/demo"), "{}", texts[2]);
        assert!(
            texts[8].contains('2') && texts[8].contains('7'),
            "{}",
            texts[8]
        );
        assert!(texts[9].contains("disk full"), "{}", texts[9]);
    }
    assert!(find_error_text(Lang::En, &ambiguous).contains("aa11, aa22"));
    assert!(find_error_text(Lang::Zh, &ambiguous).contains("aa11、aa22"));
    assert_eq!(
        find_error_text(Lang::En, &unknown),
        "no session id starts with `zz`; recent sessions of this project: aa11, aa22"
    );
}

#[test]
fn the_last_exchange_shows_the_input_and_the_start_of_the_answer() {
    let mut c = crate::session::Conversation::new("sys");
    c.begin_turn(None, "first");
    c.push_answer("one");
    c.begin_turn(
        Some("[long-term memory] fact".into()),
        "second task\nwith details",
    );
    c.push_answer("a\n\nb\nc\nd\ne");
    assert_eq!(
        picker::last_exchange(&c, 80, Style::new(false)),
        [
            "  › second task",
            "    a",
            "    b",
            "    c",
            "    d",
            "    …"
        ]
    );
    assert!(
        picker::last_exchange(
            &crate::session::Conversation::new("sys"),
            80,
            Style::new(false)
        )
        .is_empty()
    );
}

#[test]
fn the_last_answer_is_shown_rendered_not_as_markdown_source() {
    let mut c = crate::session::Conversation::new("sys");
    c.begin_turn(None, "explain");
    c.push_answer("# Result\n\nThe answer is **42**.\n\n- `one`\n- two");
    let plain = picker::last_exchange(&c, 80, Style::new(false)).join("\n");
    assert!(
        plain.contains("The answer is 42.") && plain.contains("• two"),
        "{plain}"
    );
    let styled = picker::last_exchange(&c, 80, Style::new(true)).join("\n");
    assert!(styled.contains(&Style::new(true).bold("42")), "{styled}");
    for source in ["**", "- two"] {
        assert!(
            !plain.contains(source) && !styled.contains(source),
            "{source} in {plain}"
        );
    }
}
