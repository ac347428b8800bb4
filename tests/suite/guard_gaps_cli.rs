//! Issue 35's command guard gaps, end to end under `--approval full` (where only the guard stands between the
//! model and the disk): `rm -rf "$PWD"`, a bare redirect to a file outside, a backslash-newline inside `rm`, and
//! `rm -rf ~root` are refused, and nothing is deleted or written.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

#[test]
fn the_four_gaps_are_refused_under_full_and_nothing_is_touched() {
    let sandbox = CliSandbox::new();
    sandbox.project_file("src/main.rs", "fn main() {}\n");
    // Outside the project and not under /tmp (literal /tmp paths are scratch space the guard allows): a clone
    // under /tmp puts the target dir there, so the shared helper picks a folder outside every temp dir.
    let outside_dir = crate::support::outside_dir().unwrap();
    let outside_home = outside_dir.path().to_path_buf();
    std::fs::write(outside_home.join("keep.txt"), "keep\n").unwrap();
    let outside = outside_home.display().to_string();
    let lines = [
        "rm -rf \"$PWD\"".to_string(),
        format!(">{outside}/planted"),
        format!("r\\\nm -rf {outside}"),
        "rm -rf ~root".to_string(),
    ];
    let mut replies: Vec<Reply> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            Reply::tool_calls([(
                format!("c{i}"),
                "execute_command",
                json!({ "command": line }),
            )])
        })
        .collect();
    replies.push(Reply::text("done"));
    let server = ScriptedServer::with_replies(replies);
    let output = sandbox
        .against(&server)
        .args([
            "--approval",
            "full",
            "--output-format",
            "json",
            "-p",
            "clean up",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let result: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!("{e}: {stdout}\n{}", stderr_of(&output));
    });
    let denials = result["denials"].as_array().unwrap();
    assert_eq!(denials.len(), lines.len(), "{result:#}");
    for denial in denials {
        assert_eq!(denial["code"], "COMMAND_GUARD", "{denial}");
    }
    assert_eq!(sandbox.read("src/main.rs"), "fn main() {}\n");
    assert!(outside_home.join("keep.txt").exists());
    assert!(!outside_home.join("planted").exists());
}
