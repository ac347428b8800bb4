//! The snapshot store's own control files, kept to what paicli wrote. Git always reads its directory's `config`
//! and `info/attributes`, and follows `commondir` and `objects/info/alternates`: a line added there (a `filter`
//! whose `clean` command git runs on the next snapshot, a hooks path, an fsmonitor) would run outside any
//! sandbox. Before every git run the store is checked; anything paicli did not write is removed (the config is
//! rewritten to paicli's) and that run is refused, naming what was found.

use std::path::Path;

use super::SnapshotError;
use crate::config::safe_read::read_regular_capped;

/// The store's `config`, as paicli writes it. Every other setting is given on git's command line.
pub const CONFIG: &str = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n";

/// `[core]` keys `git init` writes; a config holding only these is a store an older paicli made.
const INIT_KEYS: [&str; 7] = [
    "repositoryformatversion",
    "filemode",
    "bare",
    "logallrefupdates",
    "ignorecase",
    "precomposeunicode",
    "symlinks",
];

/// Files in the git directory git obeys and paicli never writes.
const FOREIGN_FILES: [&str; 5] = [
    "info/attributes",
    "commondir",
    "objects/info/alternates",
    "config.worktree",
    "gitdir",
];

/// Bytes of `config` read: paicli's is far smaller, anything longer was written by someone else.
const CONFIG_CAP: u64 = 16 * 1024;

/// Checks the store at `git_dir`; repairs it and refuses this run when someone else changed it.
pub fn check(git_dir: &Path) -> Result<(), SnapshotError> {
    let mut found: Vec<String> = Vec::new();
    let config = git_dir.join("config");
    match read_config(&config) {
        Some(text) if text == CONFIG => {}
        Some(text) if is_plain_init(&text) => write_config(&config)?,
        None if !config.exists() => write_config(&config)?,
        _ => {
            found.push("config".to_string());
            remove(&config)?;
            write_config(&config)?;
        }
    }
    for name in FOREIGN_FILES {
        let path = git_dir.join(name);
        if std::fs::symlink_metadata(&path).is_ok() {
            found.push(name.to_string());
            remove(&path)?;
        }
    }
    let hooks = git_dir.join("hooks");
    if std::fs::symlink_metadata(&hooks).is_ok() {
        found.push("hooks".to_string());
        remove(&hooks)?;
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(SnapshotError::Tampered {
            path: git_dir.to_path_buf(),
            files: found.join(", "),
        })
    }
}

/// The config's text when it is a regular file of sane size.
fn read_config(path: &Path) -> Option<String> {
    let text = read_regular_capped(path, CONFIG_CAP + 1)?;
    (text.len() as u64 <= CONFIG_CAP).then_some(text)
}

/// True for a config that holds only `[core]` and the keys `git init` writes.
fn is_plain_init(text: &str) -> bool {
    let mut sections = 0;
    text.lines().map(str::trim).all(|line| {
        if line.is_empty() {
            return true;
        }
        if line.starts_with('[') {
            sections += 1;
            return line == "[core]" && sections == 1;
        }
        line.split_once('=')
            .is_some_and(|(key, _)| INIT_KEYS.contains(&key.trim().to_ascii_lowercase().as_str()))
    })
}

fn write_config(path: &Path) -> Result<(), SnapshotError> {
    std::fs::write(path, CONFIG).map_err(|source| store_error(path, source))
}

fn remove(path: &Path) -> Result<(), SnapshotError> {
    let meta = std::fs::symlink_metadata(path).map_err(|source| store_error(path, source))?;
    let removed = if meta.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    removed.map_err(|source| store_error(path, source))
}

fn store_error(path: &Path, source: std::io::Error) -> SnapshotError {
    SnapshotError::Store {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_plain_init_config_is_rewritten_quietly_and_a_planted_filter_is_refused_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path();
        std::fs::write(
            git_dir.join("config"),
            "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n",
        )
        .unwrap();
        check(git_dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(git_dir.join("config")).unwrap(),
            CONFIG
        );

        let planted = format!("{CONFIG}[filter \"x\"]\n\tclean = touch /tmp/pwned\n");
        std::fs::write(git_dir.join("config"), planted).unwrap();
        std::fs::create_dir_all(git_dir.join("info")).unwrap();
        std::fs::write(git_dir.join("info/attributes"), "* filter=x\n").unwrap();
        let err = check(git_dir).unwrap_err().to_string();
        assert!(
            err.contains("config") && err.contains("info/attributes"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(git_dir.join("config")).unwrap(),
            CONFIG
        );
        assert!(!git_dir.join("info/attributes").exists());
        check(git_dir).unwrap();
    }

    #[test]
    fn a_commondir_hooks_or_a_symlinked_config_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path();
        std::fs::write(git_dir.join("commondir"), "/elsewhere\n").unwrap();
        std::fs::create_dir(git_dir.join("hooks")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", git_dir.join("config")).unwrap();
        let err = check(git_dir).unwrap_err().to_string();
        for what in ["commondir", "hooks", "config"] {
            assert!(err.contains(what), "{err}");
        }
        assert!(
            std::fs::symlink_metadata(git_dir.join("config"))
                .unwrap()
                .is_file()
        );
        check(git_dir).unwrap();
    }
}
