//! [`SessionStore`]: the ledgers under `$PAICLI_HOME/sessions/YYYY/MM/DD/<timestamp>-<id>.jsonl`: where a new
//! one goes, finding one by id prefix or by project, summaries for the picker, and removing old ones.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::record::{Header, Record};
use super::replay::load;

/// Candidates listed in a "no such session" or "ambiguous" error.
const CANDIDATES_SHOWN: usize = 10;

/// Why an id did not name one session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    #[error("no session id starts with `{prefix}`")]
    Unknown {
        prefix: String,
        /// Recent sessions of this project, newest first.
        candidates: Vec<String>,
    },
    #[error("`{prefix}` matches several sessions")]
    Ambiguous {
        prefix: String,
        candidates: Vec<String>,
    },
}

/// One ledger file, known by its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSession {
    pub path: PathBuf,
    pub id: String,
    /// `YYYYMMDDTHHMMSSmmm` local time of the start (milliseconds last); sorts like the start.
    pub stamp: String,
}

/// What the picker and `/sessions` show of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSummary {
    pub id: String,
    pub path: PathBuf,
    /// The project root it was started in.
    pub project: PathBuf,
    /// RFC 3339 start time from the header.
    pub started: String,
    pub model: String,
    /// The first user input, if there was a turn.
    pub first_input: Option<String>,
    /// Turns in the history as it stands.
    pub turns: usize,
    /// The session this one was forked from (`/fork`, `--fork`).
    pub forked_from: Option<String>,
}

/// The ledgers of every session, under one folder.
#[derive(Clone, Debug)]
pub struct SessionStore {
    root: PathBuf,
}

fn summarize(sessions: impl Iterator<Item = StoredSession>, limit: usize) -> Vec<SessionSummary> {
    sessions
        .take(limit)
        .filter_map(|s| {
            let loaded = load(&s.path).ok()?;
            Some(SessionSummary {
                id: s.id,
                path: s.path,
                project: loaded.header.project_root.clone(),
                started: loaded.header.started,
                model: loaded.model,
                first_input: loaded.first_input,
                turns: loaded.conversation.turn_starts().len(),
                forked_from: loaded.header.forked_from.clone(),
            })
        })
        .collect()
}

impl SessionStore {
    /// The store under `$PAICLI_HOME/sessions`.
    pub fn new(home: &Path) -> Self {
        SessionStore {
            root: home.join("sessions"),
        }
    }

    /// Where the ledger of a session `id` started at `started` goes.
    pub fn path_for(&self, id: &str, started: chrono::DateTime<chrono::Local>) -> PathBuf {
        self.root
            .join(started.format("%Y/%m/%d").to_string())
            .join(format!("{}-{id}.jsonl", started.format("%Y%m%dT%H%M%S%3f")))
    }

    /// Every ledger, newest first.
    pub fn all(&self) -> Vec<StoredSession> {
        let mut found = Vec::new();
        for year in sub_dirs(&self.root) {
            for month in sub_dirs(&year) {
                for day in sub_dirs(&month) {
                    let Ok(entries) = std::fs::read_dir(&day) else {
                        continue;
                    };
                    found.extend(entries.flatten().filter_map(|e| stored(e.path())));
                }
            }
        }
        found.sort_by(|a, b| b.stamp.cmp(&a.stamp).then_with(|| b.id.cmp(&a.id)));
        found
    }

    /// This project's ledgers (by the header's project root), newest first.
    pub fn for_project(&self, root: &Path) -> Vec<StoredSession> {
        self.project_sessions(root).collect()
    }

    /// The newest ledger of this project; reads headers only until it is found.
    pub fn latest_for_project(&self, root: &Path) -> Option<StoredSession> {
        self.project_sessions(root).next()
    }

    /// This project's ledgers, newest first, each header read only when the iterator gets to it.
    fn project_sessions(&self, root: &Path) -> impl Iterator<Item = StoredSession> {
        let root = root.to_path_buf();
        self.all()
            .into_iter()
            .filter(move |s| read_header(&s.path).is_some_and(|h| h.project_root == root))
    }

