//! A channel as a process: `start` in the foreground until SIGTERM or Ctrl-C (or in the background, as a child
//! writing to the channel's log), holding the channel's pid file locked so `status` and `stop` find it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::log::ChannelLog;
use super::store::ensure_private_dir;
use super::transport::{ChannelError, Transport};
use crate::app::channel_status::{ChannelState, channel_dir, channel_state, log_path, pid_path};
use crate::config::Config;
use crate::text::{Lang, Msg, tr, trf};

/// How long `stop` and `start --background` wait for the other process.
const WAIT_FOR_PROCESS: Duration = Duration::from_secs(30);
/// How often `start --background` looks whether its child took the lock.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// Why a channel command failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("the {channel} channel already runs (pid {pid})")]
    AlreadyRunning { channel: String, pid: u32 },
    #[error("the {channel} channel is not running")]
    NotRunning { channel: String },
    #[error("cannot use {}: {source}", path.display())]
    Files {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start the channel in the background: {0}")]
    Spawn(#[source] std::io::Error),
    #[error("the background channel exited ({status}); see {}", log.display())]
    ExitedEarly { status: String, log: PathBuf },
    #[error("the {channel} channel (pid {pid}) did not stop within {secs} s")]
    StopTimeout {
        channel: String,
        pid: u32,
        secs: u64,
    },
    #[error("cannot signal pid {pid}: {error}")]
    Signal { pid: u32, error: String },
    #[error(transparent)]
    Channel(#[from] ChannelError),
    /// The service ended a running channel; the layer has already said why, on stderr and in the channel's log.
    #[error(transparent)]
    Ended(ChannelError),
}

impl ServiceError {
    /// The error worded for people.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            ServiceError::AlreadyRunning { channel, pid } => trf(
                lang,
                Msg::ChannelAlreadyRunning,
                &[("channel", channel), ("pid", pid)],
            ),
            ServiceError::NotRunning { channel } => {
                trf(lang, Msg::ChannelNotRunning, &[("channel", channel)])
            }
            ServiceError::Channel(error) | ServiceError::Ended(error) => trf(
                lang,
                Msg::ChannelCommandFailed,
                &[("error", &channel_error(lang, error))],
            ),
            other => trf(lang, Msg::ChannelCommandFailed, &[("error", other)]),
        }
    }
}

/// What a person must do about a channel that is not set up or was paused, in their language; other errors as
/// the service worded them.
pub fn channel_error(lang: Lang, error: &ChannelError) -> String {
    match error {
        ChannelError::NoToken { .. } => tr(lang, Msg::ChannelTelegramNoToken).to_string(),
        ChannelError::NotSetUp { channel, detail } => trf(
            lang,
            Msg::ChannelNotSetUp,
            &[("channel", channel), ("detail", detail)],
        ),
        ChannelError::Paused { channel, detail } => trf(
            lang,
            Msg::ChannelAccountPaused,
            &[("channel", channel), ("detail", detail)],
        ),
        other => other.to_string(),
    }
}

/// The pid file, locked for as long as the channel runs; removed when it stops.
struct PidLock {
    file: File,
    path: PathBuf,
}

impl PidLock {
    fn acquire(home: &Path, channel: &str) -> Result<PidLock, ServiceError> {
        let path = pid_path(home, channel);
        let files = |source| ServiceError::Files {
            path: path.clone(),
            source,
        };
        ensure_private_dir(&channel_dir(home, channel)).map_err(files)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(&path)
            .map_err(files)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let pid = match channel_state(home, channel) {
                    ChannelState::Running { pid } => pid,
                    ChannelState::Stopped => 0,
                };
                return Err(ServiceError::AlreadyRunning {
                    channel: channel.to_string(),
                    pid,
                });
            }
            Err(TryLockError::Error(e)) => return Err(files(e)),
        }
        file.set_len(0).map_err(files)?;
        writeln!(file, "{}", std::process::id()).map_err(files)?;
        file.sync_all().map_err(files)?;
        Ok(PidLock { file, path })
    }
}

