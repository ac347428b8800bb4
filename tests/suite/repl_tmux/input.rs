//! Line input: multiline, tab completion, the history file (no secrets), the Chinese UI.

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

#[test]
fn trailing_backslash_continues_the_input_on_a_new_line() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("got both lines")]);
    let t = sandbox.start(&server);
    t.submit("line one \\");
    t.submit("line two");
    t.wait_for("got both lines");
    let user = server.chat_requests()[0].body["messages"][1]["content"].clone();
    assert_eq!(user, "line one \nline two");
}

#[test]
fn tab_completes_commands_and_project_paths() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("seen")]);
    let t = sandbox.start(&server);
    t.keys(&["-l", "/cos"]);
    t.keys(&["Tab"]);
    t.wait_for("› /cost");
    t.keys(&["Enter"]);
    t.wait_for("no prices known");
    t.keys(&["-l", "read @no"]);
    t.keys(&["Tab"]);
    t.wait_for("read @notes.txt");
    t.keys(&["Enter"]);
    t.wait_for("seen");
    let user = server.chat_requests()[0].body["messages"][1]["content"].clone();
    assert!(
        user.as_str().unwrap().contains("<file path=\"notes.txt\">"),
        "{user}"
    );
}

#[test]
fn history_file_keeps_tasks_but_not_secrets() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/nosuch token=abcdefgh12345678");
    t.wait_for("unknown command /nosuch");
    t.submit("/cost");
    t.wait_for("no prices known");
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    let history = std::fs::read_to_string(sandbox.paicli_home().join("history")).unwrap();
    assert!(history.contains("/cost"), "{history}");
    assert!(!history.contains("abcdefgh12345678"), "{history}");
}

#[test]
fn the_ui_speaks_chinese_in_a_chinese_locale() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start_with(&server, &[("LC_ALL", "zh_CN.UTF-8")]);
    t.submit("/cancel");
    t.wait_for("没有正在运行的任务");
    t.submit("/cost");
    t.wait_for("本会话：0 轮，0 次请求 · 输入 0 · 输出 0 · 缓存 0 · 推理 0");
    t.wait_for("费用：没有 scripted-model 的已知价格（价格表日期");
    t.submit("/help");
    let screen = t.wait_for("Shift+Tab 切换审批模式");
    // Two columns: at 110 columns the descriptions start after the capped name column (28 cells).
    let row = format!("  {:<28}  本会话的 token 用量和估算费用", "/cost");
    assert!(screen.contains(&row), "{screen}");
    t.submit("/modle");
    t.wait_for("错误：未知命令 /modle；你是不是想输入 /model？（/help）");
}

#[test]
fn esc_clears_a_half_typed_line_at_once_and_alt_enter_still_breaks_the_line() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("first answer"), Reply::text("second")]);
    let t = sandbox.start(&server);
    t.keys(&["-l", "half typed line"]);
    t.wait_for("› half typed line");
    // ESC alone clears the line; it does not wait for a second key (as an Alt prefix would).
    t.keys(&["Escape"]);
    t.wait_until("the line cleared", terminal::DEADLINE, |s| {
        terminal::at_prompt(s) && !s.contains("half typed")
    });
    t.submit("hello");
    t.wait_for("first answer");
    assert_eq!(
        server.chat_requests()[0].body["messages"][1]["content"],
        "hello"
    );
    t.wait_prompt(2, terminal::DEADLINE);
    // Alt+Enter (ESC and Enter in one write) is still a new line inside the input.
    t.keys(&["-l", "one"]);
    t.keys(&["M-Enter"]);
    t.keys(&["-l", "two"]);
    t.keys(&["Enter"]);
    t.wait_for("second");
    assert_eq!(
        server.chat_requests()[1].body["messages"][3]["content"],
        "one\ntwo"
    );
}
