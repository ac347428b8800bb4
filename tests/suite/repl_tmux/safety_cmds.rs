//! `/mode`, `/hitl`, Shift+Tab, `/audit` and `/policy` in the real terminal.

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

fn count(screen: &str, needle: &str) -> usize {
    screen.matches(needle).count()
}

#[test]
fn shift_tab_cycles_the_mode_keeps_the_typed_line_and_the_new_mode_applies() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "out.txt", "content": "hi\n"}),
        )]),
        Reply::text("All done."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "auto")]);
    t.keys(&["-l", "write out.txt"]);
    t.keys(&["BTab"]);
    t.wait_for("approval mode: plan — read-only tools");
    t.wait_for("› write out.txt");
    t.keys(&["BTab"]);
    t.wait_for("approval mode: ask — every edit");
    t.keys(&["-l", " please"]);
    t.keys(&["Enter"]);
    // Ask mode: the edit, which auto mode would have run, now needs approval.
    t.wait_for("Approve? [y/Enter]");
    t.keys(&["y"]);
    t.wait_for("All done.");
    let user = server.chat_requests()[0].body["messages"][1]["content"].clone();
    assert_eq!(user, "write out.txt please");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("out.txt")).unwrap(),
        "hi\n"
    );
    t.wait_prompt(2, terminal::DEADLINE);
    // From ask, one key goes back to auto, never to full.
    t.keys(&["BTab"]);
    // The banner showed the mode once already.
    let screen = t.wait_until("auto", terminal::DEADLINE, |s| {
        count(s, "approval mode: auto — edits run") == 2
    });
    assert!(!screen.contains("approval mode: full"), "{screen}");
    t.submit("/mode full");
    let screen = t.wait_for("full mode: every call runs without asking");
    assert!(
        screen.contains("approval mode: full — everything runs"),
        "{screen}"
    );
    t.keys(&["BTab"]);
    t.wait_until("auto again", terminal::DEADLINE, |s| {
        count(s, "approval mode: auto — edits run") == 3
    });
}

#[test]
fn mode_and_hitl_show_and_switch_the_mode() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "auto")]);
    t.submit("/mode");
    let screen = t.wait_for("Shift+Tab at the prompt cycles");
    assert!(screen.contains("approval mode: auto"), "{screen}");
    assert!(screen.contains("* auto"), "{screen}");
    for line in [
        "  ask   every edit",
        "  plan  read-only",
        "  full  everything",
    ] {
        assert!(screen.contains(line), "{line}:\n{screen}");
    }
    t.submit("/mode full");
    t.wait_for("approval mode: full —");
    t.submit("/hitl on");
    t.wait_for("approval mode: ask —");
    t.submit("/hitl default");
    // The banner showed it once already.
    t.wait_until("auto again", terminal::DEADLINE, |s| {
        count(s, "approval mode: auto —") == 2
    });
    t.submit("/hitl");
    t.wait_until("the mode shown", terminal::DEADLINE, |s| {
        count(s, "approval mode: auto —") == 3
    });
    t.submit("/mode yolo");
    t.wait_for("expected ask, auto, plan or full, got \"yolo\"");
    t.submit("/hitl off");
    t.wait_for("unknown /hitl argument \"off\"");
    assert_eq!(server.chat_requests().len(), 0);
}

#[test]
fn audit_shows_the_latest_entries_one_per_line() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "audited.txt", "content": "x\n"}),
        )]),
        Reply::text("Written."),
    ]);
    let t = sandbox.start(&server);
    t.submit("/audit");
    t.wait_for("no audit entries yet in");
    t.submit("write the file");
    t.wait_for("Written.");
    t.wait_prompt(3, terminal::DEADLINE);
    t.submit("/audit");
    let screen = t.wait_for("\"path\":\"audited.txt\"");
    let line = screen
        .lines()
        .find(|l| l.contains("\"path\":\"audited.txt\""))
        .unwrap();
    assert!(line.contains(" allow "), "{line}");
    assert!(line.contains("ms  {"), "{line}");
    t.submit("/audit 0");
    t.wait_for("expected a positive number of entries, got \"0\"");
}

#[test]
fn policy_shows_the_mode_rules_session_approvals_and_guards() {
    let sandbox = Sandbox::new();
    let home = sandbox.paicli_home();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        "[approvals]\nallow = [\"cargo test\"]\ndeny = [\"tool:revert_turn\"]\n",
    )
    .unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "a.txt", "content": "a\n"}),
        )]),
        Reply::text("Saved it."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("/policy");
    let screen = t.wait_for("path fence");
    assert!(screen.contains("approval mode: ask"), "{screen}");
    assert!(screen.contains("    cargo test"), "{screen}");
    assert!(screen.contains("    tool:revert_turn"), "{screen}");
    assert!(
        screen.contains("this session (approved with `a`):\n    none"),
        "{screen}"
    );
    t.submit("write a");
    t.wait_for("Approve? [y/Enter]");
    t.keys(&["a"]);
    t.wait_for("Saved it.");
    t.wait_prompt(3, terminal::DEADLINE);
    t.submit("/policy");
    t.wait_for("    every `write_file` call");
}

#[test]
fn the_banner_names_refused_project_settings_and_trust_remembers_the_project() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project.path().join(".paicli")).unwrap();
    std::fs::write(
        sandbox.project.path().join(".paicli/config.toml"),
        "[approval]\nmode = \"full\"\n[lsp.servers.x]\ncommand = \"sh\"\n",
    )
    .unwrap();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    let screen = t.wait_for("`lsp.servers.x`");
    assert!(
        screen.contains("ignored `approval.mode`") && screen.contains(".paicli/config.toml"),
        "{screen}"
    );
    t.submit("/trust");
    t.wait_for("apply from the next session");
    let store = std::fs::read_to_string(sandbox.paicli_home().join("project-trust.json")).unwrap();
    let root = sandbox.project.path().canonicalize().unwrap();
    assert!(store.contains(&*root.to_string_lossy()), "{store}");
}
