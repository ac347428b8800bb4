//! Sessions: the ledger, resuming and forking, the picker, `/export`, `/clear` and `/history`.

messages! {
    HistoryCleared => en: "conversation cleared", zh: "对话已清空",
    ExportedTo => en: "conversation exported to", zh: "对话已导出到",
    ExportFailed => en: "cannot export to {dir}: {error}", zh: "无法导出到 {dir}：{error}",
    NoticeLedgerNotWritten =>
        en: "the session ledger could not be written; resuming may miss this turn: {error}",
        zh: "会话记录写入失败；恢复会话时可能缺少本轮：{error}",
    SessionForkAlone =>
        en: "--fork continues an earlier session under a new id: use it with --continue or --resume",
        zh: "--fork 以新的 id 继续一个旧会话：请与 --continue 或 --resume 一起使用",
    SessionPickerNeedsTerminal =>
        en: "--resume without an id picks from a list, which needs the interactive mode; pass an id: paicli --resume \
             <id> -p \"…\"",
        zh: "不带 id 的 --resume 需要在交互模式中选择；请指定 id：paicli --resume <id> -p \"…\"",
    SessionPickerHeading => en: "Sessions of this project, newest first:", zh: "本项目的会话（最新的在前）：",
    SessionPickerPrompt =>
        en: "Resume which? Type its number and Enter (Enter alone, ESC or Ctrl-C: new session): ",
        zh: "恢复哪一个？输入编号并回车（直接回车、ESC 或 Ctrl-C：新会话）：",
    SessionNoneToPick =>
        en: "no earlier sessions of this project; starting a new one",
        zh: "本项目没有旧会话；开始新会话",
    SessionNotAChoice =>
        en: "not a number from the list; starting a new session",
        zh: "不是列表中的编号；开始新会话",
    SessionForkOf => en: "fork of {from}", zh: "分叉自 {from}",
    SessionPickerPromptSwitch =>
        en: "Resume which? Type its number and Enter (Enter alone, ESC or Ctrl-C: keep this conversation): ",
        zh: "恢复哪一个？输入编号并回车（直接回车、ESC 或 Ctrl-C：保留当前对话）：",
    SessionNoneToSwitch =>
        en: "no other sessions of this project; this conversation goes on",
        zh: "本项目没有其他会话；继续当前对话",
    SessionNotAChoiceSwitch =>
        en: "not a number from the list; this conversation goes on",
        zh: "不是列表中的编号；继续当前对话",
    SessionTurnOne => en: "{count} turn ", zh: "{count} 轮",
    SessionTurns => en: "{count} turns", zh: "{count} 轮",
    SessionTornLastLine =>
        en: "the session's last line was cut off (paicli stopped while writing it) and was skipped",
        zh: "会话记录的最后一行不完整（paicli 写入时被中断），已跳过",
    SessionSkippedLines =>
        en: "skipped {count} damaged line(s) of the session's ledger (the first is line {first})",
        zh: "跳过了会话记录中 {count} 行损坏的内容（第一处在第 {first} 行）",
    SessionAbortedCalls =>
        en: "{count} tool call(s) had no result (paicli stopped while they ran); they are marked aborted",
        zh: "{count} 个工具调用没有结果（运行时 paicli 被中断），已标记为中止",
    SessionInstructionsChanged =>
        en: "the project instructions changed since this session started; the new ones apply from now on",
        zh: "项目指令在本会话开始后有改动；从现在起使用新的指令",
    SessionNotRecorded =>
        en: "this session is not recorded and cannot be resumed later: {error}",
        zh: "本会话未被记录，之后无法恢复：{error}",
    SessionResumed =>
        en: "resumed session {id}: {turns} turn(s) so far",
        zh: "已恢复会话 {id}：已有 {turns} 轮",
    SessionResumedAsFork =>
        en: "forked session {from} as {id}: {turns} turn(s) so far; the original is unchanged",
        zh: "已将会话 {from} 分叉为 {id}：已有 {turns} 轮；原会话保持不变",
    SessionNothingToContinue =>
        en: "there is no earlier session of {root} to continue; run paicli to start one",
        zh: "{root} 没有可继续的旧会话；运行 paicli 开始一个",
    SessionCannotResume => en: "cannot resume the session: {error}", zh: "无法恢复会话：{error}",
    SessionUnknownIdNoSessions =>
        en: "no session id starts with `{prefix}`, and this project has no sessions yet",
        zh: "没有以 `{prefix}` 开头的会话 id，本项目也还没有会话",
    SessionUnknownId =>
        en: "no session id starts with `{prefix}`; recent sessions of this project: {ids}",
        zh: "没有以 `{prefix}` 开头的会话 id；本项目最近的会话：{ids}",
    SessionAmbiguousId =>
        en: "`{prefix}` matches several sessions: {ids}; type more of the id",
        zh: "`{prefix}` 匹配多个会话：{ids}；请输入更长的 id",
    SessionIdSeparator => en: ", ", zh: "、",
    SessionNoProjectSessions => en: "this project has no recorded sessions", zh: "本项目没有已记录的会话",
    SessionForked =>
        en: "forked: this is now session {id}; session {from} stays as it was",
        zh: "已分叉：当前会话为 {id}；会话 {from} 保持不变",
    SessionHistoryClearQuestion =>
        en: "Delete the {count} other recorded session(s) of this project? They cannot be resumed afterwards. [y/N] ",
        zh: "删除本项目其他 {count} 个已记录的会话？删除后无法恢复。[y/N] ",
    SessionHistoryCleared =>
        en: "deleted {count} session ledger(s); the running session is kept",
        zh: "已删除 {count} 个会话记录；当前会话保留",
    SessionNothingDeleted => en: "nothing deleted", zh: "未删除任何内容",
    SessionHistoryUsage =>
        en: "usage: /history clear   (deletes this project's other recorded sessions, after asking)",
        zh: "用法：/history clear   （询问后删除本项目其他已记录的会话）",
}
