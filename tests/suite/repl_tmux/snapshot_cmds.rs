//! `/rewind` (and Esc Esc), `/snapshot` and `/restore` in the real terminal.

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

fn notes(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.project.path().join("notes.txt")).unwrap()
}

fn write_notes(id: &str, text: &str) -> Reply {
    Reply::tool_calls([(
        id,
        "write_file",
        json!({"path": "notes.txt", "content": text}),
    )])
}

/// Esc Esc at the empty prompt: the first press shows what a second one does (on the prompt's line), the second
/// opens the picker.
fn esc_esc(t: &terminal::Terminal) {
    t.keys(&["Escape"]);
    t.wait_until("the rewind hint", terminal::DEADLINE, |s| {
        s.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with('›') && l.contains("ESC again to rewind"))
    });
    t.keys(&["Escape"]);
}

#[test]
fn esc_esc_rewinds_code_and_conversation_and_the_next_request_leaves_the_later_turn_out() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        write_notes("c1", "first\n"),
        Reply::text("one done"),
        write_notes("c2", "second\n"),
        Reply::text("two done"),
        Reply::text("fresh start"),
    ]);
    let t = sandbox.start(&server);
    t.submit("first task");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("second task");
    t.wait_prompt(3, terminal::DEADLINE);
    assert_eq!(notes(&sandbox), "second\n");

    esc_esc(&t);
    t.wait_for("Rewind to before which message?");
    let screen = t.screen();
    assert!(
        screen.contains(" 1. first task") && screen.contains(" 2. second task"),
        "{screen}"
    );
    // ESC at the picker cancels and changes nothing.
    t.keys(&["Escape"]);
    t.wait_for("cancelled by user");
    t.wait_prompt(4, terminal::DEADLINE);
    assert_eq!(notes(&sandbox), "second\n");

    // Ctrl-C at the second question cancels too.
    t.submit("/rewind");
    t.wait_until("the picker again", terminal::DEADLINE, |s| {
        s.matches("Rewind to before which message?").count() == 2
    });
    t.keys(&["1", "Enter"]);
    t.wait_for("Rewind [c] code");
    t.keys(&["C-c"]);
    t.wait_until("the second cancel", terminal::DEADLINE, |s| {
        s.matches("cancelled by user").count() == 2
    });
    t.wait_prompt(5, terminal::DEADLINE);
    assert_eq!(notes(&sandbox), "second\n");

    esc_esc(&t);
    t.wait_until("the picker a third time", terminal::DEADLINE, |s| {
        s.matches("Rewind to before which message?").count() == 3
    });
    t.keys(&["2", "Enter"]);
    t.wait_for("Rewind [c] code");
    t.keys(&["b"]);
    let screen = t.wait_for("conversation rewound");
    assert!(screen.contains("M notes.txt"), "{screen}");
    assert_eq!(notes(&sandbox), "first\n", "the file is back");

    t.wait_prompt(6, terminal::DEADLINE);
    t.submit("third task");
    t.wait_for("fresh start");
    let requests = server.chat_requests();
    let sent: Vec<String> = requests.last().unwrap().body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(sent.iter().any(|m| m == "first task"), "{sent:?}");
    assert!(
        sent.iter().all(|m| m != "second task" && m != "two done"),
        "{sent:?}"
    );
    assert_eq!(sent.last().unwrap(), "third task");
}

