//! UI strings in English and Chinese, chosen by `ui.language = auto|en|zh` (auto reads the locale variables).

use crate::config::{EnvVars, Refusal, RefusedSetting, UiLanguage};

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
    TrustNextSession,
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
    ApprovalModeIs,
    ModeAsk,
    ModeAuto,
    ModePlan,
    ModeFull,
    ShiftTabCycles,
    AuditEmpty,
    PolicyGuards,
    PolicyNoRules,
    PolicySessionRules,
    MemoryOff,
    MemoryEmpty,
    MemorySaved,
    MemoryDuplicate,
    MemoryConflict,
    MemoryConflictHint,
    MemoryDeleted,
    MemoryVerified,
    MemoryReplaced,
    MemoryCleared,
    MemoryClearConfirm,
    NothingCompacted,
    DiagnosticsOff,
    McpNone,
    McpApproved,
    McpNoLogs,
    McpRestarting,
    McpDisabled,
    McpEnabling,
    McpNoResources,
    McpNoPrompts,
    // snapshots
    SnapshotsOff,
    SnapshotsEmpty,
    SnapshotsHeading,
    SnapshotsStore,
    SnapshotCleanConfirm,
    SnapshotsCleaned,
    SnapshotFiles,
    RestoreUsage,
    Restored,
    RestoreNothing,
    RewindNoTurns,
    RewindPick,
    RewindHow,
    RewindNoCode,
    RewindConversation,
    RewindInvalid,
}

