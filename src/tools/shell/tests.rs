#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::guard::path_guard::PathGuard;
use crate::tools::{SpillStore, ToolLimits};

fn context(dir: &TempDir, timeout: Duration) -> ToolContext {
    let root = dir.path().canonicalize().unwrap();
    ToolContext {
        guard: Arc::new(PathGuard::new(&root).unwrap()),
        spill: Arc::new(SpillStore::new(&root, true, 32_000)),
        cancel: CancellationToken::new(),
        limits: ToolLimits {
            command_timeout: timeout,
            ..ToolLimits::default()
        },
        root,
        gates: Vec::new(),
        progress: crate::tools::Progress::default(),
        files: None,
        delegation: None,
    }
}

async fn run(ctx: &ToolContext, command: &str) -> ToolOutcome {
    let args = json!({ "command": command });
    ExecuteCommand::new(&ctx.limits, &ctx.spill)
        .execute(args.as_object().unwrap(), ctx)
        .await
}

fn ok_text(outcome: ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text,
        other => panic!("expected Ok, got {other:?}"),
    }
}

/// True while `pid` exists and is not a zombie (PID 1 in a container may never reap it).
fn is_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits (bounded) for `pid` to die; SIGKILL delivery is asynchronous.
async fn wait_dead(pid: i32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if !is_alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// Waits (bounded) for the command to write its pid file.
async fn read_pid_file(path: &Path) -> i32 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < until, "pid file never appeared");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn runs_in_the_project_root() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    let out = ok_text(run(&ctx, "pwd").await);
    assert_eq!(out, format!("{}\n", ctx.root.display()));
}

#[tokio::test]
async fn merges_stdout_and_stderr_in_arrival_order() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    let out = ok_text(run(&ctx, "echo one; echo two >&2; echo three").await);
    assert_eq!(out, "one\ntwo\nthree\n");
}

#[tokio::test]
async fn empty_output_is_marked() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    assert_eq!(ok_text(run(&ctx, "true").await), "(no output)");
}

#[tokio::test]
async fn stdin_is_closed() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(30));
    let started = Instant::now();
    assert_eq!(ok_text(run(&ctx, "cat").await), "(no output)");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn non_zero_exit_is_a_failure_with_code_and_output() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    let outcome = run(&ctx, "echo broken >&2; exit 3").await;
    assert_eq!(
        outcome,
        ToolOutcome::failed("command exited with code 3\nbroken\n")
    );
}

#[tokio::test]
async fn death_by_signal_is_a_failure() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    let outcome = run(&ctx, "kill -TERM $$").await;
    assert_eq!(
        outcome,
        ToolOutcome::failed("command was killed by signal 15\n(no output)")
    );
}

#[tokio::test]
async fn empty_command_is_rejected() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    assert_eq!(
        run(&ctx, "  ").await,
        ToolOutcome::failed("`command` is empty")
    );
}

#[tokio::test]
async fn timeout_kills_the_whole_group_including_background_children() {
    let dir = TempDir::new().unwrap();
    let ctx = plain_context(&dir, Duration::from_secs(1));
    let started = Instant::now();
    let outcome = run(
        &ctx,
        "sleep 100 & echo $! > bg.pid; echo started; sleep 100",
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(5));
    let ToolOutcome::Failed { reason } = outcome else {
        panic!("expected Failed, got {outcome:?}");
    };
    assert!(
        reason.starts_with("command timed out after 1s;"),
        "{reason}"
    );
    assert!(reason.ends_with("Partial output:\nstarted\n"), "{reason}");
    let pid = read_pid_file(&dir.path().join("bg.pid")).await;
    assert!(
        wait_dead(pid).await,
        "background child {pid} survived the timeout"
    );
}

#[tokio::test]
async fn cancellation_returns_quickly_with_partial_output_and_kills_the_group() {
    let dir = TempDir::new().unwrap();
    let ctx = plain_context(&dir, Duration::from_secs(60));
    let pid_file = dir.path().join("bg.pid");
    let cancel = ctx.cancel.clone();
    let canceller = tokio::spawn({
        let pid_file = pid_file.clone();
        async move {
            let pid = read_pid_file(&pid_file).await;
            cancel.cancel();
            (pid, Instant::now())
        }
    });
    let outcome = run(
        &ctx,
        "echo partial; sleep 100 & echo $! > bg.pid; sleep 100",
    )
    .await;
    let (pid, cancelled_at) = canceller.await.unwrap();
    assert!(cancelled_at.elapsed() < Duration::from_secs(2));
    assert_eq!(
        outcome,
        ToolOutcome::Cancelled {
            partial: "partial\n".into()
        }
    );
    assert!(
        wait_dead(pid).await,
        "background child {pid} survived cancellation"
    );
}

/// The plain launch (no sandbox): the process group is all paicli can end, so the old rules for children that
/// leave it apply. Confined commands end everything they start (`tests/suite/sandbox_escape/lifetime.rs`).
fn plain_context(dir: &TempDir, timeout: Duration) -> ToolContext {
    let mut ctx = context(dir, timeout);
    ctx.limits.sandbox = crate::sandbox::Sandbox::new(
        crate::config::SandboxSettings {
            mode: crate::config::SandboxMode::Off,
            ..crate::config::SandboxSettings::default()
        },
        Vec::new(),
    );
    ctx
}

