//! Sub-agents' sidechains outlive the session's process: after `-c` the resumed conversation still holds the
//! `agent` call's result, and `/export` writes the sub-agent's own conversation after the lead's.

use serde_json::json;

use crate::suite::repl_tmux::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

#[test]
fn a_resumed_session_exports_its_sub_agents_work() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("a.txt"), "hello\n").unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_x",
            "agent",
            json!({"agent": "explore", "prompt": "Find where hello is", "description": "look"}),
        )]),
        // The explore agent's answer.
        Reply::text("SUBAGENT-FOUND-IT in a.txt"),
        Reply::text("The explorer reported back."),
    ]);
    let t = Terminal::start(&server, project.path(), home.path(), &[]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("explore the project");
    t.wait_for("The explorer reported back.");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    drop(t);

    let resumed = ScriptedServer::with_replies([Reply::text("Still here.")]);
    let t = Terminal::start_with_args(&resumed, project.path(), home.path(), &[], &["-c"]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("/export");
    t.wait_for("conversation exported to");
    let exports = home.path().join(".paicli/exports");
    let file = std::fs::read_dir(&exports)
        .unwrap()
        .flatten()
        .next()
        .expect("an export")
        .path();
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.contains("explore the project"), "{exported}");
    // The sidechain's heading names it (its file stem: a timestamp, the agent and the call).
    let sub = exported
        .find("# Sub-agent ")
        .unwrap_or_else(|| panic!("the sidechain is listed: {exported}"));
    assert!(
        exported[sub..]
            .lines()
            .next()
            .unwrap()
            .ends_with("explore-call_x"),
        "{exported}"
    );
    assert!(
        exported[sub..].contains("Find where hello is")
            && exported[sub..].contains("SUBAGENT-FOUND-IT in a.txt"),
        "the sub-agent's conversation follows: {exported}"
    );
    // What the session and the sub-agent spent is listed: the whole, then the sub-agent's under its heading.
    let total = exported
        .find("# Usage")
        .unwrap_or_else(|| panic!("{exported}"));
    assert!(total < sub, "{exported}");
    assert!(
        exported[total..sub].contains("- usage of scripted-model: in "),
        "{exported}"
    );
    assert!(
        exported[sub..].contains("- usage of scripted-model: in "),
        "{exported}"
    );
    // The resumed conversation still has the call's result.
    t.submit("and now?");
    t.wait_for("Still here.");
    let messages = resumed.chat_requests()[0].body["messages"].to_string();
    assert!(
        messages.contains("SUBAGENT-FOUND-IT in a.txt"),
        "{messages}"
    );
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}
