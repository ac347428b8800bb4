//! Issue 42 as attacks: a confined command asks a daemon that runs outside the sandbox to act for it. The user's
//! tmux server (by the socket path tmux would guess), an ssh-agent-like socket server, a socket under
//! `$XDG_RUNTIME_DIR`, and the same socket reached through `/proc/<pid>/root`: none answers. A socket the user
//! allows (`[sandbox] allow_sockets`) answers, and a command's own socket in the temp dir works.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use paicli::config::SandboxSettings;
use paicli::guard::path_guard::PathGuard;
use paicli::sandbox::Sandbox;
use paicli::tools::{SpillStore, ToolContext, ToolLimits, ToolOutcome};
use serde_json::json;

use crate::support::kernel_confines;

fn ctx(root: &Path, settings: SandboxSettings) -> ToolContext {
    ToolContext::new(
        PathGuard::new(root).unwrap(),
        SpillStore::new(root, true, 32_000),
        ToolLimits {
            sandbox: Sandbox::new(settings, Vec::new()),
            ..ToolLimits::default()
        },
    )
}

async fn run(ctx: &ToolContext, command: &str) -> String {
    match crate::support::run_command(ctx, command).await {
        ToolOutcome::Ok(out) => out.text,
        ToolOutcome::Failed { reason } => reason,
        other => format!("{other:?}"),
    }
}

/// A daemon on a Unix socket that answers `pong` to every connection (as an ssh-agent or a bus would answer).
fn pong_server(path: &Path) {
    let listener = UnixListener::bind(path).unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let _ = stream.write_all(b"pong");
        }
    });
}

/// A Python client: prints what the socket at `path` answers, or `refused: <why>`.
fn client(path: &Path) -> String {
    format!(
        "python3 -c \"import socket,sys\ns=socket.socket(socket.AF_UNIX)\ntry:\n s.connect(sys.argv[1]); print('answer:', s.recv(8).decode())\nexcept OSError as e:\n print('refused:', e)\" '{}'",
        path.display()
    )
}

#[tokio::test]
async fn an_agent_socket_and_one_under_xdg_runtime_dir_do_not_answer_unless_allowed() {
    if !kernel_confines() {
        return;
    }
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let daemons = tempfile::tempdir().unwrap();
    let agent = daemons.path().join("ssh-agent.sock");
    let runtime_dir = daemons.path().join("run-user");
    std::fs::create_dir(&runtime_dir).unwrap();
    let bus = runtime_dir.join("bus");
    pong_server(&agent);
    pong_server(&bus);

    let confined = ctx(&root, SandboxSettings::default());
    for socket in [&agent, &bus] {
        let out = run(&confined, &client(socket)).await;
        assert!(out.contains("refused:"), "{}: {out}", socket.display());
    }
    // Through another process's view of the file system: only the command's own processes are in its /proc.
    let via_proc = PathBuf::from(format!("/proc/{}/root", std::process::id()))
        .join(agent.strip_prefix("/").unwrap());
    let out = run(&confined, &client(&via_proc)).await;
    assert!(out.contains("refused:"), "{out}");

    let allowed = ctx(
        &root,
        SandboxSettings {
            allow_sockets: vec![agent.clone()],
            ..SandboxSettings::default()
        },
    );
    let out = run(&allowed, &client(&agent)).await;
    assert!(out.contains("answer: pong"), "{out}");
    let out = run(&allowed, &client(&bus)).await;
    assert!(out.contains("refused:"), "{out}");

    // Unconfined (`u` at the prompt, or the sandbox off) is unchanged.
    let off = ctx(
        &root,
        SandboxSettings {
            mode: paicli::config::SandboxMode::Off,
            ..SandboxSettings::default()
        },
    );
    let out = run(&off, &client(&agent)).await;
    assert!(out.contains("answer: pong"), "{out}");
}