/// The text of `msg` in `lang`.
pub fn tr(lang: Lang, msg: Msg) -> &'static str {
    use Msg::*;
    match (lang, msg) {
        (Lang::En, Tip) => {
            "Type a task, /help for commands, @path to attach a file; ESC stops a running task."
        }
        (Lang::Zh, Tip) => "输入任务；/help 查看命令，@路径 附加文件；任务运行时按 ESC 停止。",
        (Lang::En, TrustNextSession) => {
            "the settings ignored at start-up apply from the next session"
        }
        (Lang::Zh, TrustNextSession) => "启动时被忽略的设置将从下一次会话起生效",
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
        (Lang::En, ApprovalModeIs) => "approval mode",
        (Lang::Zh, ApprovalModeIs) => "审批模式",
        (Lang::En, ModeAsk) => "every edit, command and MCP call asks you first",
        (Lang::Zh, ModeAsk) => "每次编辑、命令和 MCP 调用都先询问你",
        (Lang::En, ModeAuto) => {
            "edits run; a classifier judges each command; MCP calls and reverts are refused"
        }
        (Lang::Zh, ModeAuto) => "编辑直接执行；命令由分类器判断；MCP 调用和回退被拒绝",
        (Lang::En, ModePlan) => "read-only tools until you approve a plan",
        (Lang::Zh, ModePlan) => "批准计划前只能使用只读工具",
        (Lang::En, ModeFull) => "everything runs without asking; the guards still apply",
        (Lang::Zh, ModeFull) => "全部直接执行，不再询问；防护仍然生效",
        (Lang::En, ShiftTabCycles) => "Shift+Tab at the prompt cycles auto → plan → ask → full",
        (Lang::Zh, ShiftTabCycles) => "在提示符处按 Shift+Tab 循环切换 auto → plan → ask → full",
        (Lang::En, AuditEmpty) => "no audit entries yet in",
        (Lang::Zh, AuditEmpty) => "还没有审计记录：",
        (Lang::En, PolicyGuards) => {
            "Always on, in every mode: path fence (files stay inside the project), command guard (destructive \
             commands are refused), secret scrubbing (keys are masked in the audit log and removed from the \
             command environment)"
        }
        (Lang::Zh, PolicyGuards) => {
            "在所有模式下始终生效：路径围栏（文件限于项目内）、命令防护（拒绝破坏性命令）、密钥清洗（审计日志中打码，\
             命令环境中移除）"
        }
        (Lang::En, PolicyNoRules) => "none",
        (Lang::Zh, PolicyNoRules) => "无",
        (Lang::En, PolicySessionRules) => "this session (approved with `a`):",
        (Lang::Zh, PolicySessionRules) => "本会话（用 `a` 批准）：",
        (Lang::En, MemoryOff) => "long-term memory is not available in this session",
        (Lang::Zh, MemoryOff) => "本会话没有长期记忆",
        (Lang::En, MemoryEmpty) => "no memories saved yet (/save <fact>)",
        (Lang::Zh, MemoryEmpty) => "还没有保存的记忆（/save <事实>）",
        (Lang::En, MemorySaved) => "saved",
        (Lang::Zh, MemorySaved) => "已保存",
        (Lang::En, MemoryDuplicate) => "already saved; marked as verified",
        (Lang::Zh, MemoryDuplicate) => "已存在；已标记为已验证",
        (Lang::En, MemoryConflict) => "not saved: it may contradict",
        (Lang::Zh, MemoryConflict) => "未保存：可能与以下记忆矛盾",
        (Lang::En, MemoryConflictHint) => {
            "use /save --force <fact> to keep both, or /memory replace <id> <fact> to replace one"
        }
        (Lang::Zh, MemoryConflictHint) => {
            "用 /save --force <事实> 同时保留，或用 /memory replace <id> <事实> 替换其中一条"
        }
        (Lang::En, MemoryDeleted) => "deleted",
        (Lang::Zh, MemoryDeleted) => "已删除",
        (Lang::En, MemoryVerified) => "verified",
        (Lang::Zh, MemoryVerified) => "已验证",
        (Lang::En, MemoryReplaced) => "replaced",
        (Lang::Zh, MemoryReplaced) => "已替换",
        (Lang::En, MemoryCleared) => "memories deleted",
        (Lang::Zh, MemoryCleared) => "条记忆已删除",
        (Lang::En, MemoryClearConfirm) => {
            "this deletes every saved memory (this project's and the global ones); run /memory clear --yes"
        }
        (Lang::Zh, MemoryClearConfirm) => {
            "这会删除所有记忆（本项目和全局）；确认请运行 /memory clear --yes"
        }
        (Lang::En, NothingCompacted) => "nothing compacted",
        (Lang::Zh, NothingCompacted) => "未压缩",
        (Lang::En, DiagnosticsOff) => "diagnostics are off ([lsp] enabled = false)",
        (Lang::Zh, DiagnosticsOff) => "诊断已关闭（[lsp] enabled = false）",
        (Lang::En, McpNone) => {
            "no MCP servers configured ($PAICLI_HOME/mcp.json or .paicli/mcp.json)"
        }
        (Lang::Zh, McpNone) => "没有配置 MCP 服务器（$PAICLI_HOME/mcp.json 或 .paicli/mcp.json）",
        (Lang::En, McpApproved) => "approved for this project; starting",
        (Lang::Zh, McpApproved) => "已为本项目批准；正在启动",
        (Lang::En, McpNoLogs) => "no stderr output kept for",
        (Lang::Zh, McpNoLogs) => "没有保留的 stderr 输出：",
        (Lang::En, McpRestarting) => "restarting",
        (Lang::Zh, McpRestarting) => "正在重启",
        (Lang::En, McpDisabled) => "stopped and disabled for this session",
        (Lang::Zh, McpDisabled) => "已停止，本次会话中禁用",
        (Lang::En, McpEnabling) => "enabled; starting",
        (Lang::Zh, McpEnabling) => "已启用；正在启动",
        (Lang::En, McpNoResources) => "the server lists no resources",
        (Lang::Zh, McpNoResources) => "该服务器没有列出资源",
        (Lang::En, McpNoPrompts) => "the server lists no prompts",
        (Lang::Zh, McpNoPrompts) => "该服务器没有列出提示模板",
        // snapshots
        (Lang::En, SnapshotsOff) => {
            "snapshots are off (snapshots.enabled = false, or the git program is not installed)"
        }
        (Lang::Zh, SnapshotsOff) => "快照已关闭（snapshots.enabled = false，或未安装 git）",
        (Lang::En, SnapshotsEmpty) => "no snapshots of this project yet",
        (Lang::Zh, SnapshotsEmpty) => "本项目还没有快照",
        (Lang::En, SnapshotsHeading) => "Snapshots (newest first; /restore N puts the files back)",
        (Lang::Zh, SnapshotsHeading) => "快照（最新在前；/restore N 恢复文件）",
        (Lang::En, SnapshotsStore) => "store size on disk",
        (Lang::Zh, SnapshotsStore) => "快照库占用磁盘",
        (Lang::En, SnapshotCleanConfirm) => "Remove every snapshot of this project? [y/N] ",
        (Lang::Zh, SnapshotCleanConfirm) => "删除本项目的所有快照？[y/N] ",
        (Lang::En, SnapshotsCleaned) => "snapshots removed",
        (Lang::Zh, SnapshotsCleaned) => "快照已删除",
        (Lang::En, SnapshotFiles) => "file(s) changed",
        (Lang::Zh, SnapshotFiles) => "个文件有改动",
        (Lang::En, RestoreUsage) => "usage: /restore N (N from /snapshot)",
        (Lang::Zh, RestoreUsage) => "用法：/restore N（N 见 /snapshot）",
        (Lang::En, Restored) => "restored; /restore 1 or revert_turn undoes it",
        (Lang::Zh, Restored) => "已恢复；/restore 1 或 revert_turn 可撤销",
        (Lang::En, RestoreNothing) => "the files already match that snapshot",
        (Lang::Zh, RestoreNothing) => "文件已与该快照一致",
        (Lang::En, RewindNoTurns) => "there is no earlier message to rewind to",
        (Lang::Zh, RewindNoTurns) => "没有可回退到的早先消息",
        (Lang::En, RewindPick) => {
            "Rewind to before which message? Number + Enter (Enter or ESC cancels): "
        }
        (Lang::Zh, RewindPick) => "回退到哪条消息之前？输入编号并回车（回车或 ESC 取消）：",
        (Lang::En, RewindHow) => {
            "Rewind [c] code  [v] conversation  [b] both (Enter or ESC cancels): "
        }
        (Lang::Zh, RewindHow) => "回退 [c] 代码  [v] 对话  [b] 两者（回车或 ESC 取消）：",
        (Lang::En, RewindNoCode) => "no files changed since that message; the code is as it was",
        (Lang::Zh, RewindNoCode) => "该消息之后没有文件改动；代码保持不变",
        (Lang::En, RewindConversation) => {
            "conversation rewound: the next request starts before that message"
        }
        (Lang::Zh, RewindConversation) => "对话已回退：下一次请求从该消息之前开始",
        (Lang::En, RewindInvalid) => "not a number from the list; nothing was changed",
        (Lang::Zh, RewindInvalid) => "不是列表中的编号；未做任何改动",
    }
}

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
    fn refusal_notices_name_the_file_and_key_in_both_languages() {
        for refusal in [
            Refusal::UserOnly,
            Refusal::NeedsTrust,
            Refusal::NeedsOwnKey,
            Refusal::Loosens,
        ] {
            let r = RefusedSetting {
                file: std::path::PathBuf::from("p/.env"),
                key: "DEEPSEEK_BASE_URL".to_string(),
                refusal,
            };
            let (en, zh) = (refused_setting(Lang::En, &r), refused_setting(Lang::Zh, &r));
            assert_ne!(en, zh);
            for text in [en, zh] {
                assert!(
                    text.contains("p/.env") && text.contains("`DEEPSEEK_BASE_URL`"),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn every_message_has_both_languages() {
        for msg in [
            Msg::Tip,
            Msg::Cancelled,
            Msg::MentionSkipped,
            Msg::ModeAuto,
            Msg::PolicyGuards,
            Msg::MemoryConflictHint,
            Msg::DiagnosticsOff,
            Msg::McpNone,
        ] {
            assert_ne!(tr(Lang::En, msg), tr(Lang::Zh, msg));
        }
    }
}
