//! A confined command cannot read paicli's keys from `/proc/<pid>/environ` (nor its memory), as root and as an
//! unprivileged user, and nothing it started outlives paicli. Runs the real binary: the protection is the
//! process's own (`sandbox::harden_process`).

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::json;

use super::kernel_confines;
use super::lifetime::sleepers;
use crate::support::{Reply, ScriptedServer};

/// The nobody user's ids.
const NOBODY: u32 = 65534;

/// Every readable environment on the machine holding `secret`, then the memory of the paicli working on
/// `project` (found by its command line, which stays readable).
fn probe_command(secret: &str, sleeper: u32, project: &Path) -> String {
    format!(
        "setsid sleep {sleeper} >/dev/null 2>&1 < /dev/null & \
         n=0; for f in /proc/[0-9]*/environ; do if grep -qa {secret} \"$f\" 2>/dev/null; then n=$((n+1)); echo \"leak $f\"; fi; done; \
         echo \"environ leaks: $n\"; \
         m=0; for p in $(pgrep -x paicli); do tr '\\0' ' ' < /proc/$p/cmdline | grep -q {project} || continue; head -c1 /proc/$p/mem >/dev/null 2>&1 && m=$((m+1)); cat /proc/$p/maps >/dev/null 2>&1 && m=$((m+1)); done; \
         echo \"memory reads: $m\"",
        project = project.display()
    )
}

fn run_paicli(
    project: &Path,
    home: &Path,
    server: &ScriptedServer,
    secret: &str,
    uid: Option<u32>,
) -> Output {
    let mut cmd = Command::cargo_bin("paicli").unwrap();
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("PAICLI_HOME", home.join(".paicli"))
        .env("PAICLI_API_KEY", secret)
        .arg("-C")
        .arg(project)
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["--approval", "full", "-p", "look around"])
        .stdin(Stdio::null());
    if let Some(uid) = uid {
        cmd.uid(uid).gid(uid);
    }
    cmd.output().unwrap()
}

/// The text of the one tool result the model got back.
fn tool_result(server: &ScriptedServer) -> String {
    let requests = server.chat_requests();
    let last = requests.last().unwrap();
    last.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .and_then(|m| m["content"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no tool result in {}", last.body))
}

fn attack(uid: Option<u32>, offset: u32) {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    if let Some(uid) = uid {
        for dir in [project.path(), home.path()] {
            std::os::unix::fs::chown(dir, Some(uid), Some(uid)).unwrap();
        }
    }
    let secret = format!("sk-proc-probe-{}-{offset}", std::process::id());
    let sleeper = 50_000 + (std::process::id() % 10_000) * 10 + offset;
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "execute_command",
            json!({"command": probe_command(&secret, sleeper, project.path())}),
        )]),
        Reply::text("done"),
    ]);
    let output = run_paicli(project.path(), home.path(), &server, &secret, uid);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let result = tool_result(&server);
    assert!(result.contains("environ leaks: 0"), "{result}");
    assert!(result.contains("memory reads: 0"), "{result}");
    assert!(
        sleepers(sleeper).is_empty(),
        "a setsid process outlived paicli"
    );
}

#[test]
fn a_confined_root_command_reads_no_key_or_memory_of_paicli() {
    if !kernel_confines() {
        return;
    }
    // SAFETY: a plain getter.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: not root (the unprivileged case is the next test's)");
        return;
    }
    attack(None, 0);
}

#[test]
fn a_confined_command_of_an_unprivileged_user_reads_no_key_of_paicli() {
    if !kernel_confines() {
        return;
    }
    // SAFETY: a plain getter.
    if unsafe { libc::geteuid() } != 0 {
        // Already unprivileged: the user's own run is the case.
        attack(None, 1);
        return;
    }
    let binary = Command::cargo_bin("paicli")
        .unwrap()
        .get_program()
        .to_owned();
    let reachable = Command::new(&binary)
        .arg("--version")
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .is_ok_and(|o| o.status.success());
    if !reachable {
        eprintln!("skipped: the nobody user cannot run the built binary here");
        return;
    }
    attack(Some(NOBODY), 1);
}
