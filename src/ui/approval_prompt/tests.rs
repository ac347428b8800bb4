#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Map, json};

use super::*;
use crate::policy::approval::{Risk, RuleLabel};
use crate::ui::render::visible_width;

fn request(args: Value) -> ApprovalRequest {
    ApprovalRequest {
        call_id: "call_1".to_string(),
        tool: "execute_command".to_string(),
        risk: Risk::High,
        args: match args {
            Value::Object(m) => m,
            _ => Map::new(),
        },
        session_rule: Some(RuleLabel::CommandPrefix("cargo test".to_string())),
        project_rule: Some(RuleLabel::CommandPrefix("cargo test".to_string())),
        unsandboxed: false,
        note: None,
    }
}

/// Runs the prompt on the keys `typed` presses and returns the answer and what was shown.
fn answer_in(req: &ApprovalRequest, keys: &str, lang: Lang) -> (Asked, String) {
    let shown = preview(&req.args, None);
    let mut out = Vec::new();
    let a = prompt_approval(
        req,
        None,
        shown.as_ref(),
        &mut typed(keys),
        &mut out,
        &Look::plain(lang),
    )
    .unwrap();
    (a, String::from_utf8(out).unwrap())
}

fn answer(req: &ApprovalRequest, keys: &str) -> (Asked, String) {
    answer_in(req, keys, Lang::En)
}

fn said(a: ApprovalAnswer) -> Asked {
    Asked::Answer(a)
}

fn cargo() -> ApprovalRequest {
    request(json!({"command": "cargo test --all"}))
}

#[test]
fn y_and_enter_approve_with_one_key() {
    for keys in ["y", "\n", "Y"] {
        assert_eq!(
            answer(&cargo(), keys).0,
            said(ApprovalAnswer::Approve),
            "{keys:?}"
        );
    }
}

#[test]
fn a_approves_for_the_session_and_names_the_prefix_rule() {
    let (a, shown) = answer(&cargo(), "a");
    assert_eq!(a, said(ApprovalAnswer::ApproveForSession));
    assert!(
        shown.contains("[a] yes, and allow commands starting with `cargo test` this session"),
        "{shown}"
    );
    assert!(
        shown.contains("execute_command wants to run (risk: high)"),
        "{shown}"
    );
    assert!(shown.contains("command: cargo test --all"), "{shown}");
    assert!(
        shown.contains("why asked: ask mode asks before every call that changes something"),
        "{shown}"
    );
}

#[test]
fn p_approves_for_the_project_only_when_it_can_be_saved() {
    assert_eq!(
        answer(&cargo(), "p").0,
        said(ApprovalAnswer::ApproveForProject)
    );
    let mut req = cargo();
    req.project_rule = None;
    let (a, shown) = answer(&req, "py");
    assert_eq!(a, said(ApprovalAnswer::Approve));
    assert!(!shown.contains("[p]"), "{shown}");
    assert!(shown.contains("press ? to see the keys"), "{shown}");
}

#[test]
fn a_call_asked_every_time_offers_no_a_and_does_not_take_it() {
    let mut req = cargo();
    req.session_rule = None;
    req.project_rule = None;
    let (a, shown) = answer(&req, "a?y");
    assert_eq!(a, said(ApprovalAnswer::Approve));
    assert!(!shown.contains("[a]"), "{shown}");
    assert!(
        shown.contains("[y/Enter] yes (asked every time)"),
        "{shown}"
    );
    assert!(shown.contains("a and p are not offered"), "{shown}");
}

#[test]
fn n_denies_and_r_denies_with_a_typed_reason() {
    assert_eq!(
        answer(&cargo(), "n").0,
        said(ApprovalAnswer::Reject { reason: None })
    );
    let (a, shown) = answer(&cargo(), "ruse cargo nextest\n");
    assert_eq!(
        a,
        said(ApprovalAnswer::Reject {
            reason: Some("use cargo nextest".to_string())
        })
    );
    assert!(shown.contains("Reason for the model"), "{shown}");
    // ESC in the reason goes back to the keys.
    assert_eq!(
        answer(&cargo(), "rno\u{1b}y").0,
        said(ApprovalAnswer::Approve)
    );
}

