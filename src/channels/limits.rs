//! The daily turn and token limits of one channel, counted across its chats and kept in
//! `$PAICLI_HOME/channels/<channel>/usage.json` so a restart does not reset them. A day is a UTC day.

use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::store::write_private;

/// What one day has used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayUsage {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    pub turns: u64,
    pub tokens: u64,
}

/// Which limit stops the next task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitReached {
    Turns(u64),
    Tokens(u64),
}

/// The limits and today's count.
pub struct DailyLimits {
    path: PathBuf,
    max_turns: Option<u64>,
    max_tokens: Option<u64>,
    today: Mutex<DayUsage>,
}

fn utc_day() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

impl DailyLimits {
    /// Reads what today used so far from `path` (an unreadable or older file starts the day at zero).
    pub fn load(path: PathBuf, max_turns: Option<u64>, max_tokens: Option<u64>) -> Self {
        let stored = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<DayUsage>(&bytes).ok())
            .unwrap_or_default();
        DailyLimits {
            path,
            max_turns,
            max_tokens,
            today: Mutex::new(stored),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DayUsage> {
        let mut today = self
            .today
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let day = utc_day();
        if today.day != day {
            *today = DayUsage {
                day,
                ..DayUsage::default()
            };
        }
        today
    }

    /// Whether another task may start today.
    pub fn check(&self) -> Result<(), LimitReached> {
        let today = self.lock();
        if let Some(max) = self.max_turns.filter(|&max| today.turns >= max) {
            return Err(LimitReached::Turns(max));
        }
        if let Some(max) = self.max_tokens.filter(|&max| today.tokens >= max) {
            return Err(LimitReached::Tokens(max));
        }
        Ok(())
    }

    /// Counts a finished task and the tokens it used, and saves the count.
    pub fn record(&self, tokens: u64) -> std::io::Result<()> {
        let snapshot = {
            let mut today = self.lock();
            today.turns += 1;
            today.tokens += tokens;
            today.clone()
        };
        let bytes = serde_json::to_vec(&snapshot).map_err(std::io::Error::other)?;
        write_private(&self.path, &bytes)
    }

    /// Today's use and the limits, for `/status`.
    pub fn today(&self) -> (DayUsage, Option<u64>, Option<u64>) {
        (self.lock().clone(), self.max_turns, self.max_tokens)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn limits_hold_across_a_restart_and_reset_on_a_new_day() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("usage.json");
        let limits = DailyLimits::load(path.clone(), Some(2), Some(1000));
        assert_eq!(limits.check(), Ok(()));
        limits.record(10).unwrap();
        assert_eq!(limits.check(), Ok(()));
        limits.record(10).unwrap();
        assert_eq!(limits.check(), Err(LimitReached::Turns(2)));
        let restarted = DailyLimits::load(path.clone(), Some(5), Some(15));
        assert_eq!(restarted.check(), Err(LimitReached::Tokens(15)));
        // Yesterday's count does not hold today back.
        let old = DayUsage {
            day: "2000-01-01".into(),
            turns: 99,
            tokens: 99,
        };
        std::fs::write(&path, serde_json::to_vec(&old).unwrap()).unwrap();
        assert_eq!(DailyLimits::load(path, Some(5), Some(15)).check(), Ok(()));
    }
}
