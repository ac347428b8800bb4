//! Runs one hook command as the person's own program (like a git hook: not in the command sandbox), with
//! `bash -c` in the project root, its input on stdin, and its whole process group killed at the timeout or when
//! the run is dropped (a cancelled turn).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

/// The most of a hook's stdout or stderr that is kept.
const OUTPUT_CAP: usize = 256 * 1024;

/// How a hook command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited with this code.
    Code(i32),
    /// Killed by a signal, or killed by us at its timeout (`timed_out`).
    Killed { timed_out: bool },
}

/// What one run of a hook command gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
}

/// Kills the process group when dropped unless the process was seen to end.
struct GroupGuard(Option<i32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.0.take() {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

/// Runs `command` with `input` on stdin in `cwd`, with `env` added to the person's environment.
pub async fn run_command(
    command: &str,
    input: &[u8],
    cwd: &Path,
    env: &[(&str, &Path)],
    timeout: Duration,
) -> std::io::Result<Output> {
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    for (name, value) in env {
        cmd.env(name, value);
    }
    let mut child = cmd.spawn()?;
    let mut guard = GroupGuard(child.id().and_then(|id| i32::try_from(id).ok()));
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let input = input.to_vec();
    let write = async move {
        if let Some(mut stdin) = stdin {
            // A hook that does not read its input is fine: a broken pipe is not an error.
            let _ = stdin.write_all(&input).await;
        }
    };
    let ran = async {
        let ((), out, err, status) = tokio::join!(
            write,
            read_capped(stdout),
            read_capped(stderr),
            child.wait()
        );
        (out, err, status)
    };
    match tokio::time::timeout(timeout, ran).await {
        Ok((stdout, stderr, status)) => {
            let status = status?;
            // The hook ended: its group may still hold children it left behind, which the guard kills too.
            let exit = status
                .code()
                .map_or(Exit::Killed { timed_out: false }, Exit::Code);
            drop(guard);
            Ok(Output {
                exit,
                stdout,
                stderr,
            })
        }
        Err(_) => {
            if let Some(pid) = guard.0.take() {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            }
            Ok(Output {
                exit: Exit::Killed { timed_out: true },
                stdout: String::new(),
                stderr: String::new(),
            })
        }
    }
}

async fn read_capped(pipe: Option<impl AsyncRead + Unpin>) -> String {
    let Some(mut pipe) = pipe else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn input_goes_in_on_stdin_and_exit_code_and_both_streams_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_command(
            "cat; echo \"$PAICLI_PROJECT_DIR\" >&2; exit 2",
            b"{\"a\":1}",
            dir.path(),
            &[("PAICLI_PROJECT_DIR", dir.path())],
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert_eq!(out.exit, Exit::Code(2));
        assert_eq!(out.stdout, "{\"a\":1}");
        assert_eq!(out.stderr.trim(), dir.path().to_string_lossy());
    }

    #[tokio::test]
    async fn a_hanging_hook_and_its_children_are_killed_at_the_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("child-pid");
        let command = format!("sleep 30 & echo $! > {}; wait", marker.display());
        let started = std::time::Instant::now();
        let out = run_command(&command, b"", dir.path(), &[], Duration::from_millis(500))
            .await
            .unwrap();
        assert_eq!(out.exit, Exit::Killed { timed_out: true });
        assert!(started.elapsed() < Duration::from_secs(10));
        let pid: i32 = std::fs::read_to_string(&marker)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // The background child was in the hook's group: gone (or a zombie about to be reaped by init). SIGKILL is
        // delivered at once but the kernel tears the process down asynchronously, so poll until it has.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            if state.is_empty() || state.contains(") Z ") {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "child still running: {state}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