impl Drop for PidLock {
    fn drop(&mut self) {
        // Removed while still locked, so no other start can take a file about to vanish.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Runs the channel of `transport` here until SIGTERM or Ctrl-C: the pid file locked, errors to stderr and the
/// channel's log. `allow_from` are the senders heard.
pub async fn run_foreground(
    config: &Config,
    transport: Arc<dyn Transport>,
    allow_from: Vec<String>,
) -> Result<(), ServiceError> {
    let channel = transport.kind().id();
    let _lock = PidLock::acquire(&config.home, channel)?;
    let lang = Lang::resolve(config.ui_language, &config.env);
    let log = ChannelLog::new(&config.home, channel);
    let folder = config.project_root.display().to_string();
    let senders = allow_from.len();
    log.record(&trf(
        lang,
        Msg::ChannelStarted,
        &[
            ("pid", &std::process::id()),
            ("folder", &folder),
            ("senders", &senders),
        ],
    ));
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let signals = tokio::spawn(async move {
        stop_signal().await;
        on_signal.cancel();
    });
    let served = super::serve_chats(config, transport, allow_from, cancel).await;
    signals.abort();
    log.record(&trf(
        lang,
        Msg::ChannelEnded,
        &[("pid", &std::process::id())],
    ));
    served.map_err(ServiceError::Ended)
}

/// Ctrl-C or SIGTERM.
pub async fn stop_signal() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    tokio::select! {
        Ok(()) = tokio::signal::ctrl_c() => {}
        Some(()) = async { match term.as_mut() { Some(t) => t.recv().await, None => None } } => {}
        else => std::future::pending::<()>().await,
    }
}

/// Starts this very command again without `--background`, detached (its own process group, stdin closed, output
/// to the channel's log), and returns its pid once it holds the channel's lock.
pub fn start_background(home: &Path, channel: &str) -> Result<u32, ServiceError> {
    if let ChannelState::Running { pid } = channel_state(home, channel) {
        return Err(ServiceError::AlreadyRunning {
            channel: channel.to_string(),
            pid,
        });
    }
    let log = log_path(home, channel);
    let files = |source| ServiceError::Files {
        path: log.clone(),
        source,
    };
    ensure_private_dir(&channel_dir(home, channel)).map_err(files)?;
    let output = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(&log)
        .map_err(files)?;
    let errors = output.try_clone().map_err(files)?;
    let exe = std::env::current_exe().map_err(ServiceError::Spawn)?;
    let args: Vec<_> = std::env::args_os()
        .skip(1)
        .filter(|a| a != "--background")
        .collect();
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(output)
        .stderr(errors)
        .process_group(0)
        .spawn()
        .map_err(ServiceError::Spawn)?;
    let pid = child.id();
    let started = Instant::now();
    loop {
        if channel_state(home, channel) == (ChannelState::Running { pid }) {
            return Ok(pid);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(ServiceError::ExitedEarly {
                status: status.to_string(),
                log,
            });
        }
        if started.elapsed() > WAIT_FOR_PROCESS {
            return Err(ServiceError::ExitedEarly {
                status: "no lock taken".to_string(),
                log,
            });
        }
        std::thread::sleep(LOOK_EVERY);
    }
}

/// Sends SIGTERM to the running channel and waits for it to end (for its lock to be released); returns its pid.
pub fn stop(home: &Path, channel: &str) -> Result<u32, ServiceError> {
    let ChannelState::Running { pid } = channel_state(home, channel) else {
        return Err(ServiceError::NotRunning {
            channel: channel.to_string(),
        });
    };
    let path = pid_path(home, channel);
    // Opened before the signal: the file is removed on the way out, the lock on this handle still tells.
    let held = File::open(&path).map_err(|source| ServiceError::Files { path, source })?;
    let target =
        i32::try_from(pid)
            .ok()
            .filter(|&p| p > 0)
            .ok_or_else(|| ServiceError::Signal {
                pid,
                error: "not a process id".to_string(),
            })?;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(target),
        nix::sys::signal::Signal::SIGTERM,
    )
    .map_err(|e| ServiceError::Signal {
        pid,
        error: e.to_string(),
    })?;
    let (released, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = released.send(held.lock());
    });
    match wait.recv_timeout(WAIT_FOR_PROCESS) {
        Ok(_) => Ok(pid),
        Err(_) => Err(ServiceError::StopTimeout {
            channel: channel.to_string(),
            pid,
            secs: WAIT_FOR_PROCESS.as_secs(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_up_and_pause_errors_tell_what_to_do_in_the_persons_language() {
        let no_token = ChannelError::NoToken {
            channel: "telegram",
        };
        let zh = channel_error(Lang::Zh, &no_token);
        assert!(
            zh.contains("PAICLI_TELEGRAM_BOT_TOKEN") && zh.contains("没有机器人令牌"),
            "{zh}"
        );
        assert!(
            channel_error(Lang::En, &no_token)
                .contains("no bot token: set PAICLI_TELEGRAM_BOT_TOKEN")
        );
        let paused = ChannelError::Paused {
            channel: "wechat",
            detail: "ret -14".into(),
        };
        let zh = channel_error(Lang::Zh, &paused);
        assert!(
            zh.contains("账号已暂停") && zh.contains("paicli channel wechat setup"),
            "{zh}"
        );
        assert_eq!(channel_error(Lang::En, &paused), paused.to_string());
        let failed = ServiceError::Channel(no_token).describe(Lang::Zh);
        assert!(
            failed.starts_with("通道命令失败：telegram 尚未设置"),
            "{failed}"
        );
    }
}
