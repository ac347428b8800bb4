//! Runs one `bash -c` command in its own process group with stdin closed, stdout and stderr merged into one
//! pipe, and the whole group killed on timeout, cancellation, or when the caller stops waiting.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_util::sync::CancellationToken;

use crate::sandbox::{Launch, SOCKET_VARS};
use crate::tools::Progress;
use crate::tools::progress::LineSplitter;

/// How long output may keep arriving after the command itself exited (background jobs writing to our pipe).
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long to collect what is still buffered in the pipe after the group was killed.
const DRAIN_AFTER_KILL: Duration = Duration::from_millis(300);
/// Bytes kept before decoding; a UTF-8 char is at most 4 bytes, so this always covers `max_chars`.
const BYTES_PER_CHAR: usize = 4;

/// What to run and within which limits.
pub struct RunSpec<'a> {
    pub command: &'a str,
    pub cwd: &'a Path,
    pub timeout: Duration,
    pub cancel: &'a CancellationToken,
    /// Output kept, in chars; the rest is read and discarded.
    pub max_chars: usize,
    /// Secret-looking variables the child still receives (see [`scrub_env`]).
    pub keep_env: &'a [String],
    /// Gets each output line as it arrives (the live view of a running command).
    pub progress: &'a Progress,
    /// Confined or plain; it must stay alive until the child is spawned.
    pub launch: &'a Launch,
}

/// Parts of a variable name that mark it as a secret.
const SECRET_MARKERS: [&str; 5] = ["KEY", "SECRET", "TOKEN", "PASSWORD", "CREDENTIAL"];

/// Names of variables in `vars` the child must not see: those whose upper-cased name contains KEY, SECRET,
/// TOKEN, PASSWORD or CREDENTIAL, unless listed in `keep`.
pub fn scrub_env<'v>(vars: impl IntoIterator<Item = &'v str>, keep: &[String]) -> Vec<&'v str> {
    vars.into_iter()
        .filter(|name| {
            let upper = name.to_ascii_uppercase();
            SECRET_MARKERS.iter().any(|m| upper.contains(m)) && !keep.iter().any(|k| k == name)
        })
        .collect()
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The command exited with this code.
    Exited(i32),
    /// The command was killed by this signal (not by us).
    Signaled(i32),
    /// The time limit passed; the group was killed.
    TimedOut,
    /// The cancel token fired; the group was killed.
    Cancelled,
}

/// The merged output and how the run ended.
#[derive(Debug)]
pub struct Run {
    pub output: String,
    pub ending: Ending,
    /// True when output beyond `max_chars` was discarded.
    pub capped: bool,
    /// True when background processes still held the output open after the command exited and were killed.
    pub stragglers_killed: bool,
}

/// Runs `spec.command` with `bash -c`; errors only when the process could not be started.
pub async fn run(spec: RunSpec<'_>) -> io::Result<Run> {
    let (reader, writer) = io::pipe()?;
    let writer_for_stderr = writer.try_clone()?;
    let mut command = spec.launch.command("bash");
    command
        .arg("-c")
        .arg(spec.command)
        .current_dir(spec.cwd)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer_for_stderr)
        .process_group(0)
        .kill_on_drop(true);
    let names: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .collect();
    for name in scrub_env(names.iter().map(String::as_str), spec.keep_env) {
        command.env_remove(name);
    }
    // A confined command is not pointed at the user's daemons (their sockets are hidden from it too).
    if spec.launch.is_confined() {
        for name in SOCKET_VARS {
            if !spec.keep_env.iter().any(|k| k == name) {
                command.env_remove(name);
            }
        }
    }
    let spawned = command.spawn();
    // Our copies of the write end must close, or the pipe never reports end of file.
    drop(command);
    let mut child = spawned?;
    let mut group = ProcessGroup::new(child.id());
    let mut output = pipe::Receiver::from_owned_fd(OwnedFd::from(reader))?;

    let max_bytes = spec.max_chars.saturating_mul(BYTES_PER_CHAR);
    let mut captured = Capture::new(max_bytes);
    let mut buf = vec![0u8; 64 * 1024];
    let deadline = Instant::now() + spec.timeout;
    let mut status: Option<ExitStatus> = None;
    let mut grace_deadline = deadline;
    let mut eof = false;
    let mut stragglers_killed = false;
    let mut lines = LineSplitter::default();

    let ending = loop {
        if eof && let Some(status) = status {
            group.disarm();
            break ending_of(status);
        }
        tokio::select! {
            biased;
            () = spec.cancel.cancelled() => break Ending::Cancelled,
            () = sleep_until(deadline) => break Ending::TimedOut,
            () = sleep_until(grace_deadline), if status.is_some() => {
                stragglers_killed = true;
                break status.map_or(Ending::TimedOut, ending_of);
            }
            read = output.read(&mut buf), if !eof => match read {
                Ok(0) | Err(_) => eof = true,
                Ok(n) => {
                    captured.push(&buf[..n]);
                    if spec.progress.is_on() {
                        lines.push(&buf[..n], |line| spec.progress.line(line));
                    }
                }
            },
            waited = child.wait(), if status.is_none() => {
                let exited = waited?;
                status = Some(exited);
                grace_deadline = grace_deadline.min(Instant::now() + EXIT_GRACE);
            }
        }
    };

    if group.armed {
        group.kill();
        drain(&mut output, &mut buf, &mut captured).await;
        // Reap the direct child; it was killed with the group.
        let _ = timeout(DRAIN_AFTER_KILL, child.wait()).await;
    }
    let (output, capped) = captured.into_text(spec.max_chars);
    Ok(Run {
        output,
        ending,
        capped,
        stragglers_killed,
    })
}

