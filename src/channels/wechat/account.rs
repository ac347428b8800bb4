//! The saved login: what a confirmed QR scan hands over (bot token, bot id, the bound user, the API host), kept
//! 0600 in `account.json` and nowhere else. The bound user is the channel's default allowlist.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::files::{self, ACCOUNT_FILE};
use super::state::PollState;
use crate::channels::transport::ChannelError;

/// A WeChat bot account bound to one person.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// `bot_token`: the bearer token of every bot request.
    pub bot_token: String,
    /// `ilink_bot_id`: the bot's own account id.
    pub bot_id: String,
    /// `ilink_user_id`: the person who scanned the QR code, the only sender allowed by default.
    pub user_id: String,
    /// `baseurl`: the API host the server assigned at login, if it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// When the login was confirmed (RFC 3339).
    pub saved_at: String,
}

impl Account {
    /// The bound user: the default allowlist of the channel.
    pub fn user_id(&self) -> &str {
        &self.user_id
    }

    /// The saved account, `None` when `setup` never completed.
    pub fn load(home: &Path) -> Result<Option<Account>, ChannelError> {
        let path = files::channel_dir(home).join(ACCOUNT_FILE);
        match files::read_if_present(&path)? {
            None => Ok(None),
            Some(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| files::corrupt(&path, &e)),
        }
    }

    /// Saves the account (0600) and lifts a pause. A new token starts polling afresh (the old cursor and seen
    /// ids belong to the old session); the same token (a login the server says is already bound) keeps them.
    pub fn save(&self, home: &Path) -> Result<(), ChannelError> {
        let same_session = Account::load(home)
            .ok()
            .flatten()
            .is_some_and(|old| old.bot_token == self.bot_token);
        let dir = files::channel_dir(home);
        let json = serde_json::to_vec_pretty(self).map_err(|e| files::corrupt(&dir, &e))?;
        files::write_private(&dir.join(ACCOUNT_FILE), &json)?;
        if same_session {
            PollState::load(home)?.resume()
        } else {
            PollState::reset(home)
        }
    }
}

// The token never reaches a log or an error through `{:?}`.
impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("bot_token", &"***")
            .field("bot_id", &self.bot_id)
            .field("user_id", &self.user_id)
            .field("base_url", &self.base_url)
            .field("saved_at", &self.saved_at)
            .finish()
    }
}

/// What `paicli channel wechat status` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WechatStatus {
    /// The bound user (the default allowlist) and the bot id.
    pub user_id: String,
    pub bot_id: String,
    pub saved_at: String,
    /// Why the account is paused (the server answered `-14`), `None` while it is active.
    pub paused: Option<String>,
    /// Whether a long-poll cursor is saved (a start resumes from it).
    pub has_cursor: bool,
}

/// The channel's state, or `NotSetUp` when no login is saved.
pub fn status(home: &Path) -> Result<WechatStatus, ChannelError> {
    let account = Account::load(home)?.ok_or_else(not_set_up)?;
    let state = PollState::load(home)?;
    Ok(WechatStatus {
        user_id: account.user_id,
        bot_id: account.bot_id,
        saved_at: account.saved_at,
        paused: state.paused().map(str::to_string),
        has_cursor: !state.cursor().is_empty(),
    })
}

pub fn not_set_up() -> ChannelError {
    ChannelError::NotSetUp {
        channel: super::CHANNEL,
        detail: "no saved login; run `paicli channel wechat setup`".into(),
    }
}
