//! UI strings in English and Chinese, chosen by `ui.language = auto|en|zh` (auto reads the locale variables).

use crate::config::{EnvVars, UiLanguage};

/// The language of the interactive UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// Resolves a `ui.language` setting; `auto` (or unset) looks at `LC_ALL`, `LC_MESSAGES` and `LANG`.
    pub fn resolve(setting: UiLanguage, env: &EnvVars) -> Lang {
        match setting {
            UiLanguage::En => Lang::En,
            UiLanguage::Zh => Lang::Zh,
            UiLanguage::Auto => Self::from_locale(env),
        }
    }

    /// The first set locale variable decides, as POSIX does.
    fn from_locale(env: &EnvVars) -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|k| env.get(k))
            .unwrap_or("");
        if locale.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

/// A UI message with a fixed wording per language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    Tip,
    Thinking,
    Cancelled,
    PressCtrlCAgain,
    Bye,
    NoRunningTask,
    UnknownCommand,
    DidYouMean,
    HistoryCleared,
    CommandsHeading,
    NotWhileRunning,
    ErrorPrefix,
    NextStep,
    CostUnknown,
    ExportedTo,
    InitExists,
    ModelSwitched,
    ModelSaved,
    ContextHeading,
    MentionSkipped,
}

/// The text of `msg` in `lang`.
pub fn tr(lang: Lang, msg: Msg) -> &'static str {
    use Msg::*;
    match (lang, msg) {
        (Lang::En, Tip) => {
            "Type a task, /help for commands, @path to attach a file; ESC stops a running task."
        }
        (Lang::Zh, Tip) => "输入任务；/help 查看命令，@路径 附加文件；任务运行时按 ESC 停止。",
        (Lang::En, Thinking) => "Thinking",
        (Lang::Zh, Thinking) => "思考中",
        (Lang::En, Cancelled) => "cancelled by user",
        (Lang::Zh, Cancelled) => "已被用户取消",
        (Lang::En, PressCtrlCAgain) => "press Ctrl-C again to exit (or Ctrl-D)",
        (Lang::Zh, PressCtrlCAgain) => "再按一次 Ctrl-C 退出（或 Ctrl-D）",
        (Lang::En, Bye) => "bye",
        (Lang::Zh, Bye) => "再见",
        (Lang::En, NoRunningTask) => "no running task",
        (Lang::Zh, NoRunningTask) => "没有正在运行的任务",
        (Lang::En, UnknownCommand) => "unknown command",
        (Lang::Zh, UnknownCommand) => "未知命令",
        (Lang::En, DidYouMean) => "did you mean",
        (Lang::Zh, DidYouMean) => "你是不是想输入",
        (Lang::En, HistoryCleared) => "conversation cleared",
        (Lang::Zh, HistoryCleared) => "对话已清空",
        (Lang::En, CommandsHeading) => "Commands",
        (Lang::Zh, CommandsHeading) => "命令",
        (Lang::En, NotWhileRunning) => "not available while a task runs",
        (Lang::Zh, NotWhileRunning) => "任务运行时不可用",
        (Lang::En, ErrorPrefix) => "error",
        (Lang::Zh, ErrorPrefix) => "错误",
        (Lang::En, NextStep) => "next step",
        (Lang::Zh, NextStep) => "下一步",
        (Lang::En, CostUnknown) => "cost: no prices known for this provider",
        (Lang::Zh, CostUnknown) => "费用：该提供商没有已知价格",
        (Lang::En, ExportedTo) => "conversation exported to",
        (Lang::Zh, ExportedTo) => "对话已导出到",
        (Lang::En, InitExists) => "PAI.md already exists; run /init --force to regenerate it",
        (Lang::Zh, InitExists) => "PAI.md 已存在；用 /init --force 重新生成",
        (Lang::En, ModelSwitched) => "model for this session",
        (Lang::Zh, ModelSwitched) => "本会话的模型",
        (Lang::En, ModelSaved) => "saved as the default in",
        (Lang::Zh, ModelSaved) => "已保存为默认值：",
        (Lang::En, ContextHeading) => "Context (estimated tokens)",
        (Lang::Zh, ContextHeading) => "上下文（估算 token）",
        (Lang::En, MentionSkipped) => "not attached",
        (Lang::Zh, MentionSkipped) => "未附加",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_the_first_set_locale_variable() {
        let zh = EnvVars::from_pairs([("LANG", "zh_CN.UTF-8")]);
        assert_eq!(Lang::resolve(UiLanguage::Auto, &zh), Lang::Zh);
        assert_eq!(Lang::resolve(UiLanguage::Auto, &zh), Lang::Zh);
        let both = EnvVars::from_pairs([("LC_ALL", "en_US.UTF-8"), ("LANG", "zh_CN.UTF-8")]);
        assert_eq!(Lang::resolve(UiLanguage::Auto, &both), Lang::En);
        assert_eq!(
            Lang::resolve(UiLanguage::Auto, &EnvVars::default()),
            Lang::En
        );
    }

    #[test]
    fn an_explicit_setting_wins_over_the_locale() {
        let zh = EnvVars::from_pairs([("LANG", "zh_CN.UTF-8")]);
        assert_eq!(Lang::resolve(UiLanguage::En, &zh), Lang::En);
        assert_eq!(Lang::resolve(UiLanguage::Zh, &EnvVars::default()), Lang::Zh);
    }

    #[test]
    fn every_message_has_both_languages() {
        for msg in [Msg::Tip, Msg::Cancelled, Msg::MentionSkipped] {
            assert_ne!(tr(Lang::En, msg), tr(Lang::Zh, msg));
        }
    }
}
