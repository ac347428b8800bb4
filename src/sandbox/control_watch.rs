//! The after-check for control paths a confined command could still change: those that did not exist when it
//! started (a read-only bind mount needs something to mount on), symlinks, and — where the machine has no mount
//! namespaces — all of them. What they held is recorded before the command starts; once it has ended (with its
//! PID namespace, so nothing of it still runs) whatever it created there is removed and what it changed is put
//! back. Nothing is followed through a symlink on the way: a path whose parent now resolves elsewhere is left
//! alone and reported.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::guard::path_guard::resolve_existing;

/// Largest file whose content is kept to put back.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Entries recorded beneath one control folder (deeper or further ones cannot be put back).
const MAX_ENTRIES: usize = 2048;
/// Folder depth recorded beneath one control folder.
const MAX_DEPTH: usize = 8;

/// What one path held before the command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Held {
    Absent,
    Link(PathBuf),
    /// A regular file: its bytes (`None` when too large to keep), permission bits, length and modification time.
    File {
        bytes: Option<Vec<u8>>,
        mode: u32,
        stamp: (u64, Option<std::time::SystemTime>),
    },
    /// A folder and what it held (`None` when it held too much to record).
    Dir(Option<BTreeMap<OsString, Held>>),
    /// Something else (a socket, a device): left as it is.
    Other,
}

/// What the after-check did to one path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undone {
    /// The command created it; it was removed.
    Removed(PathBuf),
    /// The command changed or removed it; it was put back.
    Restored(PathBuf),
    /// The command changed it and it could not be put back (too large, or its folder now leads elsewhere).
    NotRestored(PathBuf),
}

impl Undone {
    fn path(&self) -> &Path {
        match self {
            Undone::Removed(p) | Undone::Restored(p) | Undone::NotRestored(p) => p,
        }
    }
}

/// The recorded state of the watched control paths.
#[derive(Debug, Default)]
pub struct ControlWatch {
    /// Each path, its parent as it resolved then, and what it held.
    paths: Vec<(PathBuf, Option<PathBuf>, Held)>,
}

impl ControlWatch {
    /// Records what `paths` hold now.
    pub fn before(paths: &[PathBuf]) -> ControlWatch {
        let mut budget = MAX_ENTRIES;
        ControlWatch {
            paths: paths
                .iter()
                .map(|p| (p.clone(), real_parent(p), record(p, 0, &mut budget)))
                .collect(),
        }
    }

    /// True when nothing is watched.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Puts every watched path back as it was; what was undone, in order.
    pub fn undo(self) -> Vec<Undone> {
        let mut out = Vec::new();
        for (path, parent, held) in self.paths {
            if real_parent(&path) != parent {
                // Its folder now leads elsewhere: nothing is written or removed through it.
                if held != Held::Absent || std::fs::symlink_metadata(&path).is_ok() {
                    out.push(Undone::NotRestored(path));
                }
                continue;
            }
            put_back(&path, &held, &mut out);
        }
        out
    }
}

/// The report for the model: what the command was not allowed to leave behind, paths relative to `root`.
pub fn describe(undone: &[Undone], root: &Path) -> Option<String> {
    if undone.is_empty() {
        return None;
    }
    let show = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let lines: Vec<String> = undone
        .iter()
        .map(|u| {
            let what = match u {
                Undone::Removed(_) => "removed",
                Undone::Restored(_) => "put back",
                Undone::NotRestored(_) => "changed and could NOT be put back",
            };
            format!("  {what}: {}", show(u.path()))
        })
        .collect();
    Some(format!(
        "[sandbox] this command wrote files that run code later or steer later sessions (git config or hooks, \
         editor tasks, CI, instruction files, skills, …), which a command may only do when the person approves \
         that write. paicli undid it:\n{}\nAsk the user if the change is needed; they can approve it when the \
         command writes the file visibly (e.g. `git config …`, `cp x .git/hooks/…`).",
        lines.join("\n")
    ))
}

/// The parent folder resolved through the symlinks that exist (a folder not made yet counts as itself).
fn real_parent(path: &Path) -> Option<PathBuf> {
    path.parent().map(resolve_existing)
}

fn record(path: &Path, depth: usize, budget: &mut usize) -> Held {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Held::Absent;
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return std::fs::read_link(path).map_or(Held::Other, Held::Link);
    }
    if kind.is_file() {
        let bytes = (meta.len() <= MAX_FILE_BYTES)
            .then(|| std::fs::read(path).ok())
            .flatten();
        return Held::File {
            bytes,
            mode: meta.permissions().mode() & 0o7777,
            stamp: (meta.len(), meta.modified().ok()),
        };
    }
    if !kind.is_dir() {
        return Held::Other;
    }
    if depth >= MAX_DEPTH {
        return Held::Dir(None);
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return Held::Dir(None);
    };
    let mut held = BTreeMap::new();
    for entry in entries.flatten() {
        if *budget == 0 {
            return Held::Dir(None);
        }
        *budget -= 1;
        let name = entry.file_name();
        let inner = record(&path.join(&name), depth + 1, budget);
        held.insert(name, inner);
    }
    Held::Dir(Some(held))
}

