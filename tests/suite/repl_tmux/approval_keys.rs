//! The approval prompt as key presses in the real terminal: ESC and Ctrl-C at the prompt cancel the task and leave
//! the keyboard whole (the blocker of issue 14), every answer key, the diff before the question, `p` saved for the
//! next session, `auto` asking in the REPL, and text typed while a task runs.

use serde_json::json;

use super::terminal::{self, Terminal};
use super::{Sandbox, tool_messages};
use crate::support::{Reply, ScriptedServer};

fn approvals(screen: &str) -> usize {
    screen.matches("Approve? [y/Enter]").count()
}

fn wait_approvals(t: &Terminal, n: usize) -> String {
    t.wait_until(&format!("approval prompt #{n}"), terminal::DEADLINE, |s| {
        approvals(s) >= n && s.trim_end().ends_with("[?] keys")
    })
}

fn write_call(id: &str, path: &str) -> Reply {
    Reply::tool_calls([(id, "write_file", json!({"path": path, "content": "made\n"}))])
}

fn cancel_at_the_prompt_then_three_tasks_ask_and_run(key: &str) {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "edit_file",
            json!({"path": "notes.txt", "old_text": "beta", "new_text": "gamma"}),
        )]),
        write_call("call_2", "two.txt"),
        Reply::text("Made two."),
        write_call("call_3", "three.txt"),
        Reply::text("Made three."),
        write_call("call_4", "four.txt"),
        Reply::text("Made four."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("change notes");
    let screen = wait_approvals(&t, 1);
    // The diff against the real file comes before the question.
    let diff = screen.find("-alpha beta").expect("the diff is shown");
    assert!(screen[diff..].contains("+alpha gamma"), "{screen}");
    assert!(
        diff < screen.find("Approve? [y/Enter]").unwrap(),
        "{screen}"
    );
    t.keys(&[key]);
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("denied; the task is cancelled"), "{screen}");
    assert!(screen.contains("cancelled by user"), "{screen}");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("notes.txt")).unwrap(),
        "alpha beta\n"
    );
    for (n, name) in [(2, "two"), (3, "three"), (4, "four")] {
        t.submit(&format!("make {name}"));
        wait_approvals(&t, n);
        t.keys(&["y"]);
        t.wait_for(&format!("Made {name}."));
        t.wait_prompt(n + 1, terminal::DEADLINE);
        assert_eq!(
            std::fs::read_to_string(sandbox.project.path().join(format!("{name}.txt"))).unwrap(),
            "made\n"
        );
    }
    // Every typed task reached the model: nothing was eaten by a reader left behind.
    let users: Vec<String> = server
        .chat_requests()
        .iter()
        .map(|r| {
            let messages = r.body["messages"].as_array().unwrap();
            let last_user = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
            last_user["content"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    for name in ["two", "three", "four"] {
        assert!(
            users.iter().any(|u| u == &format!("make {name}")),
            "{users:?}"
        );
    }
}

#[test]
fn ctrl_c_at_the_approval_prompt_cancels_and_three_more_tasks_ask_normally() {
    cancel_at_the_prompt_then_three_tasks_ask_and_run("C-c");
}

#[test]
fn esc_at_the_approval_prompt_cancels_and_three_more_tasks_ask_normally() {
    cancel_at_the_prompt_then_three_tasks_ask_and_run("Escape");
}

#[test]
fn y_n_r_a_and_m_reach_the_tools_and_the_model() {
    let sandbox = Sandbox::new();
    let cmd = |id: &str, line: &str| {
        Reply::tool_calls([(
            id.to_string(),
            "execute_command",
            json!({ "command": line }),
        )])
    };
    let server = ScriptedServer::with_replies([
        cmd("c1", "touch yes.txt"),
        cmd("c2", "mkdir no-dir"),
        cmd("c3", "mkdir reason-dir"),
        cmd("c4", "touch a1.txt"),
        cmd("c5", "touch a2.txt"),
        write_call("c6", "m.txt"),
        Reply::text("All done."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("do the things");
    wait_approvals(&t, 1);
    t.keys(&["y"]);
    wait_approvals(&t, 2);
    t.keys(&["n"]);
    wait_approvals(&t, 3);
    t.keys(&["r"]);
    t.wait_for("Reason for the model");
    t.submit("use a temp dir instead");
    let screen = wait_approvals(&t, 4);
    assert!(
        screen.contains("[a] yes, and allow commands starting with `touch` this session"),
        "{screen}"
    );
    t.keys(&["a"]);
    // `touch a2.txt` runs on the session rule; the write asks.
    let screen = wait_approvals(&t, 5);
    assert!(screen.contains("new file m.txt (1 lines)"), "{screen}");
    t.keys(&["m"]);
    t.wait_for("Arguments as JSON");
    t.keys(&["C-u"]);
    t.keys(&["-l", r#"{"path": "m.txt", "content": "edited by me"#]);
    t.keys(&["Enter"]);
    t.wait_for("invalid JSON");
    t.keys(&["-l", "\"}"]);
    t.keys(&["Enter"]);
    t.wait_for("All done.");
    let root = sandbox.project.path();
    assert!(root.join("yes.txt").exists());
    assert!(!root.join("no-dir").exists() && !root.join("reason-dir").exists());
    assert!(root.join("a1.txt").exists() && root.join("a2.txt").exists());
    assert_eq!(
        std::fs::read_to_string(root.join("m.txt")).unwrap(),
        "edited by me"
    );
    let after_r = tool_messages(&server, 3);
    assert!(
        after_r.iter().any(|m| m.contains("use a temp dir instead")),
        "the reason reaches the model: {after_r:?}"
    );
    assert_eq!(approvals(&t.screen()), 5);
}

#[test]
fn p_saves_a_project_rule_in_the_user_config_and_the_next_session_does_not_ask() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({"command": "touch p1.txt"}))]),
        Reply::text("First."),
        Reply::tool_calls([("c2", "execute_command", json!({"command": "touch p2.txt"}))]),
        Reply::text("Second."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("touch one");
    let screen = wait_approvals(&t, 1);
    assert!(
        screen.contains("[p] always allow it in this project"),
        "{screen}"
    );
    t.keys(&["p"]);
    t.wait_for("First.");
    t.wait_prompt(2, terminal::DEADLINE);
    t.keys(&["C-d"]);
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    let config = std::fs::read_to_string(sandbox.paicli_home().join("config.toml")).unwrap();
    let root = sandbox.project.path().canonicalize().unwrap();
    assert!(
        config.contains("[approvals.projects]")
            && config.contains(&format!("\"{}\" = [\"touch\"]", root.display())),
        "{config}"
    );

    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("touch two");
    let screen = t.wait_for("Second.");
    assert_eq!(approvals(&screen), 0, "{screen}");
    assert!(sandbox.project.path().join("p2.txt").exists());
}

#[test]
fn auto_mode_asks_the_person_when_the_classifier_is_unsure() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({"command": "mkdir built"}))]),
        Reply::text(r#"{"decision":"ask","reason":"creates a folder"}"#),
        Reply::text("Built."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "auto")]);
    t.submit("build");
    let screen = wait_approvals(&t, 1);
    assert!(
        screen.contains("why asked: auto mode asks you: the safety classifier wants a person to decide: creates a folder"),
        "{screen}"
    );
    t.keys(&["y"]);
    t.wait_for("Built.");
    assert!(sandbox.project.path().join("built").is_dir());
}