/// Reads what is left in the pipe after a kill, for a short while at most.
async fn drain(output: &mut pipe::Receiver, buf: &mut [u8], captured: &mut Capture) {
    let _ = timeout(DRAIN_AFTER_KILL, async {
        while let Ok(n) = output.read(buf).await {
            if n == 0 {
                break;
            }
            captured.push(&buf[..n]);
        }
    })
    .await;
}

fn ending_of(status: ExitStatus) -> Ending {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signaled(signal),
        (None, None) => Ending::Exited(-1),
    }
}

/// Output bytes, kept up to a cap.
struct Capture {
    bytes: Vec<u8>,
    max_bytes: usize,
    dropped: bool,
}

impl Capture {
    fn new(max_bytes: usize) -> Self {
        Capture {
            bytes: Vec::new(),
            max_bytes,
            dropped: false,
        }
    }

    fn push(&mut self, chunk: &[u8]) {
        let room = self.max_bytes.saturating_sub(self.bytes.len());
        if chunk.len() > room {
            self.dropped = true;
        }
        self.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
    }

    /// Decodes (lossily: commands print whatever bytes they like) and cuts to `max_chars`.
    fn into_text(self, max_chars: usize) -> (String, bool) {
        let text = String::from_utf8_lossy(&self.bytes);
        match text.char_indices().nth(max_chars) {
            Some((cut, _)) => (text[..cut].to_string(), true),
            None => (text.into_owned(), self.dropped),
        }
    }
}

/// The child's process group; killed on drop unless the run ended cleanly.
struct ProcessGroup {
    pgid: Option<Pid>,
    armed: bool,
}

impl ProcessGroup {
    fn new(child_id: Option<u32>) -> Self {
        // With process_group(0) the group id is the child's pid.
        let pgid = child_id
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        ProcessGroup { pgid, armed: true }
    }

    fn kill(&mut self) {
        if let Some(pgid) = self.pgid {
            // ESRCH (group already gone) is fine.
            let _ = killpg(pgid, Signal::SIGKILL);
        }
        self.armed = false;
    }

    fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if self.armed {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrub_env_removes_secret_looking_names_unless_kept() {
        let names = [
            "PATH",
            "HOME",
            "OPENAI_API_KEY",
            "github_token",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "KEYBOARD",
            "LANG",
            "NPM_TOKEN",
        ];
        let removed = scrub_env(names, &["NPM_TOKEN".to_string()]);
        assert_eq!(
            removed,
            [
                "OPENAI_API_KEY",
                "github_token",
                "AWS_SECRET_ACCESS_KEY",
                "DB_PASSWORD",
                "GOOGLE_APPLICATION_CREDENTIALS",
                "KEYBOARD",
            ]
        );
    }

    #[test]
    fn capture_keeps_up_to_the_cap_and_reports_the_rest() {
        let mut c = Capture::new(8);
        c.push(b"hello");
        c.push(b" world");
        assert_eq!(c.into_text(100), ("hello wo".to_string(), true));
    }

    #[test]
    fn capture_cuts_at_chars_not_bytes() {
        let mut c = Capture::new(100);
        c.push("héllo".as_bytes());
        assert_eq!(c.into_text(2), ("hé".to_string(), true));
    }

    #[test]
    fn capture_decodes_invalid_utf8_lossily() {
        let mut c = Capture::new(100);
        c.push(b"a\xffb");
        assert_eq!(c.into_text(100), ("a\u{fffd}b".to_string(), false));
    }
}