#[test]
fn m_edits_the_arguments_and_invalid_json_says_why_and_can_be_fixed() {
    // The editor starts with the JSON; Ctrl-U clears it, then a broken object, then the fix.
    let (a, shown) = answer(&cargo(), "m\u{15}{\"command\": \"cargo test -p core\"\n}\n");
    let want = json!({"command": "cargo test -p core"});
    assert_eq!(
        a,
        said(ApprovalAnswer::Modify(want.as_object().unwrap().clone()))
    );
    assert!(shown.contains("invalid JSON: EOF"), "{shown}");
    assert!(
        shown.contains("{\"command\":\"cargo test --all\"}"),
        "prefilled: {shown}"
    );
    let (a, shown) = answer(&cargo(), "m\u{15}[1]\n\u{1b}n");
    assert_eq!(a, said(ApprovalAnswer::Reject { reason: None }));
    assert!(shown.contains("must be a JSON object"), "{shown}");
}

#[test]
fn arguments_taller_than_the_screen_are_not_edited_in_place() {
    let req = request(json!({"command": "x".repeat(5000)}));
    let mut out = Vec::new();
    let a = prompt_approval(
        &req,
        None,
        None,
        &mut typed("mn"),
        &mut out,
        &Look::plain(Lang::En),
    )
    .unwrap();
    assert_eq!(a, said(ApprovalAnswer::Reject { reason: None }));
    let shown = String::from_utf8(out).unwrap();
    assert!(
        shown.contains("(5014 chars) are too long to edit"),
        "{shown}"
    );
    assert!(!shown.contains("Arguments as JSON"), "{shown}");
}

#[test]
fn esc_and_ctrl_c_cancel_the_task() {
    assert_eq!(answer(&cargo(), "\u{1b}").0, Asked::CancelTask);
    assert_eq!(answer(&cargo(), "\u{3}").0, Asked::CancelTask);
}

#[test]
fn question_mark_explains_every_key_and_unknown_keys_do_not_answer() {
    let (a, shown) = answer(&cargo(), "x?y");
    assert_eq!(a, said(ApprovalAnswer::Approve));
    for key in [
        "y or Enter",
        "a  ",
        "p  ",
        "n  ",
        "r  ",
        "m  ",
        "ESC, Ctrl-C",
    ] {
        assert!(shown.contains(&format!("\n  {key}")), "{key:?} in {shown}");
    }
    assert!(
        shown.contains("always allow commands starting with `cargo test` in this project"),
        "{shown}"
    );
}

#[test]
fn the_end_of_the_keys_denies() {
    assert!(matches!(
        answer(&cargo(), "").0,
        Asked::Answer(ApprovalAnswer::Reject { .. })
    ));
}

#[test]
fn control_and_bidi_characters_are_shown_safely() {
    // Right-to-left override makes `rm -rf ~ #` look like something else; a CR would overwrite the line.
    let req = request(json!({"command": "echo safe\u{202e}# ~ fr- mr\r\u{1b}[2Kls\u{200b}\tx"}));
    let (_, shown) = answer(&req, "n");
    assert!(shown.contains("<U+202E>"), "{shown}");
    assert!(shown.contains("<U+000D>"), "{shown}");
    assert!(shown.contains("<U+001B>[2K"), "{shown}");
    assert!(shown.contains("<U+200B>"), "{shown}");
    assert!(shown.contains("<U+0009>"), "{shown}");
    for c in ['\u{202e}', '\r', '\u{1b}', '\u{200b}', '\t'] {
        assert!(!shown.contains(c), "{c:?} shown raw");
    }
    // The editor after `m` shows them as JSON escapes, which parse back to the same arguments.
    let escaped = escape_hidden_json(&Value::Object(req.args.clone()).to_string());
    assert!(
        escaped.contains("\\u202e") && !escaped.contains('\u{202e}'),
        "{escaped}"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&escaped).unwrap(),
        Value::Object(req.args)
    );
}

#[test]
fn long_values_are_folded_and_multi_line_values_indented() {
    let content = (1..=100)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut req = request(json!({"note": content}));
    req.tool = "mcp__notes__save".to_string();
    let (_, shown) = answer(&req, "y");
    assert!(shown.contains("    │ line 1\n"), "{shown}");
    assert!(shown.contains("    │ line 12\n"), "{shown}");
    assert!(!shown.contains("line 13\n"), "{shown}");
    assert!(shown.contains("100 lines in all"), "{shown}");
}

