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
    // keys
    ApprovalWants,
    RiskHigh,
    RiskMedium,
    RiskNone,
    ApprovalWhy,
    ApprovalAskMode,
    ApprovalCommand,
    ApprovalCommandParts,
    ApprovalQuestion,
    KeyYes,
    KeyYesEveryTime,
    KeySession,
    KeyProject,
    KeyNo,
    KeyReason,
    KeyEdit,
    KeyHelp,
    ApprovalHelpYes,
    ApprovalHelpSession,
    ApprovalHelpProject,
    ApprovalHelpNoRemember,
    ApprovalHelpNo,
    ApprovalHelpReason,
    ApprovalHelpEdit,
    ApprovalHelpCancel,
    ApprovalUnknownKey,
    ApprovalReasonPrompt,
    ApprovalEditPrompt,
    ApprovalInvalidJson,
    ApprovalNotObject,
    ApprovalAllowed,
    ApprovalAllowedSession,
    ApprovalAllowedProject,
    ApprovalEdited,
    ApprovalDenied,
    ApprovalCancelled,
    DiffOverwrites,
    DiffNewFile,
    DiffEdits,
    DiffNoMatch,
    DiffMoreLines,
    ModeFullWarning,
    RuleEveryCall,
    RuleCommandPrefix,
    RuleExactCommand,
    ApprovalTooLongToEdit,
    ApprovalRuleNotSaved,
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
            "edits run; a classifier judges each command and asks you when unsure; MCP calls and reverts are refused"
        }
        (Lang::Zh, ModeAuto) => {
            "编辑直接执行；命令由分类器判断，拿不准时询问你；MCP 调用和回退被拒绝"
        }
        (Lang::En, ModePlan) => "read-only tools until you approve a plan",
        (Lang::Zh, ModePlan) => "批准计划前只能使用只读工具",
        (Lang::En, ModeFull) => "everything runs without asking; the guards still apply",
        (Lang::Zh, ModeFull) => "全部直接执行，不再询问；防护仍然生效",
        (Lang::En, ShiftTabCycles) => {
            "Shift+Tab at the prompt cycles auto → plan → ask → auto; /mode full for full"
        }
        (Lang::Zh, ShiftTabCycles) => {
            "在提示符处按 Shift+Tab 循环切换 auto → plan → ask → auto；用 /mode full 进入 full"
        }
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
        // keys
        (Lang::En, ApprovalWants) => "{tool} wants to run (risk: {risk})",
        (Lang::Zh, ApprovalWants) => "{tool} 请求执行（风险：{risk}）",
        (Lang::En, RiskHigh) => "high",
        (Lang::Zh, RiskHigh) => "高",
        (Lang::En, RiskMedium) => "medium",
        (Lang::Zh, RiskMedium) => "中",
        (Lang::En, RiskNone) => "none",
        (Lang::Zh, RiskNone) => "无",
        (Lang::En, ApprovalWhy) => "why asked",
        (Lang::Zh, ApprovalWhy) => "询问原因",
        (Lang::En, ApprovalAskMode) => "ask mode asks before every call that changes something",
        (Lang::Zh, ApprovalAskMode) => "ask 模式在每个会改动内容的调用前询问",
        (Lang::En, ApprovalCommand) => "command",
        (Lang::Zh, ApprovalCommand) => "命令",
        (Lang::En, ApprovalCommandParts) => "{n} commands",
        (Lang::Zh, ApprovalCommandParts) => "{n} 条命令",
        (Lang::En, ApprovalQuestion) => "Approve?",
        (Lang::Zh, ApprovalQuestion) => "批准？",
        (Lang::En, KeyYes) => "[y/Enter] yes",
        (Lang::Zh, KeyYes) => "[y/Enter] 是",
        (Lang::En, KeyYesEveryTime) => "[y/Enter] yes (asked every time)",
        (Lang::Zh, KeyYesEveryTime) => "[y/Enter] 是（每次都会询问）",
        (Lang::En, KeySession) => "[a] yes, and allow {rule} this session",
        (Lang::Zh, KeySession) => "[a] 是，并在本次会话中允许{rule}",
        (Lang::En, KeyProject) => "[p] always allow it in this project",
        (Lang::Zh, KeyProject) => "[p] 在本项目中始终允许",
        (Lang::En, KeyNo) => "[n] no",
        (Lang::Zh, KeyNo) => "[n] 否",
        (Lang::En, KeyReason) => "[r] no, with a reason",
        (Lang::Zh, KeyReason) => "[r] 否，并说明原因",
        (Lang::En, KeyEdit) => "[m] edit arguments",
        (Lang::Zh, KeyEdit) => "[m] 编辑参数",
        (Lang::En, KeyHelp) => "[?] keys",
        (Lang::Zh, KeyHelp) => "[?] 按键说明",
        (Lang::En, ApprovalHelpYes) => "y or Enter  run this call once",
        (Lang::Zh, ApprovalHelpYes) => "y 或 Enter  执行这一次调用",
        (Lang::En, ApprovalHelpSession) => {
            "a           run it, and allow {rule} for the rest of this session"
        }
        (Lang::Zh, ApprovalHelpSession) => "a           执行，并在本次会话剩余时间内允许{rule}",
        (Lang::En, ApprovalHelpProject) => {
            "p           run it, and always allow {rule} in this project (saved in your config.toml)"
        }
        (Lang::Zh, ApprovalHelpProject) => {
            "p           执行，并在本项目中始终允许{rule}（保存到你的 config.toml）"
        }
        (Lang::En, ApprovalHelpNoRemember) => {
            "            (a and p are not offered: this call is asked about every time)"
        }
        (Lang::Zh, ApprovalHelpNoRemember) => "            （不提供 a 和 p：这类调用每次都会询问）",
        (Lang::En, ApprovalHelpNo) => "n           do not run it; the model is told you refused",
        (Lang::Zh, ApprovalHelpNo) => "n           不执行；告诉模型你拒绝了",
        (Lang::En, ApprovalHelpReason) => {
            "r           do not run it, and type a reason the model reads"
        }
        (Lang::Zh, ApprovalHelpReason) => "r           不执行，并输入一条给模型看的原因",
        (Lang::En, ApprovalHelpEdit) => {
            "m           edit the arguments as JSON, then run with them (ESC goes back)"
        }
        (Lang::Zh, ApprovalHelpEdit) => "m           以 JSON 编辑参数后按新参数执行（ESC 返回）",
        (Lang::En, ApprovalHelpCancel) => "ESC, Ctrl-C  do not run it, and cancel the whole task",
        (Lang::Zh, ApprovalHelpCancel) => "ESC、Ctrl-C  不执行，并取消整个任务",
        (Lang::En, ApprovalUnknownKey) => "not a key of this prompt; press ? to see the keys",
        (Lang::Zh, ApprovalUnknownKey) => "这个按键无效；按 ? 查看所有按键",
        (Lang::En, ApprovalReasonPrompt) => "Reason for the model (Enter sends, ESC goes back): ",
        (Lang::Zh, ApprovalReasonPrompt) => "给模型的原因（Enter 发送，ESC 返回）：",
        (Lang::En, ApprovalEditPrompt) => {
            "Arguments as JSON (Enter runs with them, ESC goes back): "
        }
        (Lang::Zh, ApprovalEditPrompt) => "JSON 格式的参数（Enter 按此执行，ESC 返回）：",
        (Lang::En, ApprovalInvalidJson) => "invalid JSON",
        (Lang::Zh, ApprovalInvalidJson) => "JSON 无效",
        (Lang::En, ApprovalNotObject) => "the arguments must be a JSON object ({...})",
        (Lang::Zh, ApprovalNotObject) => "参数必须是 JSON 对象（{...}）",
        (Lang::En, ApprovalAllowed) => "allowed",
        (Lang::Zh, ApprovalAllowed) => "已允许",
        (Lang::En, ApprovalAllowedSession) => {
            "allowed; {rule} runs without asking for the rest of this session"
        }
        (Lang::Zh, ApprovalAllowedSession) => "已允许；本次会话剩余时间内{rule}无需再询问",
        (Lang::En, ApprovalAllowedProject) => {
            "allowed; {rule} always runs in this project (saved in the user config)"
        }
        (Lang::Zh, ApprovalAllowedProject) => {
            "已允许；本项目中{rule}将始终直接执行（已保存到用户配置）"
        }
        (Lang::En, ApprovalEdited) => "allowed with edited arguments",
        (Lang::Zh, ApprovalEdited) => "已允许，使用编辑后的参数",
        (Lang::En, ApprovalDenied) => "denied",
        (Lang::Zh, ApprovalDenied) => "已拒绝",
        (Lang::En, ApprovalCancelled) => "denied; the task is cancelled",
        (Lang::Zh, ApprovalCancelled) => "已拒绝；任务已取消",
        (Lang::En, DiffOverwrites) => "overwrites {path}",
        (Lang::Zh, DiffOverwrites) => "将覆盖 {path}",
        (Lang::En, DiffNewFile) => "new file {path} ({n} lines)",
        (Lang::Zh, DiffNewFile) => "新文件 {path}（{n} 行）",
        (Lang::En, DiffEdits) => "edits {path}",
        (Lang::Zh, DiffEdits) => "将编辑 {path}",
        (Lang::En, DiffNoMatch) => "old_text is not in {path} as it is now; the tool will say so",
        (Lang::Zh, DiffNoMatch) => "{path} 当前内容中找不到 old_text；工具会报告这一点",
        (Lang::En, DiffMoreLines) => "… {n} more lines",
        (Lang::Zh, DiffMoreLines) => "… 还有 {n} 行",
        (Lang::En, ModeFullWarning) => {
            "full mode: every call runs without asking (the guards still apply); /mode auto to go back"
        }
        (Lang::Zh, ModeFullWarning) => {
            "full 模式：所有调用都不再询问直接执行（防护仍然生效）；/mode auto 可切回"
        }
        (Lang::En, RuleEveryCall) => "every `{x}` call",
        (Lang::Zh, RuleEveryCall) => "每次 `{x}` 调用",
        (Lang::En, RuleCommandPrefix) => "commands starting with `{x}`",
        (Lang::Zh, RuleCommandPrefix) => "以 `{x}` 开头的命令",
        (Lang::En, RuleExactCommand) => "exactly the command `{x}`",
        (Lang::Zh, RuleExactCommand) => "仅限命令 `{x}`",
        (Lang::En, ApprovalTooLongToEdit) => {
            "the arguments ({n} chars) are too long to edit on this screen; answer with another key"
        }
        (Lang::En, ApprovalRuleNotSaved) => {
            "the rule was not saved, so it holds for this session only: {error}"
        }
        (Lang::Zh, ApprovalRuleNotSaved) => "规则未能保存，仅在本次会话中有效：{error}",
        (Lang::Zh, ApprovalTooLongToEdit) => {
            "参数（{n} 个字符）太长，无法在此屏幕上编辑；请用其他按键回答"
        }
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
