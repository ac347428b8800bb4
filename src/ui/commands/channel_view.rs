//! `/channel` (`/wechat`): which chat channels run, read from their locked pid files (see `app::channel_status`).

use std::path::Path;

use super::Flow;
use crate::app::channel_status::{CHANNEL_NAMES, ChannelState, channel_state, log_path};
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
    if !any {
        lines.push(tr(lang, Msg::ChannelReplNone).to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_running_channel_shows_its_pid_in_both_languages() {
        let home = tempfile::tempdir().unwrap();
        let stopped = channel_lines(home.path(), Lang::En);
        assert_eq!(stopped.len(), 3, "{stopped:?}");
        let pid_file = crate::app::channel_status::pid_path(home.path(), "telegram");
        std::fs::create_dir_all(pid_file.parent().unwrap()).unwrap();
        std::fs::write(&pid_file, "31337\n").unwrap();
        let held = std::fs::File::open(&pid_file).unwrap();
        held.lock().unwrap();
        let en = channel_lines(home.path(), Lang::En);
        assert_eq!(en.len(), 2);
        assert!(en[1].starts_with("telegram: running (pid 31337)"), "{en:?}");
        let zh = channel_lines(home.path(), Lang::Zh);
        assert!(zh[1].contains("运行中（pid 31337）"), "{zh:?}");
    }
}