#[test]
fn text_typed_while_a_task_runs_is_queued_or_put_back_in_the_prompt() {
    let sandbox = Sandbox::new();
    let marker = format!("sleep 1.{}", fastrand::u32(100_000..999_999));
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "execute_command", json!({ "command": marker }))]),
        Reply::text("First done."),
        Reply::text("Second answer."),
        Reply::text("Third answer."),
    ]);
    let t = sandbox.start(&server);
    t.submit("first");
    t.wait_for("● execute_command");
    t.keys(&["-l", "second task"]);
    t.keys(&["Enter"]);
    t.keys(&["-l", "draft"]);
    t.wait_for("First done.");
    t.wait_for("Second answer.");
    let screen = t.wait_until("the draft back in the prompt", terminal::DEADLINE, |s| {
        s.trim_end().ends_with("› draft")
    });
    assert!(screen.contains("› second task"), "{screen}");
    let sent = &server.chat_requests()[2].body["messages"];
    let last = sent.as_array().unwrap().last().unwrap();
    assert_eq!(last["content"], "second task");
    // The draft is in the line editor: finishing it sends it.
    t.keys(&["-l", " done"]);
    t.keys(&["Enter"]);
    t.wait_for("Third answer.");
    let sent = &server.chat_requests()[3].body["messages"];
    assert_eq!(
        sent.as_array().unwrap().last().unwrap()["content"],
        "draft done"
    );
}
