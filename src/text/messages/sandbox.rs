//! The OS sandbox around commands: running one outside it, notices when it is missing, `/policy`.

messages! {
    KeyUnsandboxed => en: "[u] yes, outside the sandbox (once)", zh: "[u] 是，在沙箱外执行（仅此一次）",
    ApprovalHelpUnsandboxed =>
        en: "u           run this one command outside the OS sandbox (it may write anywhere; audited)",
        zh: "u           在操作系统沙箱外执行这一条命令（可写入任何位置；会记入审计日志）",
    ApprovalAllowedUnsandboxed => en: "allowed once, outside the sandbox", zh: "已允许一次，在沙箱外执行",
    NoticeSandboxUnavailable =>
        en: "the command sandbox is not available here ({reason}); commands run unconfined, with only the command \
             guard ([sandbox] mode = \"required\" refuses them instead)",
        zh: "此处无法使用命令沙箱（{reason}）；命令将在无沙箱的情况下运行，仅有命令守卫把关（设置 [sandbox] mode = \
             \"required\" 则改为拒绝执行）",
    NoticeSandboxNetworkOpen =>
        en: "[sandbox] network = false cannot be enforced on this kernel (Landlock before ABI 4); commands can still \
             reach the network",
        zh: "此内核无法强制执行 [sandbox] network = false（Landlock ABI 低于 4）；命令仍可访问网络",
    PolicySandbox =>
        en: "sandbox: {state} (mode = {mode}, {support}; network = {network}, protect_git = {git})",
        zh: "沙箱：{state}（mode = {mode}，{support}；network = {network}，protect_git = {git}）",
    PolicySandboxWritable => en: "commands may write to: {roots}", zh: "命令可写入：{roots}",
    SandboxActive => en: "on", zh: "已启用",
    SandboxInactive => en: "off", zh: "未启用",
    SandboxReadOnly => en: "nothing (read-only, plan mode)", zh: "无（只读，计划模式）",
}
