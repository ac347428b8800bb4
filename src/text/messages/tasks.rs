//! Background tasks (`/task`) and the queue shared by several paicli processes.

messages! {
    TaskUsage =>
        en: "usage: /task [list|add <text>|log <id>|cancel <id>]",
        zh: "用法：/task [list|add <文本>|log <编号>|cancel <编号>]",
    TaskQueued =>
        en: "queued task {id}; /task log {id} shows its progress",
        zh: "已加入后台任务 {id}；/task log {id} 查看进度",
    TaskNone =>
        en: "no background tasks in this project; /task add <text> queues one",
        zh: "本项目没有后台任务；/task add <文本> 可加入一个",
    TaskSession => en: "(session {id})", zh: "（会话 {id}）",
    TaskNoLog => en: "task {id} has not started yet", zh: "任务 {id} 尚未开始",
    TaskCancelling => en: "cancelling task {id}", zh: "正在取消任务 {id}",
    TaskUnknown => en: "no task {id} in this project", zh: "本项目没有任务 {id}",
    TaskAlreadyDone => en: "task {id} has already ended", zh: "任务 {id} 已经结束",
    TaskNotSaved => en: "could not save the task queue: {error}", zh: "无法保存任务队列：{error}",
    TaskStateQueued => en: "queued", zh: "排队中",
    TaskStateRunning => en: "running", zh: "运行中",
    TaskStateFinished => en: "finished", zh: "已完成",
    TaskStatePartial => en: "partial", zh: "部分完成",
    TaskStateFailed => en: "failed", zh: "失败",
    TaskStateCancelled => en: "cancelled", zh: "已取消",
    TaskRunsElsewhere =>
        en: "another paicli in this project runs the queue; it starts there (this one takes over when that one ends)",
        zh: "本项目中另一个 paicli 正在运行任务队列，任务将在那里开始（那个进程结束后由本进程接管）",
}
