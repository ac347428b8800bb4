//! `@path not attached: why`: the front-end's wording of a mention `app::mentions` did not attach. The English
//! reason is the `SkipReason`'s own sentence (often the path guard's), so only Chinese words it here.

use super::{Lang, Msg, labelled};
use crate::protocol::SkipReason;

/// `@path not attached: why` for a mention that was not attached.
pub fn mention_skipped(lang: Lang, mention: &str, reason: &SkipReason) -> String {
    let why = match (lang, reason) {
        (Lang::En, reason) => reason.to_string(),
        (Lang::Zh, SkipReason::OutsideRoot(_)) => "它在项目根目录之外".to_string(),
        (Lang::Zh, SkipReason::Unresolvable(e)) => format!("无法解析该路径：{e}"),
        (Lang::Zh, SkipReason::Unreadable(e)) => format!("无法读取：{e}"),
        (Lang::Zh, SkipReason::Binary) => "它是二进制文件".to_string(),
        (Lang::Zh, SkipReason::Unlistable(e)) => format!("无法列出该目录：{e}"),
        (Lang::Zh, SkipReason::NotAnImage(e)) => {
            format!("它不是可附加的图片（PNG、JPEG、GIF 或 WebP）：{e}")
        }
    };
    format!("{mention} {}", labelled(lang, Msg::MentionSkipped, &why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_mentions_are_explained_in_both_languages() {
        let unreadable = SkipReason::Unreadable("No such file or directory (os error 2)".into());
        assert_eq!(
            mention_skipped(Lang::En, "@a.txt", &unreadable),
            "@a.txt not attached: cannot read it: No such file or directory (os error 2)"
        );
        assert_eq!(
            mention_skipped(Lang::Zh, "@a.txt", &unreadable),
            "@a.txt 未附加：无法读取：No such file or directory (os error 2)"
        );
        let outside = SkipReason::OutsideRoot(
            "path `../x` resolves to /x, which is outside the project root".into(),
        );
        assert_eq!(
            mention_skipped(Lang::Zh, "@../x", &outside),
            "@../x 未附加：它在项目根目录之外"
        );
    }
}
