//! Errors that stop paicli before a task runs (flags, configuration, set-up), worded in the user's language. The
//! typed errors inside keep their English `Display`; the sentence around them is translated.

use crate::app::SetupError;
use crate::config::{ConfigError, EnvVars, UiLanguage};
use crate::text::{Lang, Msg, labelled, tr, trf};
use crate::ui::repl::SessionError;

/// Why paicli could not start; every variant is a usage or configuration error (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot read the current directory: {0}")]
    Cwd(std::io::Error),
    #[error("{0}")]
    BadApproval(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("cannot write the project trust file: {0}")]
    Trust(std::io::Error),
    #[error("the task is empty")]
    EmptyTask,
    #[error("no task given")]
    NoTask,
    #[error("cannot read the task from stdin: {0}")]
    Stdin(std::io::Error),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// A session flag or ledger problem, already worded in the user's language.
    #[error("{0}")]
    Sessions(String),
    /// A headless flag problem (`--settings`), already worded in the user's language.
    #[error("{0}")]
    Headless(String),
}

impl StartError {
    /// The line to print: `error: …` with the sentence in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let with = |msg: Msg, error: &dyn std::fmt::Display| trf(lang, msg, &[("error", error)]);
        let text = match self {
            StartError::Cwd(e) => with(Msg::StartNoCwd, e),
            StartError::BadApproval(e) => with(Msg::StartBadApproval, e),
            StartError::Config(e) => with(Msg::StartConfig, e),
            StartError::Setup(e) => with(Msg::StartSetup, e),
            StartError::Session(e) => with(Msg::StartSetup, e),
            StartError::Trust(e) => with(Msg::StartTrust, e),
            StartError::EmptyTask => tr(lang, Msg::StartEmptyTask).to_string(),
            StartError::NoTask => tr(lang, Msg::StartNoTask).to_string(),
            StartError::Stdin(e) => with(Msg::StartStdin, e),
            StartError::Runtime(e) => with(Msg::StartRuntime, e),
            StartError::Sessions(text) | StartError::Headless(text) => text.clone(),
        };
        labelled(lang, Msg::ErrorPrefix, &text)
    }
}

/// The language for errors found before the configuration is read: the locale of the process.
pub fn locale_lang() -> Lang {
    Lang::resolve(UiLanguage::Auto, &EnvVars::from_pairs(std::env::vars()))
}

/// A command-line parse error in `lang`: the first line of clap's own message inside a translated sentence.
pub fn bad_flag(lang: Lang, clap_message: &str) -> String {
    let first = clap_message
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ");
    labelled(
        lang,
        Msg::ErrorPrefix,
        &trf(lang, Msg::StartBadFlag, &[("error", &first)]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_errors_keep_the_english_detail_inside_a_chinese_sentence() {
        assert_eq!(
            StartError::EmptyTask.describe(Lang::En),
            "error: the task is empty: pass it as paicli -p \"task\" or on stdin with paicli -p -"
        );
        assert_eq!(
            StartError::NoTask.describe(Lang::Zh),
            "错误：没有给出任务：用 paicli -p \"任务\" 传入，或通过管道传给 paicli -p -"
        );
        let io = || std::io::Error::other("disk full");
        assert_eq!(
            StartError::Trust(io()).describe(Lang::Zh),
            "错误：无法写入项目信任文件：disk full"
        );
        assert_eq!(
            StartError::Runtime(io()).describe(Lang::En),
            "error: cannot start the async runtime: disk full"
        );
        assert_eq!(
            bad_flag(
                Lang::Zh,
                "error: unexpected argument '--nope' found\n\nUsage: paicli"
            ),
            "错误：命令行参数有误（paicli --help 查看用法）：unexpected argument '--nope' found"
        );
    }
}