#[test]
fn an_edit_shows_its_diff_before_the_question() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let guard = PathGuard::new(dir.path()).unwrap();
    let mut req = request(json!({"path": "a.txt", "old_text": "two", "new_text": "2"}));
    req.tool = "edit_file".to_string();
    req.risk = Risk::Medium;
    let shown = preview(&req.args, Some(&guard));
    let mut out = Vec::new();
    prompt_approval(
        &req,
        None,
        shown.as_ref(),
        &mut typed("y"),
        &mut out,
        &Look::plain(Lang::En),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let diff = text.find("    -two\n    +2\n").expect("diff shown");
    assert!(diff < text.find("Approve?").unwrap(), "{text}");
    assert!(text.contains("  path: a.txt\n  edits a.txt\n"), "{text}");
    assert!(
        !text.contains("old_text"),
        "the diff stands for the snippets: {text}"
    );
}

#[test]
fn the_chinese_prompt_reads_as_expected() {
    let mut req = request(json!({"command": "cargo test && rm -f out.txt"}));
    req.project_rule = None;
    req.note = Some("自动模式的分类器不确定".to_string());
    let (a, shown) = answer_in(&req, "?n", Lang::Zh);
    assert_eq!(a, said(ApprovalAnswer::Reject { reason: None }));
    let expected = "\n⚠ execute_command 请求执行（风险：高）
  询问原因：自动模式的分类器不确定
  命令：cargo test && rm -f out.txt
  2 条命令：
    1. cargo test
    2. rm -f out.txt
批准？ [y/Enter] 是  [a] 是，并在本次会话中允许以 `cargo test` 开头的命令  [n] 否
[r] 否，并说明原因  [m] 编辑参数  [?] 按键说明 
  y 或 Enter   执行这一次调用
  a            执行，并在本次会话剩余时间内允许以 `cargo test` 开头的命令
  n            不执行；告诉模型你拒绝了
  r            不执行，并输入一条给模型看的原因
  m            以 JSON 编辑参数后按新参数执行（ESC 返回）
  ESC、Ctrl-C  不执行，并取消整个任务
批准？ [y/Enter] 是  [a] 是，并在本次会话中允许以 `cargo test` 开头的命令  [n] 否
[r] 否，并说明原因  [m] 编辑参数  [?] 按键说明 
  ✗ 已拒绝
";
    pretty_assertions::assert_eq!(shown, expected);
}

#[test]
fn u_runs_the_command_outside_the_sandbox_only_when_offered() {
    let mut req = cargo();
    req.unsandboxed = true;
    let (a, shown) = answer(&req, "u");
    assert_eq!(a, said(ApprovalAnswer::ApproveUnsandboxed));
    assert!(
        shown.contains("[u] yes, outside the sandbox (once)"),
        "{shown}"
    );
    assert!(
        shown.contains("allowed once, outside the sandbox"),
        "{shown}"
    );
    let (_, help) = answer(&req, "?n");
    assert!(help.contains("outside the OS sandbox"), "{help}");
    let (_, zh) = answer_in(&req, "u", Lang::Zh);
    assert!(zh.contains("[u] 是，在沙箱外执行（仅此一次）"), "{zh}");

    let (a, shown) = answer(&cargo(), "uy");
    assert_eq!(a, said(ApprovalAnswer::Approve));
    assert!(!shown.contains("[u]"), "{shown}");
    assert!(shown.contains("not a key of this prompt"), "{shown}");
}

#[test]
fn a_long_answer_line_wraps_between_words_under_its_text() {
    let command = "for i in $(seq 1 8); do echo step $i; sleep 0.5; done && cargo test --workspace";
    let mut req = request(json!({ "command": command }));
    req.session_rule = Some(RuleLabel::ExactCommand(command.to_string()));
    let (a, shown) = answer(&req, "a");
    assert_eq!(a, said(ApprovalAnswer::ApproveForSession));
    let answer_lines: Vec<&str> = shown
        .lines()
        .skip_while(|l| !l.starts_with("  ✓ allowed;"))
        .collect();
    assert!(answer_lines.len() >= 2, "{shown}");
    assert!(
        answer_lines.iter().all(|l| visible_width(l) <= 100),
        "{shown}"
    );
    assert!(
        answer_lines[1..].iter().all(|l| l.starts_with("    ")),
        "{shown}"
    );
    let words: Vec<&str> = answer_lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .collect();
    let expected = format!(
        "✓ allowed; exactly the command `{command}` runs without asking for the rest of this session"
    );
    assert_eq!(words, expected.split_whitespace().collect::<Vec<_>>());
}

