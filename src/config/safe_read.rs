//! The one reader for files paicli takes as instructions or settings (AGENTS.md, CLAUDE.md, PAI.md and their
//! imports, SKILL.md, custom commands, `config.toml`, `.mcp.json`, `.env`) and for small files someone else may
//! have written (a project's `.git` link). A cloned repository's files are someone else's words, so:
//!
//! - only a regular file is read: a folder, FIFO, socket or device is refused (FIFOs are opened `O_NONBLOCK`, so
//!   one cannot hang start-up);
//! - it is opened beneath its base folder (a project's file beneath the project; the user's own files beneath
//!   [`USER_FILES_BASE`], the whole tree, so a dotfiles link works) with the path guard's primitives (`openat2`
//!   with `RESOLVE_BENEATH`, or a walk with `O_NOFOLLOW`). A symlink that stays inside the base is followed (`CLAUDE.md` → `AGENTS.md` is common); one that leads out of it is refused, however it
//!   is spelled. The real path is checked first, then opened beneath the base with no symlink allowed at all, so
//!   a link swapped in between is refused too;
//! - at most `cap` bytes are read, never the whole file first: a `/dev/zero` or a 50 MB file costs `cap` bytes.
//!
//! Callers turn a refusal or a cut into one [`FileNotice`] each, which the front-ends word (`text::file_notice`).

use std::io::Read;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::beneath::{dir_flags, is_symlink_refusal, open_beneath};

/// Largest instruction file (AGENTS.md, CLAUDE.md, PAI.md, an import) taken into the system prompt; more is cut.
pub const INSTRUCTIONS_CAP: u64 = 40_000;
/// Largest settings file (`config.toml`, `mcp.json`, `.env`) read; a larger one is refused whole.
pub const SETTINGS_CAP: u64 = 1024 * 1024;
/// Largest SKILL.md or custom command file read; a larger one is refused (it is meant for a conversation).
pub const SKILL_CAP: u64 = 256 * 1024;

/// The base the user's own files (`$PAICLI_HOME`'s settings, `.env`, `mcp.json`, `PAI.md`, `~/.claude`'s
/// settings) are read beneath: the whole tree. They are the user's words, so a link into a dotfiles repository
/// is followed; no project and no confined command can write them (the guard refuses writes into
/// `$PAICLI_HOME`, the sandbox keeps it read-only and never makes the home folder writable). They are still read
/// as regular files, with a cap.
pub const USER_FILES_BASE: &str = "/";

/// The text read, and whether the file went on past the cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capped {
    /// At most `cap` bytes of the file, ending on a whole character.
    pub text: String,
    /// True when the file holds more than `cap` bytes.
    pub cut: bool,
}

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadRefused {
    /// The file does not exist (callers say nothing about it).
    #[error("it does not exist")]
    Missing,
    /// The file, or a folder on its path, is a symbolic link leading out of `base`.
    #[error("it lies outside {} (a symbolic link or `..` leads out of it)", base.display())]
    LinkOut { base: PathBuf },
    /// A folder, FIFO, socket or device.
    #[error("it is not a regular file")]
    NotRegular,
    /// Larger than the cap, for a kind of file that is no use cut (settings, skills).
    #[error("it is larger than {cap} bytes")]
    TooLarge { cap: u64 },
    /// The bytes are not UTF-8.
    #[error("it is not UTF-8 text")]
    NotUtf8,
    /// The file could not be opened or read.
    #[error("cannot read it: {0}")]
    Unreadable(String),
}

/// What a front-end tells the person about one file: refused, or read only in part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileNotice {
    /// The file as paicli looked for it.
    pub path: PathBuf,
    pub issue: FileIssue,
}

/// What happened to a file a [`FileNotice`] names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileIssue {
    /// Not read at all.
    Refused(ReadRefused),
    /// Only its first `cap` bytes were read.
    Cut { cap: u64 },
    /// The spill folder for large tool outputs (`.paicli/tool-outputs`) is, or lies behind, a symbolic link: it
    /// is not used, and large outputs are cut instead.
    SpillFolderLinked,
}

impl std::fmt::Display for FileNotice {
    /// The English wording, for logs and for notices that carry English text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.issue {
            FileIssue::Refused(why) => write!(f, "did not read {}: {why}", self.path.display()),
            FileIssue::Cut { cap } => write!(
                f,
                "read only the first {cap} bytes of {}; the rest was left out",
                self.path.display()
            ),
            FileIssue::SpillFolderLinked => write!(
                f,
                "large tool outputs are not saved in {}: it is a symbolic link or lies behind one, which paicli \
                 does not follow; they are cut instead",
                self.path.display()
            ),
        }
    }
}

