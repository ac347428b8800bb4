//! Long-term memory: `/memory` and `/save`.

messages! {
    MemoryOff => en: "long-term memory is not available in this session", zh: "本会话没有长期记忆",
    NoticeMemoryUnavailable => en: "long-term memory unavailable: {error}", zh: "长期记忆不可用：{error}",
    MemoryUsage =>
        en: "usage: /memory [list | search <q> | delete <id> | verify <id> | replace <id> <fact> | clear --yes]",
        zh: "用法：/memory [list | search <查询> | delete <id> | verify <id> | replace <id> <事实> | clear --yes]",
    MemoryEmpty => en: "no memories saved yet (/save <fact>)", zh: "还没有保存的记忆（/save <事实>）",
    MemorySaved => en: "saved", zh: "已保存",
    MemoryDuplicate => en: "already saved; marked as verified", zh: "已存在；已标记为已验证",
    MemoryConflict => en: "not saved: it may contradict", zh: "未保存：可能与以下记忆矛盾",
    MemoryConflictHint =>
        en: "use /save --force <fact> to keep both, or /memory replace <id> <fact> to replace one",
        zh: "用 /save --force <事实> 同时保留，或用 /memory replace <id> <事实> 替换其中一条",
    MemoryDeleted => en: "deleted", zh: "已删除",
    MemoryVerified => en: "verified", zh: "已验证",
    MemoryReplaced => en: "replaced", zh: "已替换",
    MemoryCleared => en: "memories deleted", zh: "条记忆已删除",
    MemoryClearConfirm =>
        en: "this deletes every saved memory (this project's and the global ones); run /memory clear --yes",
        zh: "这会删除所有记忆（本项目和全局）；确认请运行 /memory clear --yes",
    MemoryStale => en: "(stale: /memory verify to keep it)", zh: "（已过期：用 /memory verify 保留）",
    MemorySourcePerson => en: "saved by you", zh: "你亲自保存",
    MemorySourceConversation =>
        en: "saved by the model from the conversation (the session had read nothing it did not write)",
        zh: "模型根据对话保存（此前本会话没有读取非它写入的内容）",
    MemorySourceAfter => en: "saved after reading: {read}", zh: "保存前读取了：{read}",
    MemorySourceMore => en: " (+{n} more)", zh: "（另有 {n} 项）",
    MemoryFailed => en: "the memory store failed: {error}", zh: "记忆存储出错：{error}",
    SaveUsage =>
        en: "usage: /save [--global|--project] [--force] <fact>",
        zh: "用法：/save [--global|--project] [--force] <事实>",
    SaveUnknownOption => en: "unknown option --{option} ({usage})", zh: "未知选项 --{option}（{usage}）",
}
