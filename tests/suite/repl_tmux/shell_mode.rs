//! `!command` at the prompt: the person's own shell command, run through the same command guard, approval and
//! sandbox as `execute_command`, its output shown, and carried to the model with the next message.

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

fn first_user_message(server: &ScriptedServer) -> String {
    let body = &server.chat_requests()[0].body;
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_bang_command_runs_in_the_shell_and_its_output_goes_with_the_next_message() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("I saw it.")]);
    let t = sandbox.start(&server);
    t.submit("!printf 'from-%s\\n' shell; cat notes.txt");
    let screen = t.wait_for("the command and its output go to the model with your next message");
    assert!(screen.contains("⎿ execute_command ok"), "{screen}");
    assert!(screen.contains("from-shell"), "{screen}");
    assert!(screen.contains("alpha beta"), "{screen}");
    assert_eq!(server.chat_requests().len(), 0, "nothing is sent yet");
    t.submit("what did it print?");
    t.wait_for("I saw it.");
    let user = first_user_message(&server);
    assert!(
        user.starts_with(
            "The person ran this shell command at the prompt themselves: `printf 'from-%s\\n' shell; cat notes.txt`"
        ),
        "{user}"
    );
    assert!(
        user.contains("<tool_result tool=\"execute_command\" trust=\"untrusted-data\">"),
        "{user}"
    );
    assert!(user.contains("from-shell"), "{user}");
    assert!(user.ends_with("what did it print?"), "{user}");
    assert!(!user.starts_with('!'), "{user}");
}

#[test]
fn the_command_guard_and_the_approval_judge_the_persons_command_too() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("Nothing ran.")]);
    let t = sandbox.start(&server);
    t.submit("!rm -rf ~");
    let screen = t.wait_for("⎿ execute_command denied");
    assert!(screen.contains("rm-recursive-root"), "{screen}");
    assert!(!screen.contains("go to the model with your next message"));
    drop(t);

    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("!touch made.txt");
    t.wait_until("the approval prompt", terminal::DEADLINE, |s| {
        s.contains("Approve? [y/Enter]") && s.trim_end().ends_with("[?] keys")
    });
    t.keys(&["n"]);
    t.wait_for("⎿ execute_command denied");
    t.wait_prompt(2, terminal::DEADLINE);
    assert!(!sandbox.project.path().join("made.txt").exists());
    t.submit("go on");
    t.wait_for("Nothing ran.");
    let user = first_user_message(&server);
    assert_eq!(user, "go on", "a refused command is not carried");
}

#[test]
fn a_bare_bang_explains_itself_and_chinese_says_where_the_output_goes() {
    let sandbox = Sandbox::new();
    let home = sandbox.paicli_home();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[ui]\nlanguage = \"zh\"\n").unwrap();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("!");
    t.wait_for("请在 ! 后输入 shell 命令（例如 !ls）");
    t.submit("!echo 你好");
    let screen = t.wait_for("该命令及其输出会随你的下一条消息发给模型");
    assert!(screen.contains("你好"), "{screen}");
    assert_eq!(server.chat_requests().len(), 0);
}