#[tokio::test]
async fn background_children_holding_the_output_do_not_hang_the_call() {
    let dir = TempDir::new().unwrap();
    let ctx = plain_context(&dir, Duration::from_secs(60));
    let started = Instant::now();
    let out = ok_text(run(&ctx, "sleep 100 & echo $! > bg.pid; echo done").await);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(out.starts_with("done\n"), "{out}");
    assert!(
        out.contains("background processes still writing output"),
        "{out}"
    );
    let pid = read_pid_file(&dir.path().join("bg.pid")).await;
    assert!(wait_dead(pid).await);

    // Confined: the namespace ends with the command, so nothing holds the output and nothing is left.
    let confined = context(&dir, Duration::from_secs(60));
    let started = Instant::now();
    let out = ok_text(run(&confined, "sleep 100 & echo done").await);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(out.starts_with("done"), "{out}");
}

#[tokio::test]
async fn unconfined_detached_background_children_are_left_running() {
    let dir = TempDir::new().unwrap();
    let ctx = plain_context(&dir, Duration::from_secs(60));
    let started = Instant::now();
    let out = ok_text(run(&ctx, "sleep 100 >/dev/null 2>&1 & echo $! > bg.pid").await);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out, "(no output)");
    let pid = read_pid_file(&dir.path().join("bg.pid")).await;
    assert!(is_alive(pid));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
}

#[tokio::test]
async fn large_output_keeps_an_8000_char_head_and_spills_the_rest() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(30));
    let out = ok_text(run(&ctx, "seq 1 5000").await);
    assert!(out.starts_with("[output too large, offloaded to a file]\ntool: execute_command\n"));
    let expected: String = (1..=5000).map(|i| format!("{i}\n")).collect();
    assert!(out.contains(&format!("size: {} chars, 5000 lines", expected.len())));
    let rel = out.lines().find_map(|l| l.strip_prefix("file: ")).unwrap();
    assert_eq!(
        std::fs::read_to_string(ctx.root.join(rel)).unwrap(),
        expected
    );
    let head_len = out
        .lines()
        .find_map(|l| l.strip_prefix("--- head ("))
        .and_then(|l| l.strip_suffix(" chars) ---"))
        .unwrap()
        .parse::<usize>()
        .unwrap();
    assert!(head_len > 4000 && head_len <= 8000);
}

#[tokio::test]
async fn large_output_is_truncated_when_spill_is_disabled() {
    let dir = TempDir::new().unwrap();
    let mut ctx = context(&dir, Duration::from_secs(30));
    ctx.spill = Arc::new(SpillStore::new(&ctx.root, false, 32_000));
    let out = ok_text(run(&ctx, "seq 1 5000").await);
    assert!(out.starts_with("[output truncated: saving large outputs to files is disabled]"));
    assert!(!ctx.root.join(".paicli").exists());
}

#[tokio::test]
async fn capture_stops_at_two_million_chars() {
    let dir = TempDir::new().unwrap();
    let ctx = context(&dir, Duration::from_secs(30));
    let out = ok_text(run(&ctx, "head -c 3000000 /dev/zero | tr '\\0' a").await);
    assert!(
        out.contains("size: 2000000 chars, 1 lines"),
        "{}",
        &out[..300]
    );
    assert!(out.ends_with("[output capped at 2000000 chars; the rest was discarded]"));
}

#[test]
fn formats_durations_for_the_model() {
    assert_eq!(format_duration(Duration::from_secs(60)), "60s");
    assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
}

#[tokio::test]
async fn opaque_and_control_file_lines_run_once_the_gate_let_them_through() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::from_secs(10));
    // Opaque (a script fed to a shell on stdin) and a control-file write: the tool refuses only what the guard
    // refuses; who may run these is the approval gate's decision.
    assert_eq!(
        ok_text(run(&ctx, "echo 'echo piped' | sh").await),
        "piped\n"
    );
    // The gate lets a control-file write run with the control paths writable.
    let mut approved = ctx.clone();
    approved.limits.confinement = crate::protocol::Confinement::ControlWritable;
    ok_text(run(&approved, "echo 'X=1' > .env").await);
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".env")).unwrap(),
        "X=1\n"
    );
    // A refusal still stops the line (were it run, it would only empty this temporary project).
    let refused = run(&ctx, "find . -delete").await;
    assert!(
        matches!(&refused, ToolOutcome::Denied { code, .. } if code == COMMAND_GUARD),
        "{refused:?}"
    );
    assert!(dir.path().join(".env").exists());
}

#[tokio::test]
async fn output_lines_are_reported_while_the_command_runs() {
    let dir = TempDir::new().unwrap();
    let (progress, mut lines) = crate::tools::Progress::channel(16);
    let ctx = ToolContext {
        progress: progress.for_call("call_7"),
        ..context(&dir, Duration::from_secs(10))
    };
    // The first line is reported while the command still runs: it waits until the test has received it.
    let flag = dir.path().join("seen");
    let command = format!(
        "echo first; while [ ! -e {} ]; do sleep 0.01; done; echo second >&2",
        flag.display()
    );
    let run = tokio::spawn(async move { run(&ctx, &command).await });
    assert_eq!(
        lines.recv().await,
        Some(("call_7".to_string(), "first".to_string()))
    );
    std::fs::write(&flag, "").unwrap();
    assert_eq!(
        lines.recv().await,
        Some(("call_7".to_string(), "second".to_string()))
    );
    let text = match run.await.unwrap() {
        ToolOutcome::Ok(out) => out.text,
        ToolOutcome::Failed { reason } => reason,
        other => panic!("{other:?}"),
    };
    assert!(text.contains("first") && text.contains("second"), "{text}");
}
