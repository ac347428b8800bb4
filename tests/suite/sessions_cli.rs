//! Sessions end to end: `paicli -p` records a ledger; `--resume`, `--continue` and `--fork` load it into the next
//! run, whose first request the scripted server records.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

use crate::support::{Reply, ScriptedServer};

const SECRET: &str = "sk-sessions-should-not-leak-7781";

/// A home shared by two projects.
struct Sandbox {
    home: tempfile::TempDir,
    here: tempfile::TempDir,
    there: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let sandbox = Sandbox {
            home: tempfile::tempdir().unwrap(),
            here: tempfile::tempdir().unwrap(),
            there: tempfile::tempdir().unwrap(),
        };
        std::fs::write(sandbox.here.path().join("notes.txt"), "alpha\n").unwrap();
        sandbox
    }

    fn sessions_dir(&self) -> PathBuf {
        self.home.path().join(".paicli/sessions")
    }

    fn command(&self, project: &Path, server: &ScriptedServer, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("paicli").unwrap();
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.home.path().join(".paicli"))
            .env("OPENAI_API_KEY", SECRET)
            .arg("-C")
            .arg(project)
            .args(["--base-url", &server.url(), "--model", "scripted-model"])
            .args(args)
            .stdin(Stdio::null());
        cmd
    }

    fn run(&self, project: &Path, server: &ScriptedServer, args: &[&str]) -> Output {
        self.command(project, server, args).output().unwrap()
    }

    /// Every ledger file, sorted.
    fn ledgers(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        walk(&self.sessions_dir(), &mut found);
        found.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
        found.sort();
        found
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        out.push(path.clone());
        if path.is_dir() {
            walk(&path, out);
        }
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The result object of `--output-format json`.
fn result_of(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|_| panic!("stdout: {stdout}\nstderr: {}", stderr(output)))
}

fn messages(request: &Value) -> Vec<Value> {
    request["messages"].as_array().unwrap().clone()
}

/// The raw bytes of the system message and of the tool list in a request body.
fn prefix_bytes(raw: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(raw).into_owned();
    let body: Value = serde_json::from_str(&text).unwrap();
    let system = serde_json::to_string(&body["messages"][0]["content"]).unwrap();
    assert!(
        text.contains(&system),
        "the system prompt is sent as serialized"
    );
    let tools_at = text.find("\"tools\":").expect("tools in the request");
    let tools = serde_json::to_string(&body["tools"]).unwrap();
    assert!(text[tools_at..].contains(&tools));
    (system, tools)
}