#[test]
fn snapshot_lists_restore_puts_files_back_and_clean_asks_first() {
    let sandbox = Sandbox::new();
    let server =
        ScriptedServer::with_replies([write_notes("c1", "changed\n"), Reply::text("done")]);
    let t = sandbox.start(&server);
    t.submit("/snapshot");
    t.wait_for("no snapshots of this project yet");
    t.submit("change the notes");
    t.wait_prompt(3, terminal::DEADLINE);
    t.submit("/snapshot");
    let screen = t.wait_until("the second listing", terminal::DEADLINE, |s| {
        s.matches("store size on disk").count() == 2
    });
    assert!(
        screen.contains("post-turn") && screen.contains("change the notes"),
        "{screen}"
    );
    assert!(screen.contains("pre-turn"), "{screen}");

    // 1 is the latest (after the turn), 2 the state before it.
    t.submit("/restore 2");
    let screen = t.wait_for("restored; /restore 2");
    assert!(screen.contains("M notes.txt +1 -1"), "{screen}");
    assert_eq!(notes(&sandbox), "alpha beta\n");
    let audit = std::fs::read_dir(sandbox.paicli_home().join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        audit.contains("snapshot_restore") && audit.contains("/restore 2"),
        "{audit}"
    );

    t.submit("/snapshot clean");
    t.wait_for("Remove every snapshot of this project? [y/N]");
    t.keys(&["n", "Enter"]);
    t.wait_for("cancelled by user");
    t.submit("/snapshot clean");
    t.wait_until("the second question", terminal::DEADLINE, |s| {
        s.matches("Remove every snapshot").count() == 2
    });
    t.keys(&["Escape"]);
    t.wait_until("the second cancel", terminal::DEADLINE, |s| {
        s.matches("cancelled by user").count() == 2
    });
    t.submit("/snapshot clean");
    t.wait_until("the third question", terminal::DEADLINE, |s| {
        s.matches("Remove every snapshot").count() == 3
    });
    t.keys(&["y", "Enter"]);
    t.wait_for("snapshots removed");
    t.submit("/snapshot");
    t.wait_until("the empty list again", terminal::DEADLINE, |s| {
        s.matches("no snapshots of this project yet").count() == 2
    });
}

/// After `/rewind` → code, the notice names the `/restore` that puts the files back as they were before it, and
/// that one does; `/help` names the same number; `revert_turn` with offset 1, the other undo it names, undoes the
/// last restore. Both languages.
fn rewind_code_is_undone_by_the_restore_it_names(env: &[(&str, &str)], texts: [&str; 4]) {
    let [picker, how, restored, help] = texts;
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        write_notes("c1", "first\n"),
        Reply::text("done"),
        Reply::tool_calls([("c2", "revert_turn", json!({"offset": 1}))]),
        Reply::text("reverted"),
    ]);
    let t = sandbox.start_with(&server, env);
    t.submit("first task");
    t.wait_prompt(2, terminal::DEADLINE);
    assert_eq!(notes(&sandbox), "first\n");

    t.submit("/rewind");
    t.wait_for(picker);
    t.keys(&["1", "Enter"]);
    t.wait_for(how);
    t.keys(&["c"]);
    t.wait_for(&format!("{restored}/restore 2"));
    assert_eq!(notes(&sandbox), "alpha beta\n", "rewound");
    t.wait_prompt(3, terminal::DEADLINE);

    t.submit("/restore 2");
    t.wait_until("the second restore", terminal::DEADLINE, |s| {
        s.matches(restored).count() == 2
    });
    assert_eq!(notes(&sandbox), "first\n", "the rewind is undone");

    t.submit("/help");
    t.wait_for(help);

    // The other undo the notice names: `revert_turn` with offset 1 undoes the last restore.
    t.submit("undo that restore");
    t.wait_for("reverted");
    assert_eq!(
        notes(&sandbox),
        "alpha beta\n",
        "revert_turn undid the /restore"
    );
    let result = &server.chat_requests()[3].body["messages"];
    let last = result.as_array().unwrap().last().unwrap()["content"].to_string();
    assert!(
        last.contains("calling revert_turn with offset 1 undoes this"),
        "{last}"
    );
}

#[test]
fn rewind_code_names_the_restore_that_undoes_it() {
    rewind_code_is_undone_by_the_restore_it_names(
        &[],
        [
            "Rewind to before which message?",
            "Rewind [c] code",
            "restored; ",
            "(undo with /restore 2)",
        ],
    );
}

#[test]
fn rewind_code_names_the_restore_that_undoes_it_in_chinese() {
    rewind_code_is_undone_by_the_restore_it_names(
        &[("LC_ALL", "zh_CN.UTF-8")],
        [
            "回退到哪条消息之前？",
            "回退 [c] 代码",
            "已恢复；",
            "（/restore 2 可撤销）",
        ],
    );
}
