//! Whether a chat channel is running. `paicli channel <name> start` holds a lock on its pid file for as long as it
//! runs, so `status`, `stop` and the REPL's `/channel` read the truth from the lock rather than from a pid that
//! may have been reused by another process.

use std::fs::{File, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The chat services a channel can run for, as the command line and `$PAICLI_HOME/channels/` name them.
pub const CHANNEL_NAMES: [&str; 2] = ["wechat", "telegram"];

/// `$PAICLI_HOME/channels/<channel>/`: the channel's cursor, usage, log, pid file and credentials.
pub fn channel_dir(home: &Path, channel: &str) -> PathBuf {
    home.join("channels").join(channel)
}

/// The pid file a running channel holds locked.
pub fn pid_path(home: &Path, channel: &str) -> PathBuf {
    channel_dir(home, channel).join("channel.pid")
}

/// The channel's log: errors, dropped senders, starts and stops.
pub fn log_path(home: &Path, channel: &str) -> PathBuf {
    channel_dir(home, channel).join("channel.log")
}

/// Where the WeChat channel keeps its login (the only file holding its token) and its poll state.
pub const WECHAT_ACCOUNT_FILE: &str = "account.json";
pub const WECHAT_POLL_STATE_FILE: &str = "poll_state.json";

/// What the REPL's `/channel` says of the saved WeChat login (`paicli channel wechat status` says more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WechatLogin {
    /// The bound user, the only sender heard by default.
    pub user_id: String,
    /// Why the server paused the account (`-14`), `None` while it is active.
    pub paused: Option<String>,
    /// Whether a start resumes from a saved cursor.
    pub has_cursor: bool,
}

/// The saved WeChat login, `None` when there is none or it cannot be read (the channel's own commands say why).
pub fn wechat_login(home: &Path) -> Option<WechatLogin> {
    #[derive(serde::Deserialize)]
    struct AccountFile {
        user_id: String,
    }
    #[derive(serde::Deserialize, Default)]
    struct PollFile {
        #[serde(default)]
        get_updates_buf: String,
        #[serde(default)]
        paused: Option<String>,
    }
    let dir = channel_dir(home, "wechat");
    let account: AccountFile =
        serde_json::from_slice(&std::fs::read(dir.join(WECHAT_ACCOUNT_FILE)).ok()?).ok()?;
    let poll: PollFile = std::fs::read(dir.join(WECHAT_POLL_STATE_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    Some(WechatLogin {
        user_id: account.user_id,
        paused: poll.paused,
        has_cursor: !poll.get_updates_buf.is_empty(),
    })
}

/// What `status` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelState {
    /// A process holds the channel's lock.
    Running {
        pid: u32,
    },
    Stopped,
}

/// Whether `channel` runs now: its pid file exists and is locked by a live process.
pub fn channel_state(home: &Path, channel: &str) -> ChannelState {
    let Ok(mut file) = File::open(pid_path(home, channel)) else {
        return ChannelState::Stopped;
    };
    match file.try_lock() {
        // Nobody holds it: a process that died left the file behind. Our lock ends when `file` closes.
        Ok(()) | Err(TryLockError::Error(_)) => ChannelState::Stopped,
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            let pid = file
                .read_to_string(&mut text)
                .ok()
                .and_then(|_| text.trim().parse().ok())
                .unwrap_or(0);
            ChannelState::Running { pid }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_pid_file_is_running_only_while_someone_holds_its_lock() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(
            channel_state(home.path(), "telegram"),
            ChannelState::Stopped
        );
        std::fs::create_dir_all(channel_dir(home.path(), "telegram")).unwrap();
        let path = pid_path(home.path(), "telegram");
        std::fs::write(&path, "4242\n").unwrap();
        assert_eq!(
            channel_state(home.path(), "telegram"),
            ChannelState::Stopped
        );
        let held = File::open(&path).unwrap();
        held.lock().unwrap();
        assert_eq!(
            channel_state(home.path(), "telegram"),
            ChannelState::Running { pid: 4242 }
        );
        drop(held);
        assert_eq!(
            channel_state(home.path(), "telegram"),
            ChannelState::Stopped
        );
    }
}
