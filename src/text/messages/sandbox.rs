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
    PolicyRootProject => en: "the project", zh: "项目",
    PolicyRootTemp => en: "temp dir", zh: "临时目录",
    PolicyRootToolCache => en: "{tool}'s download cache", zh: "{tool} 的下载缓存",
    PolicyRootUserSetting => en: "[sandbox] writable_roots in your settings", zh: "你的设置中的 [sandbox] writable_roots",
    PolicyRootLinkedGit => en: "git dir of this worktree", zh: "此工作树的 git 目录",
    PolicyStateReadOnly =>
        en: "read-only inside them: {path} (paicli's own state)",
        zh: "其中只读：{path}（paicli 自身的状态）",
    PolicyProcessesNamespace =>
        en: "processes: everything a command starts ends with it (PID namespace)",
        zh: "进程：命令启动的一切进程都随命令结束（PID 命名空间）",
    PolicyProcessesGroup =>
        en: "processes: a command's process group ends with it; one that leaves the group (setsid) can outlive it \
             (no user namespaces on this machine)",
        zh: "进程：命令的进程组随命令结束；脱离进程组的进程（setsid）可能存活（本机没有用户命名空间）",
    NoticeGitLinkRefused =>
        en: "sandbox: the project's .git file does not make its target writable: {why}. Commands cannot write that \
             git directory; add it to [sandbox] writable_roots in your own settings if it is yours.",
        zh: "沙箱：项目的 .git 文件所指的目录不可写：{why}。命令不能写入那个 git 目录；如果它属于你，请在你自己的设置中\
             把它加入 [sandbox] writable_roots。",
    PolicyDaemonSockets =>
        en: "daemons: {count} Unix sockets outside the project are hidden from commands ([sandbox] allow_sockets \
             keeps one reachable); a socket opened after a command starts is not",
        zh: "守护进程：项目外的 {count} 个 Unix 套接字对命令不可见（用 [sandbox] allow_sockets 保留可访问的）；\
             命令启动之后才打开的套接字不在此列",
    PolicyAbstractScoped =>
        en: "abstract sockets and signals: only the command's own processes (Landlock ABI 6+)",
        zh: "抽象套接字与信号：仅限命令自己的进程（Landlock ABI 6+）",
    PolicyAbstractOpen =>
        en: "abstract sockets: reachable on this kernel (Landlock before ABI 6)",
        zh: "抽象套接字：此内核上可访问（Landlock ABI 低于 6）",
    PolicySocketVars =>
        en: "not passed to commands: {vars} (keep one with [shell] keep_env)",
        zh: "不传给命令的变量：{vars}（用 [shell] keep_env 保留）",
    GitLinkSymlink => en: "the project's .git is a symbolic link", zh: "项目的 .git 是符号链接",
    GitLinkNotGitDir => en: "it names {path}, which is not a git directory", zh: "它指向 {path}，那不是 git 目录",
    GitLinkForeign =>
        en: "it names {path}, which does not link back to this project",
        zh: "它指向 {path}，而那里没有指回本项目",
    GitLinkProtected =>
        en: "it names {path}, a folder that holds your home folder, the project or paicli's own state",
        zh: "它指向 {path}，该目录包含你的主目录、项目或 paicli 自身的状态",
}
