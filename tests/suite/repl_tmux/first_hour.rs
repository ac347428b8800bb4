//! What a new user trips over in the first hour (issue 36, part B), in the real terminal, in English and Chinese:
//! the banner's approval mode, `/cost`'s counts, `/model`'s key hint, `/config`'s output limit, `/help`'s keys,
//! unknown commands, the attached line of `@file`, the resume hint on leaving, forks in the lists, `/resume`'s
//! Enter, the recap of `-c`, `/export`'s results, side-by-side results and approval time in durations.

use std::time::Duration;

use serde_json::json;

use super::Sandbox;
use super::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

/// Makes the sandbox's paicli speak Chinese (`ui.language = "zh"`).
fn in_chinese(sandbox: &Sandbox) {
    let home = sandbox.paicli_home();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[ui]\nlanguage = \"zh\"\n").unwrap();
}

/// The screen with each row's trailing blanks removed and rows joined, so a wrapped sentence reads whole.
fn joined(screen: &str) -> String {
    screen
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_banner_shows_the_approval_mode_and_warns_in_full() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    // The harness starts paicli in `full` (PAICLI_APPROVAL=full).
    let t = sandbox.start(&server);
    let banner = t.screen();
    assert!(banner.contains("approval mode: full"), "{banner}");
    assert!(
        banner.contains("! full mode: every call runs without asking"),
        "{banner}"
    );
    drop(t);
    let t = Terminal::start_with_args(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[("PAICLI_APPROVAL", "ask")],
        &["--approval", "full"],
    );
    let banner = t.wait_for("full mode: every call runs without asking");
    assert!(banner.contains("approval mode: full"), "{banner}");
    drop(t);

    in_chinese(&sandbox);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    let banner = t.screen();
    assert!(banner.contains("审批模式：ask"), "{banner}");
    assert!(!banner.contains("full 模式"), "{banner}");
    drop(t);
    let t = sandbox.start(&server);
    let banner = t.screen();
    assert!(
        banner.contains("! full 模式：所有调用都不再询问直接执行"),
        "{banner}"
    );
}

#[test]
fn cost_counts_one_turn_and_one_request_in_the_singular() {
    for zh in [false, true] {
        let sandbox = Sandbox::new();
        if zh {
            in_chinese(&sandbox);
        }
        let server = ScriptedServer::with_replies([Reply::text("fine").usage(1200, 34)]);
        let t = sandbox.start(&server);
        t.submit("hello");
        t.wait_prompt(2, terminal::DEADLINE);
        t.submit("/cost");
        if zh {
            t.wait_for("本会话：1 轮，1 次请求 · 输入 1200");
        } else {
            let screen = t.wait_for("session: 1 turn, 1 request · in 1200");
            assert!(!screen.contains("1 turns") && !screen.contains("1 requests"));
        }
    }
}

#[test]
fn switching_provider_names_that_providers_key_variable() {
    for (zh, expected) in [
        (
            false,
            "cannot switch to provider openai: set OPENAI_API_KEY in the environment or a .env file",
        ),
        (
            true,
            "无法切换到提供商 openai：请在环境变量或 .env 文件中设置 OPENAI_API_KEY",
        ),
    ] {
        let sandbox = Sandbox::new();
        if zh {
            in_chinese(&sandbox);
        }
        let server = ScriptedServer::start();
        let t = sandbox.start_with(&server, &[("PAICLI_API_KEY", "sk-test-1234567890")]);
        t.submit("/model openai gpt-4o");
        let screen = t.wait_until("the key hint", terminal::DEADLINE, |s| {
            joined(s).contains(expected)
        });
        let after = &screen[screen.find("/model openai").unwrap()..];
        assert!(!after.contains("PAICLI_API_KEY"), "{screen}");
    }
}

