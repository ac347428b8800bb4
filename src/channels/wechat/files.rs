//! Where the WeChat channel keeps its files under `$PAICLI_HOME/channels/wechat/`, and how it writes them:
//! owner-only (0700 folder, 0600 files), whole files replaced by rename so a crash leaves the old or the new one.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::channels::transport::ChannelError;

use super::CHANNEL;

/// The login: bot token, bot id, bound user, API host. The only file that holds the token.
pub use crate::app::channel_status::WECHAT_ACCOUNT_FILE as ACCOUNT_FILE;
/// The long-poll cursor, the ids seen last and whether the account is paused (`/channel` reads it too).
pub use crate::app::channel_status::WECHAT_POLL_STATE_FILE as POLL_STATE_FILE;

/// `$PAICLI_HOME/channels/wechat`.
pub fn channel_dir(home: &Path) -> PathBuf {
    home.join("channels").join(CHANNEL)
}

/// Replaces `path` with `bytes`, readable by the owner only.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), ChannelError> {
    write_private_io(path, bytes).map_err(io_error)
}

fn write_private_io(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let temp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temp)?;
    // A file left by an older run with wider bits keeps them through `mode`; narrow them explicitly.
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&temp, path)
}

/// Reads `path`, `None` when it does not exist.
pub fn read_if_present(path: &Path) -> Result<Option<Vec<u8>>, ChannelError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error(e)),
    }
}

/// Removes `path` if it exists.
pub fn remove_if_present(path: &Path) -> Result<(), ChannelError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(e)),
    }
}

pub fn io_error(source: std::io::Error) -> ChannelError {
    ChannelError::Io {
        channel: CHANNEL,
        source,
    }
}

/// A file that exists but does not parse: said with its path, so the person knows what to fix or delete.
pub fn corrupt(path: &Path, error: &serde_json::Error) -> ChannelError {
    io_error(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("{} does not parse: {error}", path.display()),
    ))
}
