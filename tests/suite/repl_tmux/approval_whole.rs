//! The approval prompt's whole-change key in the real terminal: a 300-line `write_file` in ask mode is folded
//! before the question; `v` (or Ctrl+O) shows all of it, through `$PAGER` (which gets the terminal and the keys)
//! or printed when no pager runs, and the same question is answerable afterwards; Ctrl-C in the pager does not
//! cancel the task.

use serde_json::json;

use super::Sandbox;
use super::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

fn long_content() -> String {
    (1..=300).map(|i| format!("line {i}\n")).collect()
}

fn long_write_server() -> ScriptedServer {
    ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "long.txt", "content": long_content()}),
        )]),
        Reply::text("Wrote it."),
    ])
}

/// The question is on the last line, `asked` times on the screen so far.
fn wait_question(t: &Terminal, question: &str, asked: usize) -> String {
    t.wait_until(&format!("question #{asked}"), terminal::DEADLINE, |s| {
        s.matches(question).count() >= asked
            && s.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.contains("[?]"))
    })
}

#[test]
fn the_pager_gets_the_whole_change_and_the_keys_then_the_question_returns() {
    let sandbox = Sandbox::new();
    let paged = sandbox.home.path().join("paged.txt");
    let pager = format!(
        "cat > '{}'; printf 'PAGER WAITING\\n'; read answer < /dev/tty; printf 'PAGER GOT %s\\n' \"$answer\"",
        paged.display()
    );
    let server = long_write_server();
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask"), ("PAGER", &pager)]);
    t.submit("write the long file");
    let screen = wait_question(&t, "Approve?", 1);
    assert!(screen.contains("[v] whole change"), "{screen}");
    assert!(screen.contains("more lines"), "folded first: {screen}");

    // Ctrl-C in the pager is the pager's: it stops it (the change is then printed), not the task.
    t.keys(&["v"]);
    t.wait_for("PAGER WAITING");
    t.keys(&["C-c"]);
    let screen = wait_question(&t, "Approve?", 2);
    assert!(!screen.contains("cancelled"), "{screen}");

    t.keys(&["v"]);
    t.wait_until("the pager again", terminal::DEADLINE, |s| {
        s.matches("PAGER WAITING").count() == 2
    });
    // The pager reads the terminal: the key is its own, not the prompt's.
    t.keys(&["q", "Enter"]);
    t.wait_for("PAGER GOT q");
    wait_question(&t, "Approve?", 3);
    // Coloured, as `less -R` shows it.
    let paged = std::fs::read_to_string(&paged).unwrap();
    let paged = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(&paged, "");
    assert!(paged.contains("long.txt"), "{paged}");
    assert!(
        paged.contains("+line 1\n") && paged.trim_end().ends_with("+line 300"),
        "{paged}"
    );

    t.keys(&["y"]);
    t.wait_for("Wrote it.");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("long.txt")).unwrap(),
        long_content()
    );
}

#[test]
fn without_a_pager_ctrl_o_prints_the_whole_change_in_chinese() {
    let sandbox = Sandbox::new();
    let server = long_write_server();
    let t = sandbox.start_with(
        &server,
        &[
            ("PAICLI_APPROVAL", "ask"),
            ("PAGER", "false"),
            ("LC_ALL", "zh_CN.UTF-8"),
        ],
    );
    t.submit("write the long file");
    let screen = wait_question(&t, "批准？", 1);
    assert!(screen.contains("[v] 查看完整改动"), "{screen}");
    t.keys(&["?"]);
    let screen = wait_question(&t, "批准？", 2);
    assert!(screen.contains("v、Ctrl+O"), "{screen}");

    t.keys(&["C-o"]);
    let screen = wait_question(&t, "批准？", 3);
    let last = screen.find("+line 300").expect("the last line is printed");
    assert!(screen[last..].contains("批准？"), "{screen}");
    assert!(screen.contains("+line 290"), "{screen}");

    t.keys(&["y"]);
    t.wait_for("Wrote it.");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("long.txt")).unwrap(),
        long_content()
    );
}
