//! Asking the person before a call runs: the approval prompt, its keys and answers, editors' options, the audit log.

messages! {
    ApprovalWants => en: "{tool} wants to run (risk: {risk})", zh: "{tool} 请求执行（风险：{risk}）",
    RiskHigh => en: "high", zh: "高",
    RiskMedium => en: "medium", zh: "中",
    RiskNone => en: "none", zh: "无",
    ApprovalWhy => en: "why asked", zh: "询问原因",
    ApprovalAskMode =>
        en: "ask mode asks before every call that changes something",
        zh: "ask 模式在每个会改动内容的调用前询问",
    ApprovalCommand => en: "command", zh: "命令",
    ApprovalCommandParts => en: "{n} commands", zh: "{n} 条命令",
    ApprovalQuestion => en: "Approve?", zh: "批准？",
    KeyYes => en: "[y/Enter] yes", zh: "[y/Enter] 是",
    KeyYesEveryTime => en: "[y/Enter] yes (asked every time)", zh: "[y/Enter] 是（每次都会询问）",
    KeySession => en: "[a] yes, and allow {rule} this session", zh: "[a] 是，并在本次会话中允许{rule}",
    KeyProject => en: "[p] always allow it in this project", zh: "[p] 在本项目中始终允许",
    KeyNo => en: "[n] no", zh: "[n] 否",
    KeyReason => en: "[r] no, with a reason", zh: "[r] 否，并说明原因",
    KeyEdit => en: "[m] edit arguments", zh: "[m] 编辑参数",
    KeyWhole => en: "[v] whole change", zh: "[v] 查看完整改动",
    KeyHelp => en: "[?] keys", zh: "[?] 按键说明",
    ApprovalHelpYes => en: "y or Enter  run this call once", zh: "y 或 Enter  执行这一次调用",
    ApprovalHelpSession =>
        en: "a           run it, and allow {rule} for the rest of this session",
        zh: "a           执行，并在本次会话剩余时间内允许{rule}",
    ApprovalHelpProject =>
        en: "p           run it, and always allow {rule} in this project (saved in your config.toml)",
        zh: "p           执行，并在本项目中始终允许{rule}（保存到你的 config.toml）",
    ApprovalHelpNoRemember =>
        en: "            (a and p are not offered: this call is asked about every time)",
        zh: "            （不提供 a 和 p：这类调用每次都会询问）",
    ApprovalHelpNo =>
        en: "n           do not run it; the model is told you refused",
        zh: "n           不执行；告诉模型你拒绝了",
    ApprovalHelpReason =>
        en: "r           do not run it, and type a reason the model reads",
        zh: "r           不执行，并输入一条给模型看的原因",
    ApprovalHelpEdit =>
        en: "m           edit the arguments as JSON, then run with them (ESC goes back)",
        zh: "m           以 JSON 编辑参数后按新参数执行（ESC 返回）",
    ApprovalHelpWhole =>
        en: "v, Ctrl+O   show the whole change (through $PAGER when taller than the screen), then ask again",
        zh: "v、Ctrl+O   查看完整改动（比屏幕高时用 $PAGER 分页），然后再次询问",
    ApprovalHelpCancel =>
        en: "ESC, Ctrl-C  do not run it, and cancel the whole task",
        zh: "ESC、Ctrl-C  不执行，并取消整个任务",
    ApprovalUnknownKey =>
        en: "not a key of this prompt; press ? to see the keys",
        zh: "这个按键无效；按 ? 查看所有按键",
    ApprovalReasonPrompt =>
        en: "Reason for the model (Enter sends, ESC goes back): ",
        zh: "给模型的原因（Enter 发送，ESC 返回）：",
    ApprovalEditPrompt =>
        en: "Arguments as JSON (Enter runs with them, ESC goes back): ",
        zh: "JSON 格式的参数（Enter 按此执行，ESC 返回）：",
    ApprovalInvalidJson => en: "invalid JSON", zh: "JSON 无效",
    ApprovalNotObject =>
        en: "the arguments must be a JSON object ({...})",
        zh: "参数必须是 JSON 对象（{...}）",
    ApprovalAllowed => en: "allowed", zh: "已允许",
    ApprovalAllowedSession =>
        en: "allowed; {rule} runs without asking for the rest of this session",
        zh: "已允许；本次会话剩余时间内{rule}无需再询问",
    ApprovalAllowedProject =>
        en: "allowed; {rule} always runs in this project (saved in the user config)",
        zh: "已允许；本项目中{rule}将始终直接执行（已保存到用户配置）",
    ApprovalEdited => en: "allowed with edited arguments", zh: "已允许，使用编辑后的参数",
    ApprovalDenied => en: "denied", zh: "已拒绝",
    ApprovalCancelled => en: "denied; the task is cancelled", zh: "已拒绝；任务已取消",
    ApprovalTooLongToEdit =>
        en: "the arguments ({n} chars) are too long to edit on this screen; answer with another key",
        zh: "参数（{n} 个字符）太长，无法在此屏幕上编辑；请用其他按键回答",
    ApprovalRuleNotSaved =>
        en: "the rule was not saved, so it holds for this session only: {error}",
        zh: "规则未能保存，仅在本次会话中有效：{error}",
    DiffOverwrites => en: "overwrites {path}", zh: "将覆盖 {path}",
    DiffNewFile => en: "new file {path} ({n} lines)", zh: "新文件 {path}（{n} 行）",
    DiffEdits => en: "edits {path}", zh: "将编辑 {path}",
    DiffNoMatch =>
        en: "old_text is not in {path} as it is now; the tool will say so",
        zh: "{path} 当前内容中找不到 old_text；工具会报告这一点",
    DiffMoreLines => en: "… {n} more lines", zh: "… 还有 {n} 行",
    DiffOneMoreLine => en: "… 1 more line", zh: "… 还有 1 行",
    RuleEveryCall => en: "every `{x}` call", zh: "每次 `{x}` 调用",
    RuleCommandPrefix => en: "commands starting with `{x}`", zh: "以 `{x}` 开头的命令",
    RuleExactCommand => en: "exactly the command `{x}`", zh: "仅限命令 `{x}`",
    AcpAllowOnce => en: "Allow once", zh: "允许一次",
    AcpAllowSession => en: "Allow for this session", zh: "本会话内始终允许",
    AcpReject => en: "Reject", zh: "拒绝",
    AuditEmpty => en: "no audit entries yet in", zh: "还没有审计记录：",
    PolicyGuards =>
        en: "Always on, in every mode: path fence (files stay inside the project), command guard (destructive \
             commands are refused), secret scrubbing (keys are masked in the audit log and removed from the \
             command environment)",
        zh: "在所有模式下始终生效：路径围栏（文件限于项目内）、命令防护（拒绝破坏性命令）、密钥清洗（审计日志中打码，\
             命令环境中移除）",
    PolicyNoRules => en: "none", zh: "无",
    PolicySessionRules => en: "this session (approved with `a`):", zh: "本会话（用 `a` 批准）：",
    PolicyAllowRules => en: "always allowed ([approvals] allow):", zh: "始终允许（[approvals] allow）：",
    PolicyDenyRules => en: "always denied ([approvals] deny):", zh: "始终拒绝（[approvals] deny）：",
    PolicyProjectRules =>
        en: "allowed in this project ([approvals.projects]):",
        zh: "本项目允许（[approvals.projects]）：",
}
