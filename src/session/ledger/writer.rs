//! [`Ledger`]: appends records to one session's file. Every record is one `write` of a whole line to a file opened
//! for appending, so a `kill -9` loses at most the record being written; nothing is buffered in the process.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

use super::record::{Header, Record};
use crate::protocol::message::Message;

/// Masks secrets in text before it is written (the app passes the audit log's redactor).
pub type Redact = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// Why a ledger could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("cannot write the session ledger {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Another paicli process holds this session's ledger (two writers would interleave their turns).
    #[error(
        "the session ledger {path} is in use by another paicli process; continue it there, or add --fork to \
         continue a copy under a new id"
    )]
    InUse { path: PathBuf },
}

/// JSON keys whose values are identifiers, never secrets; redacting them could break the pairing of calls.
const ID_KEYS: &[&str] = &["id", "tool_call_id", "type", "role", "name"];

/// The writing end of one session's ledger; clones share the file.
#[derive(Clone)]
pub struct Ledger {
    inner: Arc<Mutex<Writer>>,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("path", &self.path())
            .finish()
    }
}

struct Writer {
    file: File,
    path: PathBuf,
    redact: Redact,
    /// Ids of the announced tool round not yet answered in the file.
    unanswered: Option<Vec<String>>,
    /// The first write error, until someone reports it.
    error: Option<String>,
}

/// Where the sub-agents' ledgers of the session whose ledger is `ledger` live: `<stamp>-<id>.tasks/` beside it
/// (no `.jsonl`, so the session list never takes it for a session).
pub fn sidechain_dir(ledger: &Path) -> PathBuf {
    ledger.with_extension("tasks")
}

/// `name` as a file name: letters, digits, `-` and `_` kept, anything else `_`, at most 60 characters.
fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .take(60)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "_".to_string()
    } else {
        safe
    }
}

