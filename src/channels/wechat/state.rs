//! What the long poll must remember across restarts: the server's cursor (`get_updates_buf`), the ids of the
//! messages delivered last (a server that sends one again is not obeyed twice) and whether the account is paused.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::files::{self, POLL_STATE_FILE};
use crate::channels::transport::ChannelError;

/// How many delivered message ids are remembered for de-duplication.
const SEEN_CAPACITY: usize = 512;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    #[serde(default)]
    get_updates_buf: String,
    #[serde(default)]
    seen: VecDeque<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    paused: Option<String>,
}

/// The poll state of one account, saved after every change.
#[derive(Debug)]
pub struct PollState {
    path: PathBuf,
    saved: Saved,
    seen: HashSet<String>,
}

impl PollState {
    pub fn load(home: &Path) -> Result<PollState, ChannelError> {
        let path = files::channel_dir(home).join(POLL_STATE_FILE);
        let saved: Saved = match files::read_if_present(&path)? {
            None => Saved::default(),
            Some(bytes) => serde_json::from_slice(&bytes).map_err(|e| files::corrupt(&path, &e))?,
        };
        let seen = saved.seen.iter().cloned().collect();
        Ok(PollState { path, saved, seen })
    }

    /// Forgets cursor, seen ids and pause (a new login).
    pub fn reset(home: &Path) -> Result<(), ChannelError> {
        files::remove_if_present(&files::channel_dir(home).join(POLL_STATE_FILE))
    }

    pub fn cursor(&self) -> &str {
        &self.saved.get_updates_buf
    }

    pub fn paused(&self) -> Option<&str> {
        self.saved.paused.as_deref()
    }

    /// Whether `id` was delivered before; records it if not.
    pub fn first_sighting(&mut self, id: &str) -> bool {
        if self.seen.contains(id) {
            return false;
        }
        self.seen.insert(id.to_string());
        self.saved.seen.push_back(id.to_string());
        while self.saved.seen.len() > SEEN_CAPACITY {
            if let Some(old) = self.saved.seen.pop_front() {
                self.seen.remove(&old);
            }
        }
        true
    }

    /// Takes the server's next cursor (an absent or empty one keeps ours) and saves the state.
    pub fn advance(&mut self, next: Option<&str>) -> Result<(), ChannelError> {
        if let Some(next) = next.filter(|n| !n.is_empty()) {
            self.saved.get_updates_buf = next.to_string();
        }
        self.save()
    }

    /// Marks the account paused and saves it; `status` shows it until the next login.
    pub fn pause(&mut self, detail: &str) -> Result<(), ChannelError> {
        self.saved.paused = Some(detail.to_string());
        self.save()
    }

    /// Lifts the pause (after a new login) and saves.
    pub fn resume(&mut self) -> Result<(), ChannelError> {
        self.saved.paused = None;
        self.save()
    }

    fn save(&self) -> Result<(), ChannelError> {
        let json = serde_json::to_vec(&self.saved).map_err(|e| files::corrupt(&self.path, &e))?;
        files::write_private(&self.path, &json)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn seen_ids_are_bounded_and_survive_a_reload() {
        let home = tempfile::tempdir().unwrap();
        let mut state = PollState::load(home.path()).unwrap();
        for i in 0..SEEN_CAPACITY + 10 {
            assert!(state.first_sighting(&i.to_string()));
        }
        assert!(!state.first_sighting("500"));
        state.advance(Some("c1")).unwrap();
        let mut again = PollState::load(home.path()).unwrap();
        assert_eq!(again.cursor(), "c1");
        assert!(!again.first_sighting("500"));
        // The oldest ids were forgotten to keep the file small.
        assert!(again.first_sighting("0"));
    }

    #[test]
    fn a_new_token_resets_the_cursor_and_the_same_token_only_lifts_the_pause() {
        let home = tempfile::tempdir().unwrap();
        let mut account = crate::channels::wechat::Account {
            bot_token: "t1".into(),
            bot_id: "b".into(),
            user_id: "u".into(),
            base_url: None,
            saved_at: String::new(),
        };
        account.save(home.path()).unwrap();
        let mut state = PollState::load(home.path()).unwrap();
        state.advance(Some("c1")).unwrap();
        state.pause("-14").unwrap();
        account.save(home.path()).unwrap();
        let state = PollState::load(home.path()).unwrap();
        assert_eq!((state.cursor(), state.paused()), ("c1", None));
        account.bot_token = "t2".into();
        account.save(home.path()).unwrap();
        assert_eq!(PollState::load(home.path()).unwrap().cursor(), "");
    }

    #[test]
    fn an_empty_next_cursor_keeps_the_current_one() {
        let home = tempfile::tempdir().unwrap();
        let mut state = PollState::load(home.path()).unwrap();
        state.advance(Some("c1")).unwrap();
        state.advance(Some("")).unwrap();
        state.advance(None).unwrap();
        assert_eq!(PollState::load(home.path()).unwrap().cursor(), "c1");
    }
}
