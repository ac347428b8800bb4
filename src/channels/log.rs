//! The channel's log: what went wrong and who was turned away, on stderr (a service's journal) and appended to
//! `$PAICLI_HOME/channels/<channel>/channel.log` with the time.

use std::path::PathBuf;

use super::store::append_private;
use crate::app::channel_status::log_path;

/// Where one channel reports.
#[derive(Clone, Debug)]
pub struct ChannelLog {
    channel: &'static str,
    path: PathBuf,
}

impl ChannelLog {
    /// The log of `channel` under `home` (`$PAICLI_HOME`).
    pub fn new(home: &std::path::Path, channel: &'static str) -> Self {
        ChannelLog {
            channel,
            path: log_path(home, channel),
        }
    }

    /// Writes `line` to stderr and to the log file; a log that cannot be written is noted in the debug log only.
    pub fn record(&self, line: &str) {
        eprintln!("paicli channel {}: {line}", self.channel);
        self.append(line);
    }

    /// Writes `line` to the log file only (what was already said on stderr).
    pub fn append(&self, line: &str) {
        let stamped = format!("{} {line}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ"));
        if let Err(e) = append_private(&self.path, &stamped) {
            tracing::warn!("cannot write {}: {e}", self.path.display());
        }
    }
}
