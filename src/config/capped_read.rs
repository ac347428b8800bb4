//! Reads a small file someone else may have written (a project's `.git` link, a store's git config) safely:
//! a regular file only, never through a symbolic link, and never more than a cap however large it claims to be.

use std::io::Read;
use std::path::Path;

/// At most `cap` bytes of the regular file at `path` as text; `None` for a link, a folder, a device, a file that
/// cannot be opened, or bytes that are not UTF-8.
pub fn read_regular_capped(path: &Path, cap: u64) -> Option<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    file.take(cap).read_to_string(&mut text).ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_a_regular_file_up_to_the_cap_and_refuses_links_folders_and_devices() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "hello world").unwrap();
        assert_eq!(read_regular_capped(&file, 5).as_deref(), Some("hello"));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_regular_capped(&link, 100), None);
        assert_eq!(read_regular_capped(dir.path(), 100), None);
        assert_eq!(read_regular_capped(Path::new("/dev/zero"), 100), None);
    }
}
