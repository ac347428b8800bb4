//! The completion menu: Tab lists the matching commands with their descriptions, and `@` paths, in both languages.

use super::Sandbox;
use crate::support::ScriptedServer;

#[test]
fn tab_lists_matching_commands_with_descriptions_then_completes() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.project.path().join("src")).unwrap();
    std::fs::write(sandbox.project.path().join("src/main.rs"), "").unwrap();
    std::fs::write(sandbox.project.path().join("src/lib.rs"), "").unwrap();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);

    t.keys(&["-l", "/"]);
    t.keys(&["Tab"]);
    let screen = t.wait_for("/trust");
    // The name column is as wide as the widest listed name, so rows are matched as name, spaces, description.
    for (name, description) in [
        ("/help", "show commands and keys"),
        ("/cost", "tokens used and estimated cost of this session"),
        ("/model", "show, list or switch the model"),
    ] {
        let listed = screen.lines().any(|line| {
            line.strip_prefix(name).is_some_and(|rest| {
                rest.starts_with("  ") && rest.trim_start().starts_with(description)
            })
        });
        assert!(listed, "{name} {description} missing:\n{screen}");
    }
    // Each command once: the aliases of listed commands are not rows of their own.
    assert!(!screen.contains("/ctx "), "{screen}");

    t.keys(&["C-u"]);
    t.keys(&["-l", "/mo"]);
    t.keys(&["Tab"]);
    let screen = t.wait_for("/model  show, list or switch the model");
    assert!(
        screen.contains("/mode   show or switch the approval mode"),
        "{screen}"
    );
    // The common prefix was completed inline, and the line is still there to finish.
    assert!(screen.contains("› /mode\n"), "{screen}");
    t.keys(&["-l", "l"]);
    t.keys(&["Tab"]);
    t.wait_for("› /model ");

    t.keys(&["C-u"]);
    t.keys(&["-l", "read @src/"]);
    t.keys(&["Tab"]);
    let screen = t.wait_for("lib.rs");
    assert!(screen.contains("main.rs"), "{screen}");
    assert_eq!(
        server.chat_requests().len(),
        0,
        "completion never reaches the model"
    );
}

#[test]
fn the_completion_menu_speaks_chinese() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start_with(&server, &[("LC_ALL", "zh_CN.UTF-8")]);
    t.keys(&["-l", "/c"]);
    t.keys(&["Tab"]);
    let screen = t.wait_for("/cost");
    assert!(
        screen.contains("/cost     本会话的 token 用量和估算费用"),
        "{screen}"
    );
    assert!(
        screen.contains("/clear    开始新对话（清空历史）"),
        "{screen}"
    );
}
