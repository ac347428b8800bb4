//! Hooks: their notices, `/hooks`, and what a running hook shows.

messages! {
    NoticeHookMessage => en: "hook: {text}", zh: "钩子：{text}",
    NoticeHookPromptBlocked =>
        en: "a UserPromptSubmit hook blocked the prompt; nothing was sent to the model: {reason}",
        zh: "UserPromptSubmit 钩子拦下了这条输入，未发送给模型：{reason}",
    NoticeHookStopContinues =>
        en: "a Stop hook keeps the agent working: {reason}",
        zh: "Stop 钩子让智能体继续工作：{reason}",
    NoticeHookStopLimit =>
        en: "Stop hooks kept the agent working {times} times, the most allowed; the turn ends here ({reason})",
        zh: "Stop 钩子已让智能体继续工作 {times} 次，达到上限；本轮到此结束（{reason}）",
    NoticeHookNeedsTrust =>
        en: "the project's {event} hook `{command}` from {source} does not run until you trust this project: \
             review it, then use /trust in the REPL or run paicli with --trust-project",
        zh: "来自 {source} 的项目 {event} 钩子 `{command}` 在你信任此项目之前不会运行：请先检查它，然后在 REPL 中用 \
             /trust，或用 --trust-project 运行 paicli",
}