#[tokio::test]
async fn a_command_serves_and_uses_its_own_socket_in_the_temp_dir_and_the_project() {
    if !kernel_confines() {
        return;
    }
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let confined = ctx(&root, SandboxSettings::default());
    let scratch = tempfile::tempdir().unwrap();
    for socket in [scratch.path().join("own.sock"), root.join("dev.sock")] {
        let serve = format!(
            "python3 -c \"import socket,sys\nl=socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen()\nc,_=l.accept(); c.sendall(b'pong')\" '{path}' & \
             for i in $(seq 100); do [ -S '{path}' ] && break; sleep 0.05; done; {client}; wait",
            path = socket.display(),
            client = client(&socket)
        );
        let out = run(&confined, &serve).await;
        assert!(out.contains("answer: pong"), "{}: {out}", socket.display());
    }
    // A socket in the project that a program outside opened stays reachable: the project is the user's.
    let outside_made = root.join("served.sock");
    pong_server(&outside_made);
    let out = run(&confined, &client(&outside_made)).await;
    assert!(out.contains("answer: pong"), "{out}");
}

#[tokio::test]
async fn the_users_tmux_server_runs_nothing_for_a_confined_command() {
    if !kernel_confines() {
        return;
    }
    let tmux_found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !tmux_found {
        eprintln!("skipped: tmux is not installed");
        return;
    }
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let marker = crate::support::outside_dir().unwrap();
    let planted = marker.path().join("tmux-ran");
    // A server as the user would have one: on the socket path tmux guesses, /tmp/tmux-<uid>/<name>.
    let name = format!("paicli-probe-{}", std::process::id());
    let started = Command::new("tmux")
        .args(["-L", &name, "new-session", "-d", "-s", "probe", "sleep 600"])
        .env_remove("TMUX")
        .status()
        .unwrap();
    assert!(started.success());
    let _server = KillServer(name.clone());
    let confined = ctx(&root, SandboxSettings::default());
    let out = run(
        &confined,
        &format!(
            "tmux -L {name} run-shell 'touch {0}' 2>&1; \
             TMUX=/tmp/tmux-$(id -u)/{name},1,0 tmux run-shell 'touch {0}' 2>&1; \
             tmux -S /tmp/tmux-$(id -u)/{name} run-shell 'touch {0}' 2>&1; echo tried",
            planted.display()
        ),
    )
    .await;
    assert!(out.contains("tried"), "{out}");
    assert!(
        !planted.exists(),
        "the tmux server ran a command for the sandbox: {out}"
    );

    // The same socket allowed: tmux answers (so the refusal above was the sandbox's).
    // SAFETY: a plain getter.
    let uid = unsafe { libc::geteuid() };
    let socket = PathBuf::from(format!("/tmp/tmux-{uid}/{name}"));
    let allowed = ctx(
        &root,
        SandboxSettings {
            allow_sockets: vec![socket],
            ..SandboxSettings::default()
        },
    );
    let out = run(&allowed, &format!("tmux -L {name} list-sessions 2>&1")).await;
    assert!(out.contains("probe:"), "{out}");
}

/// Kills the test's tmux server when the test ends, however it ends.
struct KillServer(String);

impl Drop for KillServer {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .status();
    }
}

#[tokio::test]
async fn daemon_variables_are_not_passed_to_confined_commands_unless_kept() {
    if !kernel_confines() {
        return;
    }
    // Run through the binary: the variables are paicli's own environment.
    let server = crate::support::ScriptedServer::with_replies([
        crate::support::Reply::tool_calls([(
            "c1",
            "execute_command",
            json!({"command": "echo \"[${TMUX-}][${SSH_AUTH_SOCK-}][${DISPLAY-}][${XDG_RUNTIME_DIR-}]\""}),
        )]),
        crate::support::Reply::text("done"),
    ]);
    let sandbox = crate::support::CliSandbox::new()
        .with_env("PAICLI_API_KEY", "sk-test")
        .with_env("TMUX", "/tmp/tmux-0/default,1,0")
        .with_env("SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1")
        .with_env("DISPLAY", ":0")
        .with_env("XDG_RUNTIME_DIR", "/run/user/0");
    sandbox.user_config("[shell]\nkeep_env = [\"DISPLAY\"]\n");
    let output = sandbox
        .against(&server)
        .args(["--approval", "full", "-p", "env"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let requests = server.chat_requests();
    let body = requests.last().unwrap().body.to_string();
    assert!(body.contains("[][][:0][]"), "{body}");
}

#[test]
fn a_read_only_stream_is_enough_to_read_a_pong() {
    // The helper itself answers, so a refusal above is the sandbox's and not a broken server.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sock");
    pong_server(&path);
    let mut stream = std::os::unix::net::UnixStream::connect(&path).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert_eq!(answer, "pong");
}
