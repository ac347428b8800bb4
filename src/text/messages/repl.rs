//! The interactive prompt: the tip, keys, commands and leaving.

messages! {
    Tip =>
        en: "Type a task, /help for commands, @path to attach a file; ESC stops a running task.",
        zh: "输入任务；/help 查看命令，@路径 附加文件；任务运行时按 ESC 停止。",
    Cancelled => en: "cancelled by user", zh: "已被用户取消",
    PressCtrlCAgain => en: "press Ctrl-C again to exit (or Ctrl-D)", zh: "再按一次 Ctrl-C 退出（或 Ctrl-D）",
    Bye => en: "bye", zh: "再见",
    ResumeHint =>
        en: "resume this conversation with `paicli -c` (or `paicli -r {id}`)",
        zh: "用 `paicli -c`（或 `paicli -r {id}`）继续这段对话",
    NoRunningTask => en: "no running task", zh: "没有正在运行的任务",
    CommandsHeading => en: "Commands", zh: "命令",
    NotWhileRunning => en: "not available while a task runs", zh: "任务运行时不可用",
    ErrorPrefix => en: "error", zh: "错误",
    UnknownCommandSuggest =>
        en: "unknown command /{name}; did you mean /{suggestion}? (/help)",
        zh: "未知命令 /{name}；你是不是想输入 /{suggestion}？（/help）",
    UnknownCommandPlain => en: "unknown command /{name} (/help)", zh: "未知命令 /{name}（/help）",
    ShellUsage =>
        en: "type a shell command after ! (for example !ls); it runs like execute_command, checked and approved",
        zh: "请在 ! 后输入 shell 命令（例如 !ls）；它与 execute_command 一样经过检查和审批后运行",
    ShellOutputJoins =>
        en: "the command and its output go to the model with your next message",
        zh: "该命令及其输出会随你的下一条消息发给模型",
    KeysHeading => en: "Keys", zh: "按键",
    KeyStop => en: "ESC or Ctrl-C stops a running task", zh: "ESC 或 Ctrl-C 停止运行中的任务",
    KeyExit => en: "Ctrl-C twice or Ctrl-D exits", zh: "连按两次 Ctrl-C 或 Ctrl-D 退出",
    KeyNewline => en: "Alt-Enter or a trailing \\ starts a new line", zh: "Alt-Enter 或行尾的 \\ 换行",
    KeyComplete =>
        en: "Tab completes /commands and @paths and lists the choices",
        zh: "Tab 补全 /命令 和 @路径，并列出可选项",
    KeyMode => en: "Shift+Tab cycles the approval mode", zh: "Shift+Tab 切换审批模式",
    KeyExpand =>
        en: "Ctrl+O shows the last tool result, reason or diagnostics in full",
        zh: "Ctrl+O 完整显示最近的工具结果、原因或诊断",
    KeyRewind => en: "Esc Esc at an empty prompt rewinds (/rewind)", zh: "在空提示符下连按两次 Esc 回退（/rewind）",
    KeyPasteImage =>
        en: "Ctrl+V attaches an image from the clipboard",
        zh: "Ctrl+V 附加剪贴板中的图片",
    KeyShell =>
        en: "!command runs a shell command (checked and approved like execute_command); its output joins the \
             conversation",
        zh: "!命令 运行 shell 命令（与 execute_command 一样经过检查和审批）；输出会加入对话",
}