/// A session that reads a file, then answers; returns its id and the messages of its last request plus answer.
fn first_session(sandbox: &Sandbox) -> (String, Vec<Value>, ScriptedServer) {
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_read_1", "read_file", json!({"path": "notes.txt"}))]),
        Reply::text("notes.txt says alpha."),
    ]);
    let output = sandbox.run(
        sandbox.here.path(),
        &server,
        &["--output-format", "json", "-p", "what does notes.txt say?"],
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let id = result_of(&output)["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut history = messages(&server.chat_requests()[1].body);
    history.push(json!({"role": "assistant", "content": "notes.txt says alpha."}));
    (id, history, server)
}

#[test]
fn resume_by_id_sends_the_earlier_messages_with_their_tool_call_ids() {
    let sandbox = Sandbox::new();
    let (id, history, first) = first_session(&sandbox);
    assert_eq!(history[2]["tool_calls"][0]["id"], "call_read_1");

    let server = ScriptedServer::with_replies([Reply::text("it said alpha")]);
    let prefix = &id[..6];
    let output = sandbox.run(
        sandbox.here.path(),
        &server,
        &[
            "--resume",
            prefix,
            "--output-format",
            "json",
            "-p",
            "and again?",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(result_of(&output)["session_id"], id.as_str());
    assert!(
        stderr(&output).contains(&format!("resumed session {id}: 1 turn(s) so far")),
        "{}",
        stderr(&output)
    );

    let sent = messages(&server.chat_requests()[0].body);
    assert_eq!(sent.len(), history.len() + 1);
    assert_eq!(sent[..history.len()], history[..]);
    assert_eq!(
        sent[history.len()],
        json!({"role": "user", "content": "and again?"})
    );
    // Byte-identical prefix: the provider's prompt cache keeps hitting.
    assert_eq!(
        prefix_bytes(&server.chat_requests()[0].raw_body),
        prefix_bytes(&first.chat_requests()[0].raw_body)
    );
}

#[test]
fn continue_picks_the_latest_session_of_this_project() {
    let sandbox = Sandbox::new();
    let (_id, history, _first) = first_session(&sandbox);
    // A later session in another folder must not be the one continued here.
    let elsewhere = ScriptedServer::with_replies([Reply::text("other")]);
    let output = sandbox.run(sandbox.there.path(), &elsewhere, &["-p", "task over there"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));

    let server = ScriptedServer::with_replies([Reply::text("continued")]);
    let output = sandbox.run(sandbox.here.path(), &server, &["-c", "-p", "next step"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let sent = messages(&server.chat_requests()[0].body);
    assert_eq!(sent[..history.len()], history[..]);
    assert!(!sent.iter().any(|m| m["content"] == "task over there"));

    // In a folder with no sessions, -c says so.
    let fresh = tempfile::tempdir().unwrap();
    let output = sandbox.run(fresh.path(), &server, &["-c", "-p", "x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no earlier session"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn fork_leaves_the_original_ledger_unchanged() {
    let sandbox = Sandbox::new();
    let (id, history, _first) = first_session(&sandbox);
    let [original] = sandbox.ledgers().try_into().unwrap();
    let before = std::fs::read(&original).unwrap();

    let server = ScriptedServer::with_replies([Reply::text("forked answer")]);
    let output = sandbox.run(
        sandbox.here.path(),
        &server,
        &[
            "-r",
            &id,
            "--fork",
            "--output-format",
            "json",
            "-p",
            "try another way",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let forked = result_of(&output)["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(forked, id);
    assert_eq!(std::fs::read(&original).unwrap(), before);
    let sent = messages(&server.chat_requests()[0].body);
    assert_eq!(sent[..history.len()], history[..]);

    // The fork resumes with both turns; the original still with one.
    let server = ScriptedServer::with_replies([Reply::text("a"), Reply::text("b")]);
    let output = sandbox.run(
        sandbox.here.path(),
        &server,
        &["-r", &forked, "-p", "third"],
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(
        messages(&server.chat_requests()[0].body).len(),
        history.len() + 3
    );
    let output = sandbox.run(sandbox.here.path(), &server, &["-r", &id, "-p", "other"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(
        messages(&server.chat_requests()[1].body).len(),
        history.len() + 1
    );
}

#[test]
fn unknown_and_ambiguous_ids_list_the_candidates() {
    let sandbox = Sandbox::new();
    let (id, _history, _first) = first_session(&sandbox);
    let server = ScriptedServer::start();
    let output = sandbox.run(sandbox.here.path(), &server, &["-r", "zzzz", "-p", "x"]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains("no session id starts with `zzzz`") && err.contains(&id),
        "{err}"
    );

    let output = sandbox.run(sandbox.here.path(), &server, &["-r", "-p", "x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(&id), "{}", stderr(&output));
    let output = sandbox.run(sandbox.here.path(), &server, &["--fork", "-p", "x"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(server.chat_requests().len(), 0);
}

#[test]
fn a_kill_during_a_command_loses_nothing_before_it() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("call_quick", "read_file", json!({"path": "notes.txt"})),
            (
                "call_slow",
                "execute_command",
                // Runs until the test (or the temp dir's removal) takes the marker away: no time limit that a
                // slow machine could reach before the kill.
                json!({"command": "touch slow-running; while [ -e slow-running ]; do sleep 0.1; done"}),
            ),
        ]),
        Reply::text("never sent"),
    ]);
    let running = sandbox.here.path().join("slow-running");
    let mut child = sandbox
        .command(
            sandbox.here.path(),
            &server,
            &["--approval", "full", "-p", "read, then wait"],
        )
        // Nor may the command's own time limit end it first.
        .env("PAICLI_COMMAND_TIMEOUT_SECS", "3600")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the ledger holds the quick call's result and the slow command is running.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let recorded = sandbox
            .ledgers()
            .first()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .is_some_and(|t| t.contains("\"tool_call_id\":\"call_quick\""));
        if recorded && running.exists() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the quick result never reached the ledger, or the slow command never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // While it runs, a second paicli may not append to the same ledger: it is told to fork instead.
    let other = ScriptedServer::with_replies([Reply::text("must not be asked")]);
    let refused = sandbox.run(sandbox.here.path(), &other, &["-c", "-p", "meanwhile"]);
    assert_eq!(
        refused.status.code(),
        Some(2),
        "stderr: {}",
        stderr(&refused)
    );
    assert!(stderr(&refused).contains("--fork"), "{}", stderr(&refused));
    assert_eq!(other.chat_requests().len(), 0);

    child.kill().unwrap();
    child.wait().unwrap();
    // The command outlives the killed paicli (its own process group); ending it keeps the machine clean.
    std::fs::remove_file(&running).unwrap();

    let next = ScriptedServer::with_replies([Reply::text("recovered")]);
    let output = sandbox.run(sandbox.here.path(), &next, &["-c", "-p", "what happened?"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(
        stderr(&output).contains("1 tool call(s) had no result"),
        "{}",
        stderr(&output)
    );
    let sent = messages(&next.chat_requests()[0].body);
    let roles: Vec<&str> = sent.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "tool", "user"]
    );
    assert_eq!(sent[1]["content"], "read, then wait");
    assert_eq!(sent[3]["tool_call_id"], "call_quick");
    assert!(sent[3]["content"].as_str().unwrap().contains("alpha"));
    assert_eq!(sent[4]["tool_call_id"], "call_slow");
    assert!(
        sent[4]["content"]
            .as_str()
            .unwrap()
            .starts_with("[aborted by user]")
    );
}

#[test]
fn ledgers_are_private_and_hold_no_configured_key() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_echo",
            "execute_command",
            json!({"command": "echo key=$OPENAI_API_KEY; echo sk-sessions-should-not-leak-7781"}),
        )]),
        Reply::text(format!("the key is {SECRET}")),
    ]);
    let output = sandbox.run(
        sandbox.here.path(),
        &server,
        &[
            "--approval",
            "full",
            "-p",
            &format!("remember {SECRET} please"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let ledgers = sandbox.ledgers();
    assert_eq!(ledgers.len(), 1);
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&ledgers[0]), 0o600);
    let mut dir = ledgers[0].parent().unwrap();
    while dir.starts_with(sandbox.sessions_dir()) {
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
        dir = dir.parent().unwrap();
    }
    let text = std::fs::read_to_string(&ledgers[0]).unwrap();
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("remember *** please"), "{text}");
}

#[test]
fn a_damaged_ledger_loads_with_notices() {
    let sandbox = Sandbox::new();
    let (_id, history, _first) = first_session(&sandbox);
    let [ledger] = sandbox.ledgers().try_into().unwrap();
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.insert_str(text.find('\n').unwrap() + 1, "garbage that is not json\n");
    text.push_str("{\"type\":\"message\",\"message\":{\"ro");
    std::fs::write(&ledger, text).unwrap();

    let server = ScriptedServer::with_replies([Reply::text("fine")]);
    let output = sandbox.run(sandbox.here.path(), &server, &["-c", "-p", "still there?"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("last line was cut off") && err.contains("skipped 1 damaged line"),
        "{err}"
    );
    let sent = messages(&server.chat_requests()[0].body);
    assert_eq!(sent[..history.len()], history[..]);
}

#[test]
fn changed_project_instructions_are_sent_and_said_once() {
    let sandbox = Sandbox::new();
    let (id, _history, first) = first_session(&sandbox);
    std::fs::write(
        sandbox.here.path().join("PAI.md"),
        "Always answer in haiku.\n",
    )
    .unwrap();
    let server = ScriptedServer::with_replies([Reply::text("a"), Reply::text("b")]);
    let output = sandbox.run(sandbox.here.path(), &server, &["-r", &id, "-p", "next"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(
        stderr(&output)
            .matches("project instructions changed")
            .count(),
        1,
        "{}",
        stderr(&output)
    );
    let system = &server.chat_requests()[0].body["messages"][0]["content"];
    assert!(system.as_str().unwrap().contains("Always answer in haiku."));
    assert_ne!(
        system,
        &first.chat_requests()[0].body["messages"][0]["content"]
    );
    // The ledger now holds the new prompt: resuming again sends it without a second notice.
    let output = sandbox.run(sandbox.here.path(), &server, &["-r", &id, "-p", "again"]);
    assert!(
        !stderr(&output).contains("project instructions changed"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        &server.chat_requests()[1].body["messages"][0]["content"],
        system
    );
}

#[test]
fn instructions_with_secret_looking_text_resume_without_a_notice() {
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.here.path().join("PAI.md"),
        "The test db password=hunter22 is fine.\n",
    )
    .unwrap();
    let (id, _history, first) = first_session(&sandbox);
    let server = ScriptedServer::with_replies([Reply::text("a")]);
    let output = sandbox.run(sandbox.here.path(), &server, &["-r", &id, "-p", "next"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(
        !stderr(&output).contains("project instructions changed"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        server.chat_requests()[0].body["messages"][0],
        first.chat_requests()[0].body["messages"][0]
    );
    let ledger = std::fs::read_to_string(&sandbox.ledgers()[0]).unwrap();
    assert!(!ledger.contains("hunter22"));
}