#[test]
fn config_shows_the_output_limit_requests_carry() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/config max_output");
    let screen = t.wait_for("llm.max_output_tokens");
    let row = screen
        .lines()
        .find(|l| l.starts_with("llm.max_output_tokens"))
        .unwrap();
    assert!(row.contains("= 4096"), "{screen}");
    assert!(!row.contains("(default)"), "{screen}");
}

#[test]
fn help_lists_ctrl_o_in_both_languages_and_far_typos_get_no_guess() {
    for zh in [false, true] {
        let sandbox = Sandbox::new();
        if zh {
            in_chinese(&sandbox);
        }
        let server = ScriptedServer::start();
        let t = sandbox.start(&server);
        t.submit("/help");
        if zh {
            t.wait_for("Ctrl+O 完整显示最近的工具结果");
            t.submit("/foo");
            let screen = t.wait_for("未知命令 /foo（/help）");
            assert!(!screen.contains("/fork？"), "{screen}");
        } else {
            t.wait_for("Ctrl+O shows the last tool result");
            t.submit("/foo");
            let screen = t.wait_for("unknown command /foo (/help)");
            assert!(!screen.contains("did you mean /fork"), "{screen}");
            t.submit("/modle");
            t.wait_for("unknown command /modle; did you mean /model?");
        }
    }
}

#[test]
fn a_mention_says_it_was_attached_and_leaving_says_how_to_resume() {
    for zh in [false, true] {
        let sandbox = Sandbox::new();
        if zh {
            in_chinese(&sandbox);
        }
        let server = ScriptedServer::with_replies([Reply::text("Alpha beta it says.")]);
        let t = sandbox.start(&server);
        t.submit("summarize @notes.txt");
        let screen = t.wait_prompt(2, terminal::DEADLINE);
        let attached = if zh {
            "⎿ 已附加 notes.txt"
        } else {
            "⎿ attached notes.txt"
        };
        assert!(screen.contains(attached), "{screen}");
        t.submit("/exit");
        t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
        let hint = if zh {
            "用 `paicli -c`"
        } else {
            "resume this conversation with `paicli -c`"
        };
        assert!(t.screen().contains(hint), "{}", t.screen());
    }
    // Nothing said, nothing to resume: no hint.
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    assert!(!t.screen().contains("paicli -c"), "{}", t.screen());
}

#[test]
fn forks_are_marked_and_resume_says_enter_keeps_the_conversation() {
    let sandbox = Sandbox::new();
    let server =
        ScriptedServer::with_replies([Reply::text("First answer."), Reply::text("Second answer.")]);
    let t = sandbox.start(&server);
    t.submit("first question");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/fork");
    let screen = t.wait_for("forked: this is now session");
    let line = screen
        .lines()
        .find(|l| l.starts_with("forked: this is now session"))
        .unwrap();
    let original = line.split("; session ").nth(1).unwrap();
    let original = original.split_whitespace().next().unwrap().to_string();
    t.submit("/sessions");
    let screen = t.wait_for(&format!("[fork of {original}]"));
    assert_eq!(screen.matches("[fork of").count(), 1, "{screen}");
    t.submit("/resume");
    let screen = t.wait_for("Enter alone, ESC or Ctrl-C: keep this conversation");
    assert!(!screen.contains("new session): "), "{screen}");
    t.keys(&["Enter"]);
    t.wait_prompt(5, terminal::DEADLINE);
    t.submit("second question");
    t.wait_for("Second answer.");
    // The fork went on with the first exchange: Enter kept the conversation.
    let messages = server.chat_requests()[1].body["messages"].to_string();
    assert!(messages.contains("First answer."), "{messages}");
    drop(t);

    in_chinese(&sandbox);
    let t = sandbox.start(&server);
    t.submit("/sessions");
    t.wait_for(&format!("[分叉自 {original}]"));
    t.submit("/resume");
    t.wait_for("直接回车、ESC 或 Ctrl-C：保留当前对话");
}

