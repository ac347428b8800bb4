//! Snapshots of the project's files, `/restore` and rewinding.

messages! {
    SnapshotsOff =>
        en: "snapshots are off (snapshots.enabled = false, or the git program is not installed)",
        zh: "快照已关闭（snapshots.enabled = false，或未安装 git）",
    NoticeSnapshotsOff => en: "snapshots are off: {error}", zh: "快照已关闭：{error}",
    SnapshotsEmpty => en: "no snapshots of this project yet", zh: "本项目还没有快照",
    SnapshotsHeading =>
        en: "Snapshots (newest first; /restore N puts the files back)",
        zh: "快照（最新在前；/restore N 恢复文件）",
    SnapshotsStore => en: "store size on disk", zh: "快照库占用磁盘",
    SnapshotCleanConfirm =>
        en: "Remove every snapshot of this project? [y/N] ",
        zh: "删除本项目的所有快照？[y/N] ",
    SnapshotsCleaned => en: "snapshots removed", zh: "快照已删除",
    SnapshotFiles => en: "file(s) changed", zh: "个文件有改动",
    RestoreUsage => en: "usage: /restore N (N from /snapshot)", zh: "用法：/restore N（N 见 /snapshot）",
    Restored =>
        en: "restored; /restore {n} (or revert_turn with offset 1) undoes it",
        zh: "已恢复；/restore {n}（或 offset 为 1 的 revert_turn）可撤销",
    RestoredNoUndo =>
        en: "restored (no snapshot of the files before it could be listed to undo it)",
        zh: "已恢复（未能列出恢复前的快照，无法提示撤销方式）",
    RestoreNothing => en: "the files already match that snapshot", zh: "文件已与该快照一致",
    RewindNoTurns => en: "there is no earlier message to rewind to", zh: "没有可回退到的早先消息",
    RewindPick =>
        en: "Rewind to before which message? Number + Enter (Enter or ESC cancels): ",
        zh: "回退到哪条消息之前？输入编号并回车（回车或 ESC 取消）：",
    RewindHow =>
        en: "Rewind [c] code  [v] conversation  [b] both (Enter or ESC cancels): ",
        zh: "回退 [c] 代码  [v] 对话  [b] 两者（回车或 ESC 取消）：",
    RewindNoCode =>
        en: "no files changed since that message; the code is as it was",
        zh: "该消息之后没有文件改动；代码保持不变",
    RewindConversation =>
        en: "conversation rewound: the next request starts before that message",
        zh: "对话已回退：下一次请求从该消息之前开始",
    RewindInvalid =>
        en: "not a number from the list; nothing was changed",
        zh: "不是列表中的编号；未做任何改动",
    EscAgainToRewind => en: "  ESC again to rewind", zh: "  再按一次 ESC 回退",
}