impl Ledger {
    /// Creates the ledger at `path` (folders 0700, file 0600, refused if it exists) and writes `header`.
    pub fn create(path: &Path, header: Header, redact: Redact) -> Result<Ledger, LedgerError> {
        let io = |source| LedgerError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            create_private_dirs(dir).map_err(io)?;
        }
        let mut options = OpenOptions::new();
        options.append(true).create_new(true);
        restrict_mode(&mut options);
        let file = options.open(path).map_err(io)?;
        lock(&file, path)?;
        let ledger = Ledger::over(file, path, redact);
        ledger.try_write(&Record::Session(header)).map_err(io)?;
        Ok(ledger)
    }

    /// Creates a ledger at `path` for a fork of the ledger at `from`: `header`, then every record of `from` but
    /// its header (damaged lines left out), so replaying the fork gives the same history. `from` is only read.
    pub fn fork(
        from: &Path,
        path: &Path,
        header: Header,
        redact: Redact,
    ) -> Result<Ledger, LedgerError> {
        let text = std::fs::read_to_string(from).map_err(|source| LedgerError::Io {
            path: from.to_path_buf(),
            source,
        })?;
        let ledger = Ledger::create(path, header, redact)?;
        for line in text.lines().skip(1) {
            match serde_json::from_str::<Record>(line) {
                Ok(Record::Session(_)) | Err(_) => {}
                Ok(record) => ledger
                    .try_write(&record)
                    .map_err(|source| LedgerError::Io {
                        path: path.to_path_buf(),
                        source,
                    })?,
            }
        }
        Ok(ledger)
    }

    /// Opens an existing ledger to append to (a resumed session). A torn last line is ended first, so the next
    /// record starts on a line of its own.
    pub fn append_to(path: &Path, redact: Redact) -> Result<Ledger, LedgerError> {
        let io = |source| LedgerError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        let len = file.metadata().map_err(io)?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
            file.read_exact(&mut last).map_err(io)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(io)?;
            }
        }
        Ok(Ledger::over(file, path, redact))
    }

    fn over(file: File, path: &Path, redact: Redact) -> Ledger {
        Ledger {
            inner: Arc::new(Mutex::new(Writer {
                file,
                path: path.to_path_buf(),
                redact,
                unanswered: None,
                error: None,
            })),
        }
    }

    /// A ledger of its own for a sub-agent of this session (a plan task), in [`sidechain_dir`]: headed like
    /// this session, with id `<session id>.<name>`, the sub-agent's `system_prompt`, and this session as
    /// `forked_from`. `name` is reduced to letters, digits, `-` and `_` (task ids come from the model).
    pub fn sidechain(&self, name: &str, system_prompt: &str) -> Result<Ledger, LedgerError> {
        let (lead, redact) = {
            let w = self.lock();
            (w.path.clone(), Arc::clone(&w.redact))
        };
        let mut header = super::store::read_header(&lead).ok_or_else(|| LedgerError::Io {
            path: lead.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "no session header"),
        })?;
        let name = file_safe(name);
        header.forked_from = Some(header.id.clone());
        header.id = format!("{}.{name}", header.id);
        header.system_prompt = system_prompt.to_string();
        header.started = chrono::Local::now().to_rfc3339();
        let path = sidechain_dir(&lead).join(format!("{name}.jsonl"));
        Ledger::create(&path, header, redact)
    }

    /// The ledger's file.
    pub fn path(&self) -> PathBuf {
        self.lock().path.clone()
    }

    /// Appends `record`. A failure is kept for [`Ledger::take_error`]: losing the ledger must not end the turn.
    pub fn write(&self, record: &Record) {
        if let Err(e) = self.try_write(record) {
            let mut w = self.lock();
            tracing::warn!("session ledger {}: {e}", w.path.display());
            w.error.get_or_insert_with(|| e.to_string());
        }
    }

    /// The first write error since the last call, if any.
    pub fn take_error(&self) -> Option<String> {
        self.lock().error.take()
    }

    /// Records an assistant message calling tools before they run, so a crash mid-round keeps the calls.
    pub fn announce_round(&self, assistant: &Message) {
        self.write(&Record::Message {
            message: assistant.clone(),
        });
        self.lock().unanswered = Some(assistant.tool_calls.iter().map(|c| c.id.clone()).collect());
    }

    /// Records the result of call `id` of the announced round as soon as it is known.
    pub fn record_result(&self, id: &str, text: &str) {
        if !self.take_unanswered(id) {
            return;
        }
        self.write(&Record::Message {
            message: Message::tool(id, text),
        });
    }

    /// Records a finished round: the assistant message unless it was announced, then each result not recorded
    /// yet.
    pub fn close_round(&self, assistant: &Message, results: &[Message]) {
        let announced = {
            let w = self.lock();
            w.unanswered.is_some()
        };
        if !announced {
            self.write(&Record::Message {
                message: assistant.clone(),
            });
            self.lock().unanswered =
                Some(assistant.tool_calls.iter().map(|c| c.id.clone()).collect());
        }
        for result in results {
            if let Some(id) = &result.tool_call_id
                && self.take_unanswered(id)
            {
                self.write(&Record::Message {
                    message: result.clone(),
                });
            }
        }
        self.lock().unanswered = None;
    }

    /// True (and forgotten) when `id` is an unanswered call of the announced round.
    fn take_unanswered(&self, id: &str) -> bool {
        let mut w = self.lock();
        match &mut w.unanswered {
            Some(ids) => match ids.iter().position(|i| i == id) {
                Some(at) => {
                    ids.remove(at);
                    true
                }
                None => false,
            },
            None => false,
        }
    }

    fn try_write(&self, record: &Record) -> std::io::Result<()> {
        let mut w = self.lock();
        let mut value = serde_json::to_value(record)?;
        redact_strings(&mut value, &*w.redact);
        let mut line = serde_json::to_string(&value)?;
        line.push('\n');
        // One write of the whole line: appends are never interleaved or half-buffered in the process.
        w.file.write_all(line.as_bytes())
    }

    fn lock(&self) -> MutexGuard<'_, Writer> {
        match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

/// Masks secrets in every string of `value` except identifiers.
fn redact_strings(value: &mut Value, redact: &dyn Fn(&str) -> String) {
    match value {
        Value::String(s) => {
            let masked = redact(s);
            if masked != *s {
                *s = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_strings(v, redact)),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if !ID_KEYS.contains(&key.as_str()) {
                    redact_strings(v, redact);
                }
            }
        }
        _ => {}
    }
}

/// Creates `dir` and its missing parents with mode 0700.
/// Takes the ledger's exclusive lock for as long as `file` stays open; the system drops it when the process ends,
/// even on `kill -9`, so a crashed session can be continued at once.
fn lock(file: &File, path: &Path) -> Result<(), LedgerError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(LedgerError::InUse {
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(source)) => Err(LedgerError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

pub(super) fn create_private_dirs(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

#[cfg(unix)]
fn restrict_mode(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600);
}

#[cfg(not(unix))]
fn restrict_mode(_options: &mut OpenOptions) {}
