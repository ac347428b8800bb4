//! Notices whose message is picked by their data: refused settings, project trust, the sandbox at start-up, the
//! notices of starting a session, images the model cannot take.

use super::{Lang, Msg, tr, trf};
use crate::config::safe_read::{FileIssue, FileNotice, ReadRefused};
use crate::config::{Refusal, RefusedSetting};
use crate::sandbox::Shortfall;
use crate::session::ledger::{LoadNotice, StartNotice};

/// The notice for a setting a project file may not set: names the file and the key, and says what would allow it.
pub fn refused_setting(lang: Lang, r: &RefusedSetting) -> String {
    let msg = match r.refusal {
        Refusal::UserOnly => Msg::RefusedUserOnly,
        Refusal::NeedsTrust => Msg::RefusedNeedsTrust,
        Refusal::NeedsOwnKey => Msg::RefusedNeedsOwnKey,
        Refusal::Loosens => Msg::RefusedLoosens,
    };
    trf(lang, msg, &[("key", &r.key), ("file", &r.file.display())])
}

/// The confirmation after trusting a project.
pub fn project_trusted(lang: Lang, root: &std::path::Path) -> String {
    trf(lang, Msg::ProjectTrusted, &[("root", &root.display())])
}

/// The once-per-session notice when the sandbox settings ask for more than this machine gives.
pub fn sandbox_shortfall(lang: Lang, shortfall: &Shortfall) -> String {
    match shortfall {
        Shortfall::NoSandbox(reason) => {
            trf(lang, Msg::NoticeSandboxUnavailable, &[("reason", reason)])
        }
        Shortfall::NetworkOpen => tr(lang, Msg::NoticeSandboxNetworkOpen).to_string(),
        Shortfall::GitLinkRefused(why) => trf(
            lang,
            Msg::NoticeGitLinkRefused,
            &[("why", &git_link_refusal(lang, why))],
        ),
    }
}

/// Why the project's `.git` file did not make its target writable, in `lang`.
pub fn git_link_refusal(lang: Lang, why: &crate::sandbox::GitLinkRefusal) -> String {
    use crate::sandbox::GitLinkRefusal;
    let (msg, path) = match why {
        GitLinkRefusal::Symlink => return tr(lang, Msg::GitLinkSymlink).to_string(),
        GitLinkRefusal::NotGitDir(path) => (Msg::GitLinkNotGitDir, path),
        GitLinkRefusal::Foreign(path) => (Msg::GitLinkForeign, path),
        GitLinkRefusal::Protected(path) => (Msg::GitLinkProtected, path),
    };
    // The path is the project's own text (its `.git` file): shown with its control characters made visible.
    trf(
        lang,
        msg,
        &[("path", &super::visible(&path.display().to_string()))],
    )
}

/// The notice for an instruction or settings file that was refused or read only in part. Its paths are the
/// project's own text: shown with their control characters made visible.
pub fn file_notice(lang: Lang, notice: &FileNotice) -> String {
    let file = super::visible(&notice.path.display().to_string()).into_owned();
    let file = ("file", &file as &dyn std::fmt::Display);
    match &notice.issue {
        FileIssue::Cut { cap } => trf(lang, Msg::FileCut, &[file, ("cap", cap)]),
        FileIssue::SpillFolderLinked => trf(lang, Msg::SpillFolderLinked, &[file]),
        FileIssue::Refused(why) => match why {
            ReadRefused::Missing => trf(lang, Msg::FileRefusedMissing, &[file]),
            ReadRefused::LinkOut { base } => {
                let base = super::visible(&base.display().to_string()).into_owned();
                trf(lang, Msg::FileRefusedLinkOut, &[file, ("base", &base)])
            }
            ReadRefused::NotRegular => trf(lang, Msg::FileRefusedNotRegular, &[file]),
            ReadRefused::TooLarge { cap } => {
                trf(lang, Msg::FileRefusedTooLarge, &[file, ("cap", cap)])
            }
            ReadRefused::NotUtf8 => trf(lang, Msg::FileRefusedNotUtf8, &[file]),
            ReadRefused::Unreadable(error) => {
                trf(lang, Msg::FileRefusedUnreadable, &[file, ("error", error)])
            }
        },
    }
}

/// A notice from starting a session (loading its ledger, or failing to open one).
pub fn start_notice_text(lang: Lang, notice: &StartNotice) -> String {
    match notice {
        StartNotice::Load(LoadNotice::TornLastLine) => {
            tr(lang, Msg::SessionTornLastLine).to_string()
        }
        StartNotice::Load(LoadNotice::SkippedLines { count, first }) => trf(
            lang,
            Msg::SessionSkippedLines,
            &[("count", count), ("first", first)],
        ),
        StartNotice::Load(LoadNotice::AbortedCalls { count }) => {
            trf(lang, Msg::SessionAbortedCalls, &[("count", count)])
        }
        StartNotice::InstructionsChanged => tr(lang, Msg::SessionInstructionsChanged).to_string(),
        StartNotice::LedgerUnavailable(e) => trf(lang, Msg::SessionNotRecorded, &[("error", e)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::GitLinkRefusal;

    #[test]
    fn a_file_notice_is_worded_in_both_languages_like_its_english_display() {
        let notice = FileNotice {
            path: "/p/CLAUDE.md".into(),
            issue: FileIssue::Refused(ReadRefused::LinkOut { base: "/p".into() }),
        };
        assert_eq!(file_notice(Lang::En, &notice), notice.to_string());
        assert!(file_notice(Lang::Zh, &notice).contains("/p/CLAUDE.md"));
        let cut = FileNotice {
            path: "/p/AGENTS\u{1b}[2J.md".into(),
            issue: FileIssue::Cut { cap: 40_000 },
        };
        assert_eq!(
            file_notice(Lang::En, &cut),
            "read only the first 40000 bytes of /p/AGENTS<U+001B>[2J.md; the rest was left out"
        );
    }

    #[test]
    fn a_refused_git_link_shows_the_projects_path_with_its_escapes_made_visible() {
        let planted = GitLinkRefusal::NotGitDir("/x\u{1b}]52;c;aGk=\u{7}".into());
        for lang in [Lang::En, Lang::Zh] {
            let text = git_link_refusal(lang, &planted);
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{7}'),
                "{text:?}"
            );
            assert!(text.contains("/x<U+001B>]52;c;aGk=<U+0007>"), "{text}");
        }
    }
}
