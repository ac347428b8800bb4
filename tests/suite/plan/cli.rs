//! `paicli -p --plan`: the built binary prints the plan and runs it without review; `stream-json` emits the plan
//! events with task ids, `json` reports each task's outcome.

use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use super::*;

fn paicli(server: &ScriptedServer, project: &std::path::Path, home: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("paicli").unwrap();
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("PAICLI_HOME", home.join(".paicli"))
        .arg("-C")
        .arg(project)
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .stdin(Stdio::null());
    cmd
}

fn two_task_server() -> ScriptedServer {
    let server = ScriptedServer::start();
    server.route_task(PLANNER, [plan_reply(&[("A", &[]), ("B", &["A"])])]);
    server.route_task(task("A"), [Reply::text("A finished")]);
    server.route_task(task("B"), [Reply::text("B finished")]);
    server
}

#[test]
fn stream_json_emits_the_plan_and_each_task_with_its_id() {
    let server = two_task_server();
    let (project, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let output = paicli(&server, project.path(), home.path())
        .args([
            "-p",
            "Write A, then B",
            "--plan",
            "--output-format",
            "stream-json",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // paicli's plan events are system messages of the headless schema; the run ends with its result.
    let plan_events: Vec<String> = lines
        .iter()
        .filter(|l| l["type"] == "result" || l["type"] == "system")
        .filter(|l| l["subtype"] != "init" && l["subtype"] != "plan_task_event")
        .map(|l| match l["subtype"].as_str().unwrap() {
            "plan_proposed" => format!("plan {}", l["plan"]["tasks"].as_array().unwrap().len()),
            "plan_task_started" => format!("start {}", l["task_id"].as_str().unwrap()),
            "plan_task_finished" => format!(
                "{} {}",
                l["task_id"].as_str().unwrap(),
                l["state"].as_str().unwrap()
            ),
            _ if l["type"] == "result" => "result".to_string(),
            other => other.to_string(),
        })
        .collect();
    assert_eq!(
        plan_events,
        [
            "plan 2",
            "start A",
            "A done",
            "start B",
            "B done",
            "plan_finished",
            "result"
        ]
    );
    // The tasks' own events arrive wrapped with their ids.
    assert!(lines.iter().any(|l| l["subtype"] == "plan_task_event"
        && l["task_id"] == "B"
        && l["event"]["type"] == "turn_finished"));
    let result = lines.last().unwrap();
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["stop_reason"], "end_turn");
    assert_eq!(result["tasks"][1]["summary"], "B finished");
}

#[test]
fn json_reports_each_tasks_outcome_and_text_prints_the_plan() {
    let server = two_task_server();
    let (project, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let output = paicli(&server, project.path(), home.path())
        .args(["-p", "Write A, then B", "--plan", "--output-format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        result["tasks"],
        json!([
            {"task_id": "A", "title": "Task A", "state": "done", "summary": "A finished"},
            {"task_id": "B", "title": "Task B", "state": "done", "summary": "B finished"},
        ])
    );

    let server = two_task_server();
    let output = paicli(&server, project.path(), home.path())
        .args(["-p", "Write A, then B", "--plan"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(
            "plan (revision 0, 2 tasks):\n  1. [A] Task A\n  2. [B] Task B (after A)\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("[B] Task B: B finished"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("▶ A: Task A") && stderr.contains("✓ B done"),
        "{stderr}"
    );
}

/// Whoever asks for a plan gets the planner: short goals (the four, one of them Chinese) are not taken
/// for one step by their word count.
#[test]
fn short_goals_reach_the_planner() {
    for goal in [
        "Refactor the greeting module in three steps",
        "Add OAuth login",
        "Migrate the app to Rust 2024",
        "给项目加上用户登录",
    ] {
        let server = two_task_server();
        let (project, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        // As the issue typed it: `-p` without a value, the goal after `--plan`.
        let output = paicli(&server, project.path(), home.path())
            .args(["-p", "--plan", goal])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{goal}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let planner_requests = server
            .chat_requests()
            .iter()
            .filter(|r| {
                let first = first_user(r);
                first.starts_with(PLANNER) && first.contains(goal)
            })
            .count();
        assert_eq!(planner_requests, 1, "{goal}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.starts_with("plan (revision 0, 2 tasks):"),
            "{goal}: {stdout}"
        );
    }
}

#[test]
fn a_task_given_after_p_and_again_after_the_flags_is_refused() {
    let server = two_task_server();
    let (project, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let output = paicli(&server, project.path(), home.path())
        .args(["-p", "one task", "--plan", "another task"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the task was given twice"), "{stderr}");
    assert!(server.chat_requests().is_empty());
}
