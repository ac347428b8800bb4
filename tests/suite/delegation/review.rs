//! `paicli review`: the reviewer gets the branch's diff since the default branch (committed and uncommitted) in
//! its request, with its own prompt and read-only tools; its findings print as JSON and a blocking one fails.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use super::{system_prompt, tool_names};
use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

pub(super) fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A repository on `main`, a branch that committed one change, and one change not committed yet.
fn seeded() -> CliSandbox {
    let sandbox = CliSandbox::new();
    let dir = sandbox.project.path();
    git(dir, &["init", "-q", "-b", "main"]);
    sandbox.project_file("src.rs", "fn main() {}\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "start"]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    sandbox.project_file("src.rs", "fn main() { let x: u8 = 300; }\n");
    git(dir, &["commit", "-q", "-am", "overflow"]);
    sandbox.project_file("notes.md", "");
    sandbox.project_file("src.rs", "fn main() { let x: u8 = 300; unsafe_call(); }\n");
    sandbox
}

fn findings(severity: &str) -> String {
    format!(
        "Two problems.\n{}",
        json!({"findings": [{"severity": severity, "path": "src.rs", "line": 1,
            "title": "literal out of range", "body": "300 does not fit in u8; use u16"}]})
    )
}

#[test]
fn a_blocking_finding_on_the_branch_diff_fails_the_review() {
    let sandbox = seeded();
    let server = ScriptedServer::with_replies([Reply::text(findings("blocking"))]);
    let output = sandbox
        .against(&server)
        .args(["--output-format", "json", "review"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "stderr: {}",
        stderr_of(&output)
    );
    let printed: Value = serde_json::from_str(stdout_of(&output).trim()).unwrap();
    assert_eq!(
        printed,
        json!({"findings": [{"severity": "blocking", "path": "src.rs", "line": 1,
            "title": "literal out of range", "body": "300 does not fit in u8; use u16"}]})
    );
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 1);
    assert!(system_prompt(&requests[0]).starts_with("You are a code reviewer."));
    let task = requests[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    // Committed on the branch and not committed yet, both since `main`.
    assert!(
        task.contains("+fn main() { let x: u8 = 300; unsafe_call(); }"),
        "{task}"
    );
    assert!(task.contains("-fn main() {}"), "{task}");
    let tools = tool_names(&requests[0]);
    assert!(tools.contains(&"read_file".to_string()));
    for writer in ["write_file", "edit_file", "execute_command", "agent"] {
        assert!(!tools.contains(&writer.to_string()), "{tools:?}");
    }
}

#[test]
fn nits_pass_and_print_as_text() {
    let sandbox = seeded();
    let server = ScriptedServer::with_replies([Reply::text(findings("nit"))]);
    let output = sandbox
        .against(&server)
        .args(["review", "main"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        stderr_of(&output)
    );
    assert_eq!(
        stdout_of(&output),
        "nit src.rs:1 literal out of range\n  300 does not fit in u8; use u16\n"
    );
}

#[test]
fn nothing_to_review_is_said_and_is_not_a_pass() {
    let sandbox = CliSandbox::new();
    let dir = sandbox.project.path();
    git(dir, &["init", "-q", "-b", "main"]);
    sandbox.project_file("a.txt", "a\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "start"]);
    let server = ScriptedServer::start();
    let output = sandbox.against(&server).args(["review"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("no changes to review"));
    assert_eq!(server.chat_requests().len(), 0);
}

#[test]
fn the_users_threshold_decides_what_fails_and_a_projects_is_ignored() {
    let run = |sandbox: &CliSandbox| {
        let server = ScriptedServer::with_replies([Reply::text(findings("nit"))]);
        let output = sandbox
            .against(&server)
            .args(["review", "main"])
            .output()
            .unwrap();
        output.status.code()
    };
    let strict = seeded();
    strict.user_config("[agents]\nreview_fail_on = \"nit\"\n");
    assert_eq!(run(&strict), Some(1), "a nit fails at the user's `nit`");
    // A cloned repository cannot make its own review pass or fail.
    let project = seeded();
    project.user_config("[agents]\nreview_fail_on = \"nit\"\n");
    project.project_file(
        ".paicli/config.toml",
        "[agents]\nreview_fail_on = \"never\"\n",
    );
    assert_eq!(run(&project), Some(1));
    let never = seeded();
    never.user_config("[agents]\nreview_fail_on = \"never\"\n");
    assert_eq!(run(&never), Some(0));
}