/// Makes `path` hold `held` again, noting what it did.
fn put_back(path: &Path, held: &Held, out: &mut Vec<Undone>) {
    let now = record(path, MAX_DEPTH, &mut 1);
    match held {
        Held::Absent if now != Held::Absent => {
            let _ = remove(path);
            out.push(if std::fs::symlink_metadata(path).is_ok() {
                Undone::NotRestored(path.to_path_buf())
            } else {
                Undone::Removed(path.to_path_buf())
            });
        }
        Held::Absent | Held::Other => {}
        Held::Link(target) => {
            if now != *held {
                let _ = remove(path);
                let done = std::os::unix::fs::symlink(target, path).is_ok();
                out.push(restored(path, done));
            }
        }
        Held::File { bytes, mode, stamp } => {
            if file_matches(path, bytes.as_deref(), *mode, *stamp) {
                return;
            }
            let Some(bytes) = bytes else {
                out.push(Undone::NotRestored(path.to_path_buf()));
                return;
            };
            let done = remove(path).is_ok() && write_new(path, bytes, *mode).is_ok();
            out.push(restored(path, done));
        }
        Held::Dir(None) => {
            if !matches!(now, Held::Dir(_)) {
                out.push(Undone::NotRestored(path.to_path_buf()));
            }
        }
        Held::Dir(Some(entries)) => {
            if !matches!(now, Held::Dir(_)) {
                let done = remove(path).is_ok() && std::fs::create_dir(path).is_ok();
                out.push(restored(path, done));
                if !done {
                    return;
                }
            }
            // Entries the command added, then each recorded entry put back.
            if let Ok(found) = std::fs::read_dir(path) {
                for entry in found.flatten() {
                    if !entries.contains_key(&entry.file_name()) {
                        let added = entry.path();
                        let _ = remove(&added);
                        out.push(Undone::Removed(added));
                    }
                }
            }
            for (name, inner) in entries {
                put_back(&path.join(name), inner, out);
            }
        }
    }
}

fn restored(path: &Path, done: bool) -> Undone {
    if done {
        Undone::Restored(path.to_path_buf())
    } else {
        Undone::NotRestored(path.to_path_buf())
    }
}

/// True when `path` is a regular file with these bytes and mode (when the bytes were too large to keep: with the
/// same length and modification time).
fn file_matches(
    path: &Path,
    bytes: Option<&[u8]>,
    mode: u32,
    stamp: (u64, Option<std::time::SystemTime>),
) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.file_type().is_file() || meta.permissions().mode() & 0o7777 != mode {
        return false;
    }
    match bytes {
        Some(bytes) => std::fs::read(path).is_ok_and(|now| now == bytes),
        None => (meta.len(), meta.modified().ok()) == stamp,
    }
}

/// Removes whatever is at `path` without following it.
fn remove(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Creates `path` anew (never through a link or into an existing file's inode) with `bytes` and `mode`.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .mode(mode)
        .open(path)?;
    file.write_all(bytes)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_created_path_is_removed_and_a_changed_one_put_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        std::fs::write(root.join(".git/hooks/pre-commit.sample"), "#!/bin/sh\n").unwrap();
        let watched = [
            root.join(".git/config"),
            root.join(".git/hooks"),
            root.join(".envrc"),
            root.join(".github/workflows"),
        ];
        let watch = ControlWatch::before(&watched);
        // Nothing changed: nothing to report.
        assert!(ControlWatch::before(&watched).undo().is_empty());

        std::fs::write(root.join(".git/config"), "[core]\n\tfsmonitor = evil\n").unwrap();
        std::fs::write(root.join(".git/hooks/post-checkout"), "evil").unwrap();
        std::fs::remove_file(root.join(".git/hooks/pre-commit.sample")).unwrap();
        std::fs::write(root.join(".envrc"), "evil").unwrap();
        std::fs::create_dir_all(root.join(".github/workflows")).unwrap();
        std::fs::write(root.join(".github/workflows/x.yml"), "evil").unwrap();
        let undone = watch.undo();
        assert_eq!(
            undone,
            vec![
                Undone::Restored(root.join(".git/config")),
                Undone::Removed(root.join(".git/hooks/post-checkout")),
                Undone::Restored(root.join(".git/hooks/pre-commit.sample")),
                Undone::Removed(root.join(".envrc")),
                Undone::Removed(root.join(".github/workflows")),
            ]
        );
        assert_eq!(
            std::fs::read_to_string(root.join(".git/config")).unwrap(),
            "[core]\n"
        );
        assert!(root.join(".git/hooks/pre-commit.sample").exists());
        assert!(!root.join(".git/hooks/post-checkout").exists());
        assert!(!root.join(".envrc").exists());
        assert!(!root.join(".github/workflows").exists());
        let text = describe(&undone, root).unwrap();
        assert!(text.contains("removed: .envrc"), "{text}");
        assert!(text.contains("put back: .git/config"), "{text}");
    }

    #[test]
    fn a_file_swapped_for_a_link_is_put_back_without_writing_through_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "mine").unwrap();
        let config = dir.path().join("config");
        std::fs::write(&config, "[core]\n").unwrap();
        let watch = ControlWatch::before(std::slice::from_ref(&config));
        std::fs::remove_file(&config).unwrap();
        std::os::unix::fs::symlink(&victim, &config).unwrap();
        assert_eq!(watch.undo(), vec![Undone::Restored(config.clone())]);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
        assert!(
            !std::fs::symlink_metadata(&config)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&config).unwrap(), "[core]\n");
    }
}
