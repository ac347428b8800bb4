//! `/review` in the real terminal: on a branch with committed and uncommitted changes, the reviewer reads a file
//! (its call tagged with its name) and its findings print with severity and `path:line`.

use serde_json::json;

use super::review::git;
use crate::suite::repl_tmux::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

#[test]
fn review_in_the_repl_shows_the_reviewers_findings_on_the_branch_diff() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let dir = project.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("src.rs"), "fn main() {}\n").unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "start"]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(dir.join("src.rs"), "fn main() { let x: u8 = 300; }\n").unwrap();
    git(dir, &["commit", "-q", "-am", "overflow"]);
    std::fs::write(
        dir.join("src.rs"),
        "fn main() { let x: u8 = 300; todo!(); }\n",
    )
    .unwrap();
    let findings = json!({"findings": [
        {"severity": "blocking", "path": "src.rs", "line": 1, "title": "literal out of range",
         "body": "300 does not fit in u8; use u16"},
        {"severity": "nit", "path": "src.rs", "line": 1, "title": "leftover todo", "body": "finish it"}
    ]});
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_read", "read_file", json!({"path": "src.rs"}))]),
        Reply::text(format!("Two problems.\n{findings}")),
    ]);
    let t = Terminal::start(&server, dir, home.path(), &[]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("/review");
    let screen = t.wait_for("leftover todo");
    assert!(
        screen.contains("blocking src.rs:1 literal out of range"),
        "{screen}"
    );
    assert!(
        screen.contains("300 does not fit in u8; use u16"),
        "{screen}"
    );
    assert!(screen.contains("nit src.rs:1 leftover todo"), "{screen}");
    assert!(
        screen.contains("[reviewer]"),
        "the reviewer's call is tagged: {screen}"
    );
    t.wait_prompt(2, terminal::DEADLINE);
    let requests = server.chat_requests();
    let task = requests[0].body["messages"][1]["content"].to_string();
    // Committed on the branch and not committed yet, both since `main`.
    assert!(task.contains("-fn main() {}"), "{task}");
    assert!(task.contains("todo!()"), "{task}");
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}
