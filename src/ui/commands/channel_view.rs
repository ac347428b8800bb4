//! `/channel` (`/wechat`): which chat channels run, read from their locked pid files (see `app::channel_status`).

use std::path::Path;

use super::Flow;
use crate::app::channel_status::{
    CHANNEL_NAMES, ChannelState, channel_state, log_path, wechat_login,
};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::repl::Session;

pub(super) fn channel(session: &mut Session, _args: &str) -> Flow {
    let lines = channel_lines(&session.config.home, session.lang);
    session.say(&lines.join("\n"));
    Flow::Continue
}

/// One line per channel, and how to start one when none runs.
fn channel_lines(home: &Path, lang: Lang) -> Vec<String> {
    let mut any = false;
    let mut lines: Vec<String> = CHANNEL_NAMES
        .iter()
        .map(|&channel| match channel_state(home, channel) {
            ChannelState::Running { pid } => {
                any = true;
                let log = log_path(home, channel).display().to_string();
                trf(
                    lang,
                    Msg::ChannelStatusRunning,
                    &[("channel", &channel), ("pid", &pid), ("log", &log)],
                )
            }
            ChannelState::Stopped => trf(lang, Msg::ChannelStatusStopped, &[("channel", &channel)]),
        })
        .collect();
    lines.push(wechat_line(home, lang));
    if !any {
        lines.push(tr(lang, Msg::ChannelReplNone).to_string());
    }
    lines
}

/// The saved WeChat login: who is bound, whether the server paused it, whether a cursor is saved.
fn wechat_line(home: &Path, lang: Lang) -> String {
    let Some(login) = wechat_login(home) else {
        return tr(lang, Msg::WechatNotLinked).to_string();
    };
    let state = match &login.paused {
        Some(detail) => trf(lang, Msg::WechatPausedStatus, &[("detail", detail)]),
        None => tr(lang, Msg::WechatActive).to_string(),
    };
    let cursor = if login.has_cursor {
        Msg::WechatCursorSaved
    } else {
        Msg::WechatNoCursor
    };
    trf(
        lang,
        Msg::WechatReplLogin,
        &[
            ("user", &login.user_id),
            ("state", &state),
            ("cursor", &tr(lang, cursor)),
        ],
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_running_channel_shows_its_pid_in_both_languages() {
        let home = tempfile::tempdir().unwrap();
        let stopped = channel_lines(home.path(), Lang::En);
        assert_eq!(stopped.len(), 4, "{stopped:?}");
        assert!(
            stopped[2].starts_with("Not linked to WeChat"),
            "{stopped:?}"
        );
        let pid_file = crate::app::channel_status::pid_path(home.path(), "telegram");
        std::fs::create_dir_all(pid_file.parent().unwrap()).unwrap();
        std::fs::write(&pid_file, "31337\n").unwrap();
        let held = std::fs::File::open(&pid_file).unwrap();
        held.lock().unwrap();
        let en = channel_lines(home.path(), Lang::En);
        assert_eq!(en.len(), 3);
        assert!(en[1].starts_with("telegram: running (pid 31337)"), "{en:?}");
        let zh = channel_lines(home.path(), Lang::Zh);
        assert!(zh[1].contains("运行中（pid 31337）"), "{zh:?}");
    }

    #[test]
    fn the_saved_wechat_login_is_shown() {
        let home = tempfile::tempdir().unwrap();
        let dir = crate::app::channel_status::channel_dir(home.path(), "wechat");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("account.json"),
            r#"{"bot_token":"t","bot_id":"b","user_id":"u@im.wechat","saved_at":"x"}"#,
        )
        .unwrap();
        let lines = channel_lines(home.path(), Lang::En);
        assert_eq!(
            lines[2],
            "wechat login: bound user u@im.wechat. The account is active. No message cursor is saved yet."
        );
        std::fs::write(
            dir.join("poll_state.json"),
            r#"{"get_updates_buf":"c1","seen":[],"paused":"-14: session expired"}"#,
        )
        .unwrap();
        let zh = channel_lines(home.path(), Lang::Zh);
        assert!(
            zh[2].contains("账号已暂停（-14: session expired）"),
            "{zh:?}"
        );
        assert!(
            zh[2].ends_with("已保存消息游标：下次启动从上次停止处继续。"),
            "{zh:?}"
        );
    }
}
