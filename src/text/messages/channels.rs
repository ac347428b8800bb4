//! Chat channels (`paicli channel …`, and what the agent says in a chat): commands, questions, limits, the log.

messages! {
    ChannelHelpIntro =>
        en: "Send a task as a message; it runs in the folder paicli was started in. Commands:",
        zh: "直接发送消息即为任务，在 paicli 启动时所在的目录中执行。命令：",
    ChannelCmdHelp => en: "this help", zh: "显示本帮助",
    ChannelCmdStatus => en: "what runs now, the queue, the mode, today's use", zh: "当前任务、队列、模式和今日用量",
    ChannelCmdStop => en: "stop the running task and drop the queued ones", zh: "停止当前任务并清空队列",
    ChannelCmdClear => en: "forget the conversation", zh: "清空对话",
    ChannelCmdCompact => en: "summarize the conversation to free context", zh: "压缩对话以释放上下文",
    ChannelCmdMode => en: "show or switch the approval mode", zh: "显示或切换审批模式",
    ChannelCmdPause => en: "hold new tasks until /resume", zh: "暂停执行新任务，直到 /resume",
    ChannelCmdResume => en: "run held tasks again", zh: "恢复执行暂停的任务",
    ChannelApproveLabel => en: "Approve", zh: "批准",
    ChannelDenyLabel => en: "Refuse", zh: "拒绝",
    ChannelQuestion =>
        en: "paicli asks to run {tool}:\n{call}",
        zh: "paicli 请求执行 {tool}：\n{call}",
    ChannelPlanQuestion => en: "Run this plan?{tasks}", zh: "执行这个计划吗？{tasks}",
    ChannelHowToAnswer => en: "Reply y to approve / n to refuse.", zh: "回复 y 批准 / n 拒绝",
    ChannelQuestionTimedOut =>
        en: "No answer within {secs} s: the call was refused.",
        zh: "{secs} 秒内未收到答复：该操作已被拒绝。",
    ChannelQuestionGone => en: "That question is no longer open.", zh: "该问题已失效。",
    ChannelQuestionWaits =>
        en: "A question is waiting for your answer (y / n); this message runs after the current task.",
        zh: "有一个问题在等待你的答复（y / n）；这条消息将在当前任务之后执行。",
    ChannelQueuedWhilePaused =>
        en: "Paused: this message waits until /resume.",
        zh: "已暂停：这条消息将在 /resume 之后执行。",
    ChannelSessionFailed => en: "The session could not start: {error}", zh: "会话无法启动：{error}",
    ChannelCleared => en: "The conversation was cleared.", zh: "对话已清空。",
    ChannelCompacted => en: "The conversation was compacted.", zh: "对话已压缩。",
    ChannelCompactFailed => en: "Compaction failed: {error}", zh: "压缩失败：{error}",
    ChannelModeNow => en: "Approval mode: {mode}", zh: "审批模式：{mode}",
    ChannelModeSwitched => en: "Approval mode is now {mode}.", zh: "审批模式已切换为 {mode}。",
    ChannelModeRefused =>
        en: "A chat can choose ask or plan, not {mode}.",
        zh: "聊天中只能选择 ask 或 plan，不能选择 {mode}。",
    ChannelLimitTurns =>
        en: "Today's limit of {limit} tasks is reached; the task was not run.",
        zh: "已达到今日 {limit} 个任务的上限；该任务未执行。",
    ChannelLimitTokens =>
        en: "Today's limit of {limit} tokens is reached; the task was not run.",
        zh: "已达到今日 {limit} 个 token 的上限；该任务未执行。",
    ChannelUsageNotSaved => en: "today's usage could not be saved: {error}", zh: "无法保存今日用量：{error}",
    ChannelHookBlocked => en: "A hook blocked this message: {reason}", zh: "钩子拦截了这条消息：{reason}",
    ChannelEmptyAnswer => en: "Done (no answer text).", zh: "已完成（没有回答文本）。",
    ChannelPartial => en: "stopped early: {reason}", zh: "提前停止：{reason}",
    ChannelStopped => en: "Stopped.", zh: "已停止。",
    ChannelNothingToStop => en: "Nothing is running.", zh: "当前没有正在执行的任务。",
    ChannelTaskFailed => en: "The task failed: {error}", zh: "任务失败：{error}",
    ChannelPaused => en: "Paused: new tasks wait until /resume.", zh: "已暂停：新任务将等待 /resume。",
    ChannelResumed => en: "Resumed.", zh: "已恢复。",
    ChannelUnknownCommand =>
        en: "Unknown command /{name}; /help lists the commands.",
        zh: "未知命令 /{name}；/help 可列出所有命令。",
    ChannelUnsupported => en: "Only text messages are understood.", zh: "只支持文本消息。",
    ChannelStatePaused => en: "paused", zh: "已暂停",
    ChannelStateAsking => en: "waiting for your answer", zh: "等待你的答复",
    ChannelStateRunning => en: "working on a task", zh: "正在执行任务",
    ChannelStateIdle => en: "idle", zh: "空闲",
    ChannelUsedOf => en: "{used} of {limit}", zh: "{used}（上限 {limit}）",
    ChannelStatus =>
        en: "State: {state}\nQueued: {queued}\nMode: {mode}\nToday: {turns} tasks, {tokens} tokens",
        zh: "状态：{state}\n排队：{queued}\n模式：{mode}\n今日：{turns} 个任务，{tokens} 个 token",
    ChannelNobodyAllowed =>
        en: "nobody is on the allow list, so every message will be dropped; add your id to allow_from (see `paicli \
             channel <name> setup`)",
        zh: "允许列表为空，所有消息都会被丢弃；请把你的 id 加入 allow_from（见 `paicli channel <名称> setup`）",
    ChannelDropped =>
        en: "dropped a message from sender {sender}: not on the allow list",
        zh: "已丢弃来自发送者 {sender} 的消息：不在允许列表中",
    ChannelPollFailed => en: "receiving messages failed: {error}", zh: "接收消息失败：{error}",
    ChannelSendFailed => en: "sending a reply failed: {error}", zh: "发送回复失败：{error}",
    ChannelStarted =>
        en: "started (pid {pid}) in {folder}; {senders} allowed senders",
        zh: "已启动（pid {pid}），目录 {folder}；允许的发送者 {senders} 个",
    ChannelEnded => en: "stopped (pid {pid})", zh: "已停止（pid {pid}）",
    ChannelAlreadyRunning =>
        en: "the {channel} channel already runs (pid {pid}); `paicli channel {channel} stop` stops it",
        zh: "{channel} 通道已在运行（pid {pid}）；用 `paicli channel {channel} stop` 停止",
    ChannelNotRunning => en: "the {channel} channel is not running", zh: "{channel} 通道未在运行",
    ChannelCommandFailed => en: "{error}", zh: "通道命令失败：{error}",
    ChannelTelegramNoToken => en: "telegram is not set up: no bot token: set PAICLI_TELEGRAM_BOT_TOKEN or [channels.telegram] bot_token in $PAICLI_HOME/config.toml",
        zh: "telegram 尚未设置：没有机器人令牌；请设置 PAICLI_TELEGRAM_BOT_TOKEN，或在 $PAICLI_HOME/config.toml 的 [channels.telegram] 中设置 bot_token",
    ChannelNotSetUp => en: "{channel} is not set up: {detail}", zh: "{channel} 尚未设置（{detail}）；请先运行这个通道的 `paicli channel … setup`",
    ChannelAccountPaused => en: "{channel}: the account is paused ({detail}); log in again with `paicli channel {channel} setup`",
        zh: "{channel}：账号已暂停（{detail}）；请运行 `paicli channel {channel} setup` 重新登录",
    ChannelStatusRunning =>
        en: "{channel}: running (pid {pid}); log: {log}",
        zh: "{channel}：运行中（pid {pid}）；日志：{log}",
    ChannelStatusStopped => en: "{channel}: not running", zh: "{channel}：未运行",
    ChannelStoppedPid => en: "{channel}: stopped (pid {pid})", zh: "{channel}：已停止（pid {pid}）",
    ChannelBackground =>
        en: "{channel}: running in the background (pid {pid}); log: {log}",
        zh: "{channel}：已在后台运行（pid {pid}）；日志：{log}",
    ChannelTelegramBot => en: "Telegram bot @{name} (id {id}) answers.", zh: "Telegram 机器人 @{name}（id {id}）可用。",
    ChannelTelegramNoneAllowed =>
        en: "Nobody may use it yet: put your numeric user id in allow_from under [channels.telegram] in \
             $PAICLI_HOME/config.toml (or PAICLI_TELEGRAM_ALLOW_FROM).",
        zh: "目前还没有人可以使用：请把你的数字用户 id 写入 $PAICLI_HOME/config.toml 中 [channels.telegram] 的 \
             allow_from（或 PAICLI_TELEGRAM_ALLOW_FROM）。",
    ChannelTelegramAllowed => en: "Allowed senders: {ids}", zh: "允许的发送者：{ids}",
    ChannelTelegramNoSenders =>
        en: "No messages are waiting; send the bot a message and run setup again to see your id.",
        zh: "没有等待中的消息；给机器人发一条消息后再次运行 setup 即可看到你的 id。",
    ChannelTelegramSender => en: "  {id}  {name} wrote to the bot", zh: "  {id}  {name} 给机器人发过消息",
    ChannelReplNone => en: "No channel runs. `paicli channel telegram start` (or wechat) starts one.",
        zh: "没有运行中的通道。用 `paicli channel telegram start`（或 wechat）启动。",
}