    /// The session whose id is `prefix` or starts with it; a full id wins over longer ids it prefixes.
    pub fn find(&self, prefix: &str, root: &Path) -> Result<StoredSession, FindError> {
        let all = self.all();
        if let Some(exact) = all.iter().find(|s| s.id == prefix) {
            return Ok(exact.clone());
        }
        let matching: Vec<&StoredSession> =
            all.iter().filter(|s| s.id.starts_with(prefix)).collect();
        match matching.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(FindError::Unknown {
                prefix: prefix.to_string(),
                candidates: self
                    .project_sessions(root)
                    .take(CANDIDATES_SHOWN)
                    .map(|s| s.id)
                    .collect(),
            }),
            many => Err(FindError::Ambiguous {
                prefix: prefix.to_string(),
                candidates: many
                    .iter()
                    .take(CANDIDATES_SHOWN)
                    .map(|s| s.id.clone())
                    .collect(),
            }),
        }
    }

    /// Summaries of this project's `limit` newest sessions; unreadable ledgers are left out.
    pub fn summaries(&self, root: &Path, limit: usize) -> Vec<SessionSummary> {
        summarize(self.project_sessions(root), limit)
    }

    /// Summaries of the `limit` newest sessions of every project.
    pub fn summaries_everywhere(&self, limit: usize) -> Vec<SessionSummary> {
        summarize(self.all().into_iter(), limit)
    }

    /// Removes ledgers not written to for `keep_days` days (0 keeps everything) but `keep` (the running
    /// session's), and the folders left empty. Returns how many were removed.
    pub fn remove_older_than(&self, keep_days: u64, keep: Option<&Path>) -> usize {
        if keep_days == 0 {
            return 0;
        }
        let Some(cutoff) =
            SystemTime::now().checked_sub(Duration::from_secs(keep_days.saturating_mul(86_400)))
        else {
            return 0;
        };
        let old = self.all().into_iter().filter(|s| {
            Some(s.path.as_path()) != keep
                && std::fs::metadata(&s.path)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t < cutoff)
        });
        let removed = old.filter(|s| remove_session(&s.path)).count();
        self.remove_empty_dirs();
        removed
    }

    /// Removes this project's ledgers except `keep` (the running session's); returns how many were removed.
    pub fn remove_project(&self, root: &Path, keep: Option<&Path>) -> usize {
        let removed = self
            .for_project(root)
            .into_iter()
            .filter(|s| Some(s.path.as_path()) != keep)
            .filter(|s| remove_session(&s.path))
            .count();
        self.remove_empty_dirs();
        removed
    }

    fn remove_empty_dirs(&self) {
        for year in sub_dirs(&self.root) {
            for month in sub_dirs(&year) {
                for day in sub_dirs(&month) {
                    // Fails, as it should, when the folder is not empty.
                    let _ = std::fs::remove_dir(&day);
                }
                let _ = std::fs::remove_dir(&month);
            }
            let _ = std::fs::remove_dir(&year);
        }
    }
}

/// The header of the ledger at `path` (its first line only).
pub fn read_header(path: &Path) -> Option<Header> {
    let file = std::fs::File::open(path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(file).read_line(&mut line).ok()?;
    match serde_json::from_str::<Record>(&line).ok()? {
        Record::Session(header) => Some(header),
        _ => None,
    }
}

/// Removes a session's ledger and its sub-agents' ledgers; whether the session's own file went.
fn remove_session(ledger: &Path) -> bool {
    let removed = std::fs::remove_file(ledger).is_ok();
    if removed {
        let _ = std::fs::remove_dir_all(super::sidechain_dir(ledger));
    }
    removed
}

/// The sub-agents' ledgers of the session whose ledger is `ledger`, by name (oldest first: names start with
/// their start time).
pub fn sidechains(ledger: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(super::sidechain_dir(ledger)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    found.sort();
    found
}

fn sub_dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

/// A ledger file named `<stamp>-<id>.jsonl`.
fn stored(path: PathBuf) -> Option<StoredSession> {
    let name = path.file_name()?.to_str()?.strip_suffix(".jsonl")?;
    let (stamp, id) = name.split_once('-')?;
    if id.is_empty() || stamp.is_empty() {
        return None;
    }
    Some(StoredSession {
        id: id.to_string(),
        stamp: stamp.to_string(),
        path,
    })
}
