//! The audit log (spec §6.4): one JSONL file per day, `$PAICLI_HOME/audit/audit-YYYY-MM-DD.jsonl`, mode 0600,
//! one line per call of a tool that declares itself `audited`. Secrets are redacted before anything is written, and `args` is
//! cut to 1000 chars after redaction (so a cut can never expose the tail of a half-masked secret). A failed write
//! is logged and never fails the call.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::guard::redact::Redactor;

/// Chars of `args` (and `reason`) kept in an entry.
pub const MAX_ARGS_CHARS: usize = 1000;

/// How a call ended, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditOutcome {
    Allow,
    Deny,
    Error,
}

/// Who decided that a call may run (or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovedBy {
    /// A person at the prompt (or a rule they saved this session).
    Hitl,
    /// A fixed policy: the mode, a guard.
    Policy,
    /// The auto-mode classifier.
    AutoClassifier,
    /// An `[approvals]` rule in the config.
    Config,
    /// Nobody had to decide.
    None,
    /// The person attached it by writing `@server:uri` (spec §6.4).
    Mention,
    /// A `PreToolUse` hook (its source is named in the reason of a denial).
    Hook,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// RFC 3339 with the local offset.
    pub timestamp: String,
    pub tool: String,
    /// The arguments as JSON text, redacted and cut.
    pub args: String,
    pub outcome: AuditOutcome,
    pub reason: String,
    pub approver: ApprovedBy,
    #[serde(rename = "durationMs")]
    pub duration_ms: u64,
    #[serde(default)]
    pub metadata: Value,
}

/// One call as the gate saw it, before redaction.
#[derive(Clone, Debug)]
pub struct CallRecord<'a> {
    pub tool: &'a str,
    pub args: &'a Value,
    pub outcome: AuditOutcome,
    pub reason: &'a str,
    pub approver: ApprovedBy,
    pub duration_ms: u64,
    pub metadata: Value,
}

/// Appends entries to the day's file.
pub struct AuditLog {
    dir: PathBuf,
    redactor: Redactor,
    lock: Mutex<()>,
}

impl AuditLog {
    /// A log in `dir` (normally `$PAICLI_HOME/audit`) masking `redactor`'s secrets.
    pub fn new(dir: impl Into<PathBuf>, redactor: Redactor) -> Self {
        AuditLog {
            dir: dir.into(),
            redactor,
            lock: Mutex::new(()),
        }
    }

    /// The directory the files live in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Builds an entry stamped now from a raw (unredacted) record.
    pub fn entry(&self, call: CallRecord<'_>) -> AuditEntry {
        AuditEntry {
            timestamp: chrono::Local::now().to_rfc3339(),
            tool: call.tool.to_string(),
            args: cut(
                &self.redactor.redact(&call.args.to_string()),
                MAX_ARGS_CHARS,
            ),
            outcome: call.outcome,
            reason: cut(&self.redactor.redact(call.reason), MAX_ARGS_CHARS),
            approver: call.approver,
            duration_ms: call.duration_ms,
            metadata: call.metadata,
        }
    }

    /// Appends `entry`; a failure is logged, never returned.
    pub fn record(&self, entry: &AuditEntry) {
        if let Err(e) = self.append(entry) {
            tracing::warn!(
                "could not write the audit log in {}: {e}",
                self.dir.display()
            );
        }
    }

    fn append(&self, entry: &AuditEntry) -> io::Result<()> {
        let mut line = serde_json::to_string(entry).map_err(io::Error::other)?;
        line.push('\n');
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        fs::create_dir_all(&self.dir)?;
        let _ = fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700));
        let path = self.dir.join(file_name(chrono::Local::now().date_naive()));
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&path)?;
        // A file created earlier with looser permissions is tightened.
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
        file.write_all(line.as_bytes())
    }

    /// The latest `n` entries, oldest first, across day files; unreadable lines are skipped.
    pub fn read_recent(&self, n: usize) -> io::Result<Vec<AuditEntry>> {
        let mut files: Vec<PathBuf> = match fs::read_dir(&self.dir) {
            Ok(rd) => rd
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|f| f.to_str())
                        .is_some_and(|f| f.starts_with("audit-") && f.ends_with(".jsonl"))
                })
                .collect(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        files.sort();
        let mut newest_first = Vec::new();
        for path in files.iter().rev() {
            let text = fs::read_to_string(path)?;
            for line in text.lines().rev() {
                if newest_first.len() == n {
                    break;
                }
                if let Ok(entry) = serde_json::from_str::<AuditEntry>(line) {
                    newest_first.push(entry);
                }
            }
        }
        newest_first.reverse();
        Ok(newest_first)
    }
}

/// `audit-YYYY-MM-DD.jsonl`.
pub fn file_name(day: chrono::NaiveDate) -> String {
    format!("audit-{}.jsonl", day.format("%Y-%m-%d"))
}

/// The first `max` chars of `text`, marked when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
