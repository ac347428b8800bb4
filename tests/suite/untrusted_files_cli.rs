//! A cloned repository's instruction and settings files are read safely: `paicli -p` in a project whose
//! `CLAUDE.md`, `AGENTS.md`, `.paicli/PAI.md`, a `SKILL.md`, `.paicli/config.toml`, `.mcp.json` and `.env` link out
//! of it (to a secret, to `/dev/zero`), are FIFOs or are huge. No secret reaches a request, the run finishes in
//! bounded memory with a small request, and a notice names each refused or cut file. And a symlinked spill
//! folder is neither written nor pruned.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

const SECRET: &str = "PRIVATE-KEY-0f9e8d7c6b5a";

/// The files an attacker's repository links, as the notices name them.
const LINKED: &[&str] = &[
    "CLAUDE.md",
    "AGENTS.md",
    ".paicli/PAI.md",
    ".paicli/skills/x/SKILL.md",
    ".paicli/config.toml",
    ".mcp.json",
    ".env",
];

/// Links each of `LINKED` in the project to `target`.
fn link_all(sandbox: &CliSandbox, target: &Path) {
    for rel in LINKED {
        let path = sandbox.project.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        symlink(target, path).unwrap();
    }
}

/// One `-p` run that ends with a text answer: its status, stderr and the peak memory of the child (KiB). Killed
/// and failed after a minute: a read that never ends must not hang the suite.
// Reaped by `wait4`, which also reports the child's own peak memory.
#[allow(clippy::zombie_processes)]
fn run_bounded(mut cmd: Command) -> (bool, String, i64) {
    let mut child = cmd
        .args(["-p", "say hi"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).ok();
        text
    });
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our own child, not yet reaped (std's `wait` is never called on it).
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("paicli did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let success = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (success, reader.join().unwrap(), usage.ru_maxrss)
}

fn answer_server() -> ScriptedServer {
    ScriptedServer::with_replies([Reply::text("hi")])
}

/// The largest request body sent, in bytes.
fn largest_request(server: &ScriptedServer) -> usize {
    server
        .chat_requests()
        .iter()
        .map(|r| r.raw_body.len())
        .max()
        .unwrap_or(0)
}

#[test]
fn files_linked_out_of_the_project_never_reach_a_request_and_each_is_named() {
    let outside = tempfile::tempdir().unwrap();
    // Secrets that parse as each kind of file, so only the link decides whether they are read.
    let secrets = [
        (
            "id_rsa.md",
            format!("---\nname: x\ndescription: {SECRET}\n---\n{SECRET}\n"),
        ),
        ("secret.toml", format!("# {SECRET}\n")),
        (
            "secret.json",
            format!("{{\"mcpServers\": {{}}, \"note\": \"{SECRET}\"}}"),
        ),
        ("secret.env", format!("NOTE={SECRET}\n")),
    ];
    for (name, text) in &secrets {
        std::fs::write(outside.path().join(name), text).unwrap();
    }
    let secret_for = |rel: &str| {
        let name = match Path::new(rel).extension().and_then(|e| e.to_str()) {
            Some("toml") => "secret.toml",
            Some("json") => "secret.json",
            Some("md") => "id_rsa.md",
            _ => "secret.env",
        };
        outside.path().join(name)
    };
    let sandbox = CliSandbox::new();
    for rel in LINKED {
        let path = sandbox.project.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        symlink(secret_for(rel), path).unwrap();
    }
    let server = answer_server();
    let out = sandbox
        .against(&server)
        .args(["-p", "say hi"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(server.chat_requests().len(), 1);
    for request in server.requests() {
        assert!(
            !String::from_utf8_lossy(&request.raw_body).contains(SECRET),
            "the secret reached a request"
        );
    }
    for rel in LINKED {
        let named = err.lines().any(|l| {
            l.contains(&format!(
                "did not read {}",
                sandbox.project.path().join(rel).display()
            )) && l.contains("lies outside")
        });
        assert!(named, "no notice names {rel}:\n{err}");
    }
}

#[test]
fn files_linked_to_dev_zero_or_a_fifo_are_refused_in_bounded_memory() {
    let sandbox = CliSandbox::new();
    link_all(&sandbox, Path::new("/dev/zero"));
    let fifo = sandbox.project.path().join("PAI.md");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let server = answer_server();
    let (success, err, peak_kib) = run_bounded(sandbox.against(&server));
    assert!(success, "{err}");
    assert!(
        largest_request(&server) < 100_000,
        "{}",
        largest_request(&server)
    );
    // Reading any of them to its end would take gigabytes; a run that reads at most the caps stays far below.
    assert!(peak_kib < 1024 * 1024, "peak RSS {peak_kib} KiB");
    for rel in LINKED {
        assert!(
            err.contains(&format!("{}:", sandbox.project.path().join(rel).display())),
            "{rel}:\n{err}"
        );
    }
    assert!(
        err.contains(&format!(
            "did not read {}: it is not a regular file",
            fifo.display()
        )),
        "{err}"
    );
}

#[test]
fn a_50_mb_claude_md_is_cut_with_a_notice_and_the_request_stays_small() {
    let sandbox = CliSandbox::new();
    let line = "Always run the tests before you answer.\n";
    sandbox.project_file("CLAUDE.md", &line.repeat(50 * 1024 * 1024 / line.len()));
    let server = answer_server();
    let (success, err, _) = run_bounded(sandbox.against(&server));
    assert!(success, "{err}");
    let body = String::from_utf8_lossy(&server.chat_requests()[0].raw_body).into_owned();
    assert!(body.contains("Always run the tests"), "the head is kept");
    assert!(body.contains("[... file cut at 40000 bytes]"));
    assert!(body.len() < 100_000, "{}", body.len());
    let claude = sandbox.project.path().join("CLAUDE.md");
    assert!(
        err.contains(&format!(
            "read only the first 40000 bytes of {}",
            claude.display()
        )),
        "{err}"
    );
}

#[test]
fn a_symlinked_spill_folder_is_neither_written_nor_pruned_and_the_model_is_told_the_output_was_cut()
{
    let outside = tempfile::tempdir().unwrap();
    let old = outside.path().join("session-old");
    std::fs::create_dir(&old).unwrap();
    std::fs::write(old.join("001-read_file.txt"), "an old output").unwrap();
    let ten_days_ago = SystemTime::now() - Duration::from_secs(10 * 24 * 60 * 60);
    std::fs::File::open(&old)
        .unwrap()
        .set_modified(ten_days_ago)
        .unwrap();
    let sandbox = CliSandbox::new();
    let row = format!("{}\n", "x".repeat(99));
    sandbox.project_file("big.txt", &row.repeat(1000));
    std::fs::create_dir_all(sandbox.project.path().join(".paicli")).unwrap();
    symlink(
        outside.path(),
        sandbox.project.path().join(".paicli/tool-outputs"),
    )
    .unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "read_file", json!({"path": "big.txt"}))]),
        Reply::text("read it"),
    ]);
    let out = sandbox
        .against(&server)
        .args(["-p", "read big.txt"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");

    let mut left: Vec<_> = std::fs::read_dir(outside.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(left, ["session-old"], "nothing written outside");
    assert!(
        old.join("001-read_file.txt").exists(),
        "nothing deleted outside"
    );

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    let result = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .and_then(|m| m["content"].as_str())
        .unwrap()
        .to_string();
    assert!(
        result.contains("[output truncated: the full output could not be saved to a file"),
        "{result}"
    );
    assert!(result.contains("is a symbolic link"), "{result}");
    assert!(result.len() < 20_000, "{}", result.len());
    assert!(
        err.contains("large tool outputs are not saved in") && err.contains(".paicli/tool-outputs"),
        "{err}"
    );
}