#[test]
fn continue_shows_the_last_answer_rendered_not_as_markdown() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text(
        "# Summary\n\nThe answer is **forty-two**.\n\n- first point\n- second point\n",
    )]);
    let t = sandbox.start(&server);
    t.submit("what is it?");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    drop(t);
    let t = Terminal::start_with_args(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[],
        &["-c"],
    );
    let screen = t.wait_for("The answer is forty-two.");
    assert!(!screen.contains("**forty-two**"), "{screen}");
    assert!(screen.contains("• first point"), "{screen}");
}

#[test]
fn export_holds_tool_results_as_read_without_the_models_boundary() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "read_file", json!({"path": "notes.txt"}))]),
        Reply::text("It says alpha beta."),
    ]);
    let t = sandbox.start(&server);
    t.submit("read the notes");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/export");
    t.wait_for("conversation exported to");
    let dir = sandbox.paicli_home().join("exports");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let md = std::fs::read_to_string(file).unwrap();
    assert!(md.contains("### Tool result (c1)"), "{md}");
    assert!(md.contains("alpha beta"), "{md}");
    assert!(!md.contains("<tool_result"), "{md}");
    assert!(!md.contains("untrusted-data"), "{md}");
}

#[test]
fn side_by_side_reads_name_their_files_in_call_order() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.project.path().join("second.txt"), "two\n").unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("r1", "read_file", json!({"path": "notes.txt"})),
            ("r2", "read_file", json!({"path": "second.txt"})),
        ]),
        Reply::text("Read both."),
    ]);
    let t = sandbox.start(&server);
    t.submit("read both");
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    let first = screen.find("⎿ read_file notes.txt ok");
    let second = screen.find("⎿ read_file second.txt ok");
    assert!(
        first.is_some() && second.is_some() && first < second,
        "{screen}"
    );
}

#[test]
fn the_time_spent_answering_the_prompt_is_not_the_commands_duration() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({"command": "true"}))]),
        Reply::text("Ran it."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("run true");
    t.wait_until("the approval prompt", terminal::DEADLINE, |s| {
        s.contains("Approve? [y/Enter]") && s.trim_end().ends_with("[?] keys")
    });
    // The person reads the question for a while before answering.
    std::thread::sleep(Duration::from_millis(1500));
    t.keys(&["y"]);
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    let line = screen
        .lines()
        .find(|l| l.contains("⎿ execute_command ok ·"))
        .unwrap_or_else(|| panic!("no result line:\n{screen}"));
    assert!(
        line.contains(" ms ·"),
        "a command of milliseconds shows seconds: {line}"
    );
}

/// The `/policy` rows printed after the command, as the terminal shows them (rows not joined).
fn policy_rows(t: &Terminal, last: &str) -> Vec<String> {
    t.wait_until("the policy", terminal::DEADLINE, |_| {
        t.rows().iter().any(|r| r.contains(last))
    });
    let rows = t.rows();
    let start = rows
        .iter()
        .position(|r| r.starts_with("› /policy"))
        .unwrap();
    rows[start + 1..].to_vec()
}

/// Names `/policy` lists that a wrap inside a word would cut in two.
const WHOLE: &[&str] = &[
    "DOCKER_HOST",
    "WAYLAND_DISPLAY",
    "XDG_RUNTIME_DIR",
    "DBUS_SESSION_BUS_ADDRESS",
    "project-trust.json",
    "settings.local.json",
    ".pre-commit-config.yaml",
    "runConfigurations/",
];

fn assert_fits_and_keeps_names_whole(rows: &[String]) {
    use unicode_width::UnicodeWidthStr;
    for row in rows {
        assert!(row.width() <= 80, "{row}");
    }
    for name in WHOLE {
        assert!(
            rows.iter().any(|r| r.contains(name)),
            "{name} is cut:\n{}",
            rows.join("\n")
        );
    }
}

