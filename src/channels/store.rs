//! Files a channel keeps under `$PAICLI_HOME/channels/<channel>/`: private to the user (folder 0700, files 0600),
//! written whole through a temp file and a rename, so a crash never leaves half a cursor behind.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Creates `dir` (and its parents) readable by the user only.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Replaces `path` with `bytes`, mode 0600, atomically.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        ensure_private_dir(dir)?;
    }
    let temp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&temp, path)
}

/// Appends `line` and a newline to `path`, creating it with mode 0600.
pub fn append_private(path: &Path, line: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        ensure_private_dir(dir)?;
    }
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(format!("{line}\n").as_bytes())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn written_files_are_the_users_alone() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("channels/telegram/offset.json");
        write_private(&path, b"{}").unwrap();
        append_private(&home.path().join("channels/telegram/channel.log"), "x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(
            mode(&home.path().join("channels/telegram/channel.log")),
            0o600
        );
        assert_eq!(mode(&home.path().join("channels/telegram")), 0o700);
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
    }
}
