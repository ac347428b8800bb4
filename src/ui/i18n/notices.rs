//! Notices whose wording is built around their data: refused settings and project trust.

use super::{Lang, Msg, tr};
use crate::config::{Refusal, RefusedSetting};
use crate::protocol::SkipReason;

/// The notice for a setting a project file may not set: names the file and the key, and says what would allow it.
pub fn refused_setting(lang: Lang, r: &RefusedSetting) -> String {
    let (key, file) = (&r.key, r.file.display());
    match (lang, r.refusal) {
        (Lang::En, Refusal::UserOnly) => format!(
            "ignored `{key}` in {file}: a project's own files may not set it; set it in $PAICLI_HOME/config.toml, \
             the environment or a flag"
        ),
        (Lang::Zh, Refusal::UserOnly) => format!(
            "已忽略 {file} 中的 `{key}`：项目自己的文件不能设置它；请在 $PAICLI_HOME/config.toml、环境变量或命令行参数中设置"
        ),
        (Lang::En, Refusal::NeedsTrust) => format!(
            "ignored `{key}` in {file}: used only once you trust this project (paicli --trust-project, or /trust)"
        ),
        (Lang::Zh, Refusal::NeedsTrust) => format!(
            "已忽略 {file} 中的 `{key}`：只有信任此项目后才会使用（paicli --trust-project，或 /trust）"
        ),
        (Lang::En, Refusal::NeedsOwnKey) => format!(
            "ignored `{key}` in {file}: a project may not send your API key to an endpoint it chose; put its key in \
             the same file, or trust the project (paicli --trust-project, or /trust)"
        ),
        (Lang::Zh, Refusal::NeedsOwnKey) => format!(
            "已忽略 {file} 中的 `{key}`：项目不能把你的 API 密钥发往它指定的地址；请在同一文件中提供密钥，\
             或信任此项目（paicli --trust-project，或 /trust）"
        ),
        (Lang::En, Refusal::Loosens) => {
            format!("ignored `{key}` in {file}: a project may only tighten this setting")
        }
        (Lang::Zh, Refusal::Loosens) => format!("已忽略 {file} 中的 `{key}`：项目只能收紧此设置"),
    }
}

/// The confirmation after trusting a project.
pub fn project_trusted(lang: Lang, root: &std::path::Path) -> String {
    match lang {
        Lang::En => format!(
            "trusted {}: its .paicli/config.toml and .env may set provider endpoints and language servers until \
             they change",
            root.display()
        ),
        Lang::Zh => format!(
            "已信任 {}：在其 .paicli/config.toml 和 .env 改变之前，它们可以设置模型地址和语言服务器",
            root.display()
        ),
    }
}

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
    match lang {
        Lang::En => format!("{mention} {}: {why}", tr(lang, Msg::MentionSkipped)),
        Lang::Zh => format!("{mention} {}：{why}", tr(lang, Msg::MentionSkipped)),
    }
}

// sandbox
/// The once-per-session notice when the sandbox settings ask for more than this machine gives.
pub fn sandbox_shortfall(lang: Lang, shortfall: &crate::sandbox::Shortfall) -> String {
    use crate::sandbox::Shortfall;
    match shortfall {
        Shortfall::NoSandbox(reason) => super::fill(
            tr(lang, Msg::NoticeSandboxUnavailable),
            &[("reason", reason)],
        ),
        Shortfall::NetworkOpen => tr(lang, Msg::NoticeSandboxNetworkOpen).to_string(),
    }
}