#[test]
fn policy_wraps_between_words_and_speaks_chinese_at_80_columns() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.resize(80, 70);
    t.submit("/policy");
    let rows = policy_rows(&t, "environment)");
    let text = rows.join("\n");
    assert!(
        text.contains("always allowed ([approvals] allow):"),
        "{text}"
    );
    assert!(
        text.contains("allowed in this project ([approvals.projects]):"),
        "{text}"
    );
    assert_fits_and_keeps_names_whole(&rows);
    drop(t);

    in_chinese(&sandbox);
    let t = sandbox.start(&server);
    t.resize(80, 70);
    t.submit("/policy");
    let rows = policy_rows(&t, "移除）");
    let text = rows.join("\n");
    assert!(text.contains("始终允许（[approvals] allow）："), "{text}");
    assert!(
        text.contains("本项目允许（[approvals.projects]）："),
        "{text}"
    );
    assert!(!text.contains("(this project)"), "{text}");
    assert_fits_and_keeps_names_whole(&rows);
}

#[test]
fn a_long_paste_is_folded_on_screen_and_sent_whole() {
    for zh in [false, true] {
        let sandbox = Sandbox::new();
        if zh {
            in_chinese(&sandbox);
        }
        let server = ScriptedServer::with_replies([Reply::text("Two hundred lines.")]);
        let t = sandbox.start(&server);
        let pasted: String = (1..=200).map(|i| format!("pasted row {i}\n")).collect();
        t.keys(&["-l", "summarize "]);
        t.paste(&pasted);
        let marker = if zh {
            "[已粘贴 200 行 #1]"
        } else {
            "[pasted 200 lines #1]"
        };
        t.wait_for(&format!("› summarize {marker}"));
        t.keys(&["-l", " please"]);
        t.keys(&["Enter"]);
        t.wait_for("Two hundred lines.");
        let screen = t.screen();
        assert!(!screen.contains("pasted row 150"), "{screen}");
        let user = server.chat_requests()[0].body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap()
            .to_string();
        assert_eq!(user, format!("summarize {pasted} please"));
    }
}

#[test]
fn after_two_resizes_the_answer_wraps_for_the_last_width() {
    let sandbox = Sandbox::new();
    let words: Vec<String> = (1..=60).map(|i| format!("w{i:02}")).collect();
    let server = ScriptedServer::with_replies([Reply::text(words.join(" "))
        .chunk_chars(4)
        .chunk_delay(Duration::from_millis(40))]);
    let t = sandbox.start(&server);
    t.resize(200, 50);
    t.submit("stream slowly");
    t.wait_for("w05");
    // Narrowed while the answer streams (a delta arrives at that width), then widened back.
    t.resize(60, 50);
    t.wait_for("w12");
    t.resize(200, 50);
    t.wait_prompt(2, terminal::DEADLINE);
    let rows = t.rows();
    let answer: Vec<&String> = rows.iter().filter(|r| r.contains("w3")).collect();
    assert_eq!(
        answer.len(),
        1,
        "the answer wraps for 60 columns:\n{}",
        rows.join("\n")
    );
    let first = rows.iter().find(|r| r.starts_with("w01")).unwrap();
    assert!(first.chars().count() > 60, "{}", rows.join("\n"));
}

#[test]
fn two_quick_resizes_at_the_approval_prompt_leave_the_status_line_at_the_last_width() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({"command": "true"}))]),
        Reply::text("Ran it."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.resize(60, 50);
    t.submit("run true");
    t.wait_until("the approval prompt", terminal::DEADLINE, |s| {
        s.contains("Approve? [y/Enter]") && s.trim_end().ends_with("[?] keys")
    });
    // Quick: the second before the first has reached the program; answered once the window has its width.
    t.resize_now(120, 50);
    t.resize(200, 50);
    t.keys(&["y"]);
    t.wait_prompt(2, terminal::DEADLINE);
    let rows = t.rows();
    let status = rows
        .iter()
        .find(|r| r.starts_with("scripted-model · ctx"))
        .unwrap_or_else(|| panic!("no status line:\n{}", rows.join("\n")));
    assert!(
        status.contains("ask mode (shift+tab)"),
        "{}",
        rows.join("\n")
    );
}
