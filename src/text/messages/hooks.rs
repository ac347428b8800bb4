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
    HooksNone =>
        en: "no hooks configured ([hooks] in $PAICLI_HOME/config.toml, ~/.claude/settings.json, the project's \
             .claude/settings.json, .claude/settings.local.json or .paicli/hooks.json)",
        zh: "没有配置钩子（$PAICLI_HOME/config.toml 的 [hooks]、~/.claude/settings.json、项目的 \
             .claude/settings.json、.claude/settings.local.json 或 .paicli/hooks.json）",
    HookStateUser => en: "yours, runs", zh: "你自己的，会运行",
    HookStateTrusted => en: "project, trusted", zh: "项目，已信任",
    HookStateUntrusted =>
        en: "project, not trusted: /trust to run it",
        zh: "项目，未信任：用 /trust 启用",
    HooksFileProblem => en: "hook file skipped: {problem}", zh: "已跳过钩子文件：{problem}",
    HooksTrustNextSession =>
        en: "the project's hooks run from the next session",
        zh: "项目的钩子从下次会话起运行",
    HookRunningLabel => en: "hook {event}: {command}", zh: "钩子 {event}：{command}",
    HookBlockedLine => en: "a {event} hook blocked: {reason}", zh: "{event} 钩子拦下了：{reason}",
}
