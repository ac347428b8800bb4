//! `[channels]`, `[channels.telegram]`, `[channels.wechat]`: who may talk to the agent from a chat service and
//! what runs unasked there. A chat channel lets someone far from the terminal drive the agent, so none of this may
//! come from a project's own files: a cloned repository must never open a channel or widen its policy.

use std::time::Duration;

use super::settings::{
    Ids, Maybe, Plain, Project, Secret, Secs, Text, Unlimited, declare_settings, setting,
};

/// What an edit of a project file asked from a chat does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelEdits {
    /// Asked in the chat, like every other call with side effects.
    #[default]
    Ask,
    /// Edits inside the workspace run unasked (control files and anything outside still ask).
    Workspace,
    /// Refused without asking.
    Deny,
}

impl ChannelEdits {
    /// Every policy, tightest last.
    pub const ALL: [ChannelEdits; 3] = [
        ChannelEdits::Ask,
        ChannelEdits::Workspace,
        ChannelEdits::Deny,
    ];

    /// The word config files use.
    pub fn word(self) -> &'static str {
        match self {
            ChannelEdits::Ask => "ask",
            ChannelEdits::Workspace => "workspace",
            ChannelEdits::Deny => "deny",
        }
    }
}

impl std::str::FromStr for ChannelEdits {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ChannelEdits::ALL
            .into_iter()
            .find(|e| e.word().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("expected ask, workspace or deny, not {s:?}"))
    }
}

declare_settings! {
    /// `[channels]`: the policy of every chat channel.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ChannelSettings in config.channels {
        /// Edits of project files asked from a chat: ask (in the chat) | workspace (inside the project, unasked) |
        /// deny.
        pub edits: ChannelEdits = setting("channels.edits", Plain(ChannelEdits::Ask))
            .project(Project::Never),
        /// Exact command lines that run unasked from a chat; any other command is asked in the chat.
        pub commands: Vec<String> = setting("channels.commands", super::settings::List)
            .project(Project::Never)
            .example("[\"cargo test\", \"git status\"]"),
        /// Seconds a question asked in the chat waits for `y` / `n` before the call is refused.
        pub approval_timeout: Duration = setting("channels.approval_timeout_secs", Secs(120))
            .project(Project::Never),
        /// Tasks a channel runs per day (UTC) across its chats; 0 = no limit.
        pub daily_turns: Option<u64> = setting("channels.daily_turns", Unlimited::NONE)
            .project(Project::Never)
            .example("50"),
        /// Model tokens (prompt + completion) a channel spends per day (UTC); 0 = no limit.
        pub daily_tokens: Option<u64> = setting("channels.daily_tokens", Unlimited::NONE)
            .project(Project::Never)
            .example("2000000"),
        /// `[channels.telegram]`
        pub telegram: TelegramSettings,
        /// `[channels.wechat]`
        pub wechat: WechatSettings,
    }
}

declare_settings! {
    /// `[channels.telegram]`: the bot and who may use it.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TelegramSettings in config.channels.telegram {
        /// The bot's token from @BotFather. Prefer the environment.
        pub bot_token: Option<String> = setting("channels.telegram.bot_token", Secret)
            .env(&["PAICLI_TELEGRAM_BOT_TOKEN"])
            .project(Project::Never)
            .example("\"\""),
        /// The Bot API's address, without `/bot<token>`.
        pub base_url: String = setting("channels.telegram.base_url", Text("https://api.telegram.org"))
            .env(&["PAICLI_TELEGRAM_BASE_URL"])
            .project(Project::Never),
        /// Telegram user ids (numbers) whose messages the bot takes; everyone else is dropped. Environment:
        /// comma-separated.
        pub allow_from: Vec<String> = setting("channels.telegram.allow_from", Ids)
            .env(&["PAICLI_TELEGRAM_ALLOW_FROM"])
            .project(Project::Never)
            .example("[7012345678]"),
    }
}

declare_settings! {
    /// `[channels.wechat]`: Tencent's iLink bot API.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct WechatSettings in config.channels.wechat {
        /// The iLink API's address, used for the QR login too. Unset: Tencent's.
        pub base_url: Option<String> = setting("channels.wechat.base_url", Maybe::UNSET)
            .env(&["PAICLI_WECHAT_BASE_URL"])
            .project(Project::Never)
            .example("\"https://ilinkai.weixin.qq.com\""),
        /// WeChat user ids heard besides the bound user (who scanned the QR code and is always heard). Environment:
        /// comma-separated.
        pub allow_from: Vec<String> = setting("channels.wechat.allow_from", Ids)
            .env(&["PAICLI_WECHAT_ALLOW_FROM"])
            .project(Project::Never)
            .example("[\"o9cq80-yXQ@im.wechat\"]"),
    }
}
