//! Custom commands from files and `/skill`, typed at the real prompt like a new user would.

use super::Sandbox;
use crate::support::{Reply, ScriptedServer};

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The text of the last user message of chat request `index`.
fn last_user_text(server: &ScriptedServer, index: usize) -> String {
    let body = &server.chat_requests()[index].body;
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .unwrap()
}

#[test]
fn a_command_file_runs_as_a_slash_command_with_its_arguments() {
    let sandbox = Sandbox::new();
    let project = sandbox.project.path();
    write(
        &project.join(".paicli/commands/proofread.md"),
        "---\ndescription: Review one file for bugs\n---\nReview $ARGUMENTS for bugs; start with $1.\n",
    );
    // A file never replaces a built-in: warned about once, at start-up.
    write(
        &project.join(".claude/commands/model.md"),
        "switch models\n",
    );
    let server = ScriptedServer::with_replies([Reply::text("Looks fine.")]);
    let t = sandbox.start(&server);
    let banner = t.screen();
    assert!(
        banner.contains("model.md is ignored: /model is a built-in command"),
        "{banner}"
    );

    t.keys(&["-l", "/proof"]);
    t.keys(&["Tab"]);
    t.wait_for("› /proofread ");
    t.keys(&["C-u"]);
    t.submit("/help");
    let screen = t.wait_for("Commands from files");
    assert!(
        screen.contains("/proofread [args]") && screen.contains("Review one file for bugs"),
        "{screen}"
    );

    t.submit("/proofread src/lib.rs");
    t.wait_for("Looks fine.");
    t.wait_prompt(3, super::terminal::DEADLINE);
    assert_eq!(
        last_user_text(&server, 0),
        "Review src/lib.rs for bugs; start with src/lib.rs."
    );
    // Ctrl-C on a half-typed command line drops it (and arms the exit): nothing is sent.
    t.keys(&["-l", "/proofread half"]);
    t.keys(&["C-c"]);
    t.wait_for("Ctrl-C");
    assert_eq!(server.chat_requests().len(), 1);
}

#[test]
fn skill_lists_layers_and_skipped_files_and_off_leaves_the_catalog() {
    let sandbox = Sandbox::new();
    let project = sandbox.project.path();
    write(
        &project.join(".paicli/skills/deploy/SKILL.md"),
        "---\nname: deploy\ndescription: Deploys to staging.\n---\nSteps.\n",
    );
    write(
        &project.join(".claude/skills/broken/SKILL.md"),
        "---\nname: other\ndescription: x\n---\n",
    );
    let server = ScriptedServer::with_replies([Reply::text("one"), Reply::text("two")]);
    let t = sandbox.start(&server);
    assert!(
        t.screen().contains("broken/SKILL.md skipped"),
        "{}",
        t.screen()
    );

    t.submit("/skill list");
    // The banner already warned about the broken file; the listing names it again under `skipped:`.
    let screen = t.wait_until("the skill list", super::terminal::DEADLINE, |s| {
        s.contains("web-access [on]") && s.matches("does not match its folder").count() == 2
    });
    assert!(screen.contains("deploy [on] .paicli/skills"), "{screen}");
    assert!(screen.contains("  web-access [on] built-in\n"), "{screen}");
    assert!(
        screen.contains("`name: other` does not match its folder `broken`"),
        "{screen}"
    );

    t.submit("hello");
    t.wait_for("one");
    t.submit("/skill off deploy");
    t.wait_for("skill `deploy` is off");
    let config = std::fs::read_to_string(sandbox.paicli_home().join("config.toml")).unwrap();
    assert!(config.contains("disabled = [\"deploy\"]"), "{config}");
    t.submit("again");
    t.wait_for("two");
    let system = |i: usize| {
        server.chat_requests()[i].body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(system(0).contains("- deploy: Deploys to staging."));
    assert!(!system(1).contains("deploy"), "{}", system(1));
    assert!(system(1).contains("- web-access: "));

    t.submit("/skill nonsense");
    t.wait_for("usage: /skill");
}