#[test]
fn a_plan_task_asking_is_named_like_its_tool_lines() {
    let mut req = request(json!({"path": "out.txt", "content": "x\n"}));
    req.tool = "write_file".to_string();
    req.risk = Risk::Medium;
    for (lang, header) in [
        (Lang::En, "\n⚠ [B] write_file wants to run (risk: medium)\n"),
        (Lang::Zh, "\n⚠ [B] write_file 请求执行（风险：中）\n"),
    ] {
        let mut out = Vec::new();
        let asked = prompt_approval(
            &req,
            Some("B"),
            None,
            &mut typed("\u{1b}"),
            &mut out,
            &Look::plain(lang),
        )
        .unwrap();
        assert_eq!(asked, Asked::CancelTask);
        let shown = String::from_utf8(out).unwrap();
        assert!(shown.starts_with(header), "{shown}");
    }
    // The lead's own calls (no task) keep the plain header; a task id cannot hide control characters.
    let (_, shown) = answer(&req, "n");
    assert!(shown.starts_with("\n⚠ write_file wants"), "{shown}");
    let mut out = Vec::new();
    prompt_approval(
        &req,
        Some("B\u{1b}[2J"),
        None,
        &mut typed("n"),
        &mut out,
        &Look::plain(Lang::En),
    )
    .unwrap();
    let shown = String::from_utf8(out).unwrap();
    assert!(!shown.contains('\u{1b}'), "{shown}");
}

/// Keys that record what they were asked to page, and page nothing (the caller prints).
struct NoPager {
    keys: std::collections::VecDeque<Input>,
    asked_to_page: usize,
}

impl KeySource for NoPager {
    fn next_input(&mut self) -> Option<Input> {
        self.keys.pop_front()
    }

    fn page(&mut self, _lines: &[String]) -> bool {
        self.asked_to_page += 1;
        false
    }
}

fn long_write() -> (ApprovalRequest, Preview) {
    let content: String = (1..=300).map(|i| format!("line {i}\n")).collect();
    let mut req = request(json!({"path": "long.txt", "content": content}));
    req.tool = "write_file".to_string();
    req.risk = Risk::Medium;
    let preview = Preview::NewFile {
        path: "long.txt".into(),
        content,
    };
    (req, preview)
}

#[test]
fn the_whole_change_is_shown_on_v_or_ctrl_o_and_the_question_comes_back() {
    for (lang, keys_word, help_word) in [
        (Lang::En, "[v] whole change", "v, Ctrl+O"),
        (Lang::Zh, "[v] 查看完整改动", "v、Ctrl+O"),
    ] {
        for key in ["v", "\u{f}"] {
            let (req, shown) = long_write();
            let mut keys = NoPager {
                keys: typed(&format!("?{key}y")),
                asked_to_page: 0,
            };
            let mut out = Vec::new();
            let look = Look::plain(lang);
            let a = prompt_approval(&req, None, Some(&shown), &mut keys, &mut out, &look).unwrap();
            assert_eq!(a, said(ApprovalAnswer::Approve));
            let text = String::from_utf8(out).unwrap();
            // Folded at first, every line after the key, then the question again.
            assert!(
                !text[..text.find(keys_word).unwrap()].contains("+line 13\n"),
                "{text}"
            );
            let last = text.find("    +line 300\n").expect("the last line shown");
            assert!(text[last..].contains(keys_word), "asked again: {text}");
            assert!(text.contains(help_word), "{text}");
            assert_eq!(text.matches("    +line 150\n").count(), 1, "{text}");
            // 301 lines are taller than the 40-row test screen: the pager was asked first.
            assert_eq!(keys.asked_to_page, 1);
        }
    }
}

#[test]
fn a_change_that_fits_the_screen_is_printed_without_the_pager() {
    let (req, _) = long_write();
    let shown = Preview::NewFile {
        path: "short.txt".into(),
        content: (1..=20).map(|i| format!("line {i}\n")).collect(),
    };
    let mut keys = NoPager {
        keys: typed("vn"),
        asked_to_page: 0,
    };
    let mut out = Vec::new();
    prompt_approval(
        &req,
        None,
        Some(&shown),
        &mut keys,
        &mut out,
        &Look::plain(Lang::En),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("    +line 20\n"), "{text}");
    assert_eq!(keys.asked_to_page, 0);
}

#[test]
fn a_command_offers_no_whole_change_key() {
    let (_, shown) = answer(&cargo(), "?n");
    assert!(
        !shown.contains("[v]") && !shown.contains("Ctrl+O"),
        "{shown}"
    );
}