/// Reads `path` (relative to `base`, or absolute beneath it) as described in the module docs.
pub fn read_beneath(base: &Path, path: &Path, cap: u64) -> Result<Capped, ReadRefused> {
    let base_real = base.canonicalize().map_err(refusal_of)?;
    let real = base.join(path).canonicalize().map_err(refusal_of)?;
    let link_out = || ReadRefused::LinkOut {
        base: base.to_path_buf(),
    };
    let rel = real.strip_prefix(&base_real).map_err(|_| link_out())?;
    if rel.as_os_str().is_empty() {
        return Err(ReadRefused::NotRegular);
    }
    let dir = rustix::fs::open(&base_real, dir_flags(), Mode::empty())
        .map_err(|e| refusal_of(e.into()))?;
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY;
    let fd = open_beneath(dir.as_fd(), rel, flags, Mode::empty()).map_err(|e| {
        // Checked real path, yet a symlink on the way: it was swapped in since. Nothing was read.
        if is_symlink_refusal(&e) {
            link_out()
        } else {
            refusal_of(e)
        }
    })?;
    read_open(std::fs::File::from(fd), cap)
}

/// [`read_beneath`] for a caller that keeps its notices: `None` for a missing file (said nowhere) or a refused
/// one (a notice); a cut file is returned with a notice.
pub fn read_noticed(
    base: &Path,
    path: &Path,
    cap: u64,
    notices: &mut Vec<FileNotice>,
) -> Option<String> {
    let notice = |issue| FileNotice {
        path: base.join(path),
        issue,
    };
    match read_beneath(base, path, cap) {
        Ok(Capped { text, cut }) => {
            if cut {
                notices.push(notice(FileIssue::Cut { cap }));
            }
            Some(text)
        }
        Err(ReadRefused::Missing) => None,
        Err(why) => {
            notices.push(notice(FileIssue::Refused(why)));
            None
        }
    }
}

/// [`read_beneath`] for a file that is no use cut (settings, skills): a longer file is refused as too large.
pub fn read_whole_beneath(base: &Path, path: &Path, cap: u64) -> Result<String, ReadRefused> {
    match read_beneath(base, path, cap)? {
        Capped { cut: true, .. } => Err(ReadRefused::TooLarge { cap }),
        Capped { text, .. } => Ok(text),
    }
}

/// [`read_whole_beneath`] keeping its notices like [`read_noticed`].
pub fn read_whole_noticed(
    base: &Path,
    path: &Path,
    cap: u64,
    notices: &mut Vec<FileNotice>,
) -> Option<String> {
    match read_whole_beneath(base, path, cap) {
        Ok(text) => Some(text),
        Err(ReadRefused::Missing) => None,
        Err(why) => {
            notices.push(FileNotice {
                path: base.join(path),
                issue: FileIssue::Refused(why),
            });
            None
        }
    }
}

/// At most `cap` bytes of the regular file at `path` as text; `None` for a link, a folder, a device, a file that
/// cannot be opened, or bytes that are not UTF-8. For files with no base folder to read beneath (a `.git`
/// link's target, a store's git config).
pub fn read_regular_capped(path: &Path, cap: u64) -> Option<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    read_open(file, cap).ok().map(|capped| capped.text)
}

/// Reads an open file: a regular file only, at most `cap` bytes, ending on a whole character.
fn read_open(file: std::fs::File, cap: u64) -> Result<Capped, ReadRefused> {
    let meta = file.metadata().map_err(refusal_of)?;
    if !meta.is_file() {
        return Err(ReadRefused::NotRegular);
    }
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(refusal_of)?;
    let cut = bytes.len() as u64 > cap;
    if cut {
        bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        // The cut may have split a character: drop its first bytes rather than call the file not UTF-8.
        if let Err(e) = std::str::from_utf8(&bytes)
            && e.error_len().is_none()
        {
            bytes.truncate(e.valid_up_to());
        }
    }
    let text = String::from_utf8(bytes).map_err(|_| ReadRefused::NotUtf8)?;
    Ok(Capped { text, cut })
}

fn refusal_of(err: std::io::Error) -> ReadRefused {
    match err.kind() {
        std::io::ErrorKind::NotFound => ReadRefused::Missing,
        _ => ReadRefused::Unreadable(err.to_string()),
    }
}

#[cfg(test)]
mod tests;
