//! Plan and team mode: the plan review, the task list, results, and the planner's notices.

messages! {
    PlanTaskCountOne => en: "{count} task", zh: "{count} 个任务",
    PlanTaskCount => en: "{count} tasks", zh: "{count} 个任务",
    PlanNextInput =>
        en: "your next message is planned first (review, then run)",
        zh: "下一条消息将先制定计划（审阅后执行）",
    TeamNextInput =>
        en: "your next message goes to the team: planner, two workers and a reviewer",
        zh: "下一条消息将交给团队：规划者、两名执行者和一名审查者",
    PlanPendingUndo => en: "{cmd} off drops it", zh: "输入 {cmd} off 可取消",
    PlanPendingDropped =>
        en: "dropped: your next message is sent as usual, not planned",
        zh: "已取消：下一条消息照常发送，不再先制定计划",
    PlanNonePending => en: "no plan is waiting for your next message", zh: "没有等待下一条消息的计划",
    PromptPlanPending => en: "plan", zh: "计划",
    PromptTeamPending => en: "team", zh: "团队",
    NoticePlanRepairing =>
        en: "the plan is invalid ({error}); asking the planner to fix it",
        zh: "计划无效（{error}）；请规划器修正",
    NoticePlanReplanning =>
        en: "{failed} of {total} tasks failed and less than half is done: making a new plan",
        zh: "{total} 个任务中 {failed} 个失败，完成不到一半：重新规划",
    NoticePlanReplanFailed => en: "the new plan could not be made: {error}", zh: "无法重新规划：{error}",
    NoticePlanStepRejected =>
        en: "the reviewer rejected the step (retry {retry} of {max}): {reasons}",
        zh: "审查者驳回了这一步（第 {retry}/{max} 次重试）：{reasons}",
    NoticePlanStepRejectedFinal =>
        en: "the reviewer rejected the step again after {retries} retries; the step failed: {reasons}",
        zh: "重试 {retries} 次后审查者仍驳回了这一步；这一步失败：{reasons}",
    NoticePlanStepApproved => en: "the reviewer approved the step", zh: "审查者通过了这一步",
    PlanHeading => en: "plan (revision {revision}, {count}):", zh: "计划（第 {revision} 版，{count}）：",
    PlanTaskAfter => en: "after {deps}", zh: "依赖 {deps}",
    PlanTaskRunning => en: "▶ {id}: {title}", zh: "▶ {id}：{title}",
    PlanTaskDone => en: "✓ {id} done", zh: "✓ {id} 完成",
    PlanTaskFailed => en: "✗ {id} failed: {summary}", zh: "✗ {id} 失败：{summary}",
    PlanTaskSkipped => en: "- {id} skipped: {summary}", zh: "- {id} 已跳过：{summary}",
    PlanResults =>
        en: "plan: {done} done, {failed} failed, {skipped} skipped",
        zh: "计划：{done} 个完成，{failed} 个失败，{skipped} 个跳过",
    PlanNotMade => en: "no plan: {error}", zh: "未能生成计划：{error}",
    PlanCancelled => en: "plan cancelled", zh: "计划已取消",
    PlanReviewHeading => en: "Plan ({n}): {goal}", zh: "计划（{n}）：{goal}",
    PlanReviewHeadingRevised =>
        en: "Plan, revision {revision} ({n}): {goal}",
        zh: "计划（第 {revision} 版，{n}）：{goal}",
    PlanAfter => en: "after {ids}", zh: "在 {ids} 之后",
    PlanKeyRun => en: "Enter run", zh: "回车 执行",
    PlanKeyDetails => en: "Ctrl+O details", zh: "Ctrl+O 展开/收起详情",
    PlanKeyInstruct => en: "i add instructions and re-plan", zh: "i 补充要求并重新规划",
    PlanKeyCancel => en: "ESC cancel", zh: "ESC 取消",
    PlanInstructPrompt =>
        en: "Add to the plan (Enter re-plans, ESC goes back): ",
        zh: "补充要求（回车重新规划，ESC 返回）：",
    PlanRunning => en: "running the plan", zh: "开始执行计划",
    PlanReviewCancelled => en: "plan cancelled; nothing was run", zh: "计划已取消，未执行任何任务",
    PlanReplanning => en: "re-planning with your instructions…", zh: "正在按你的补充要求重新规划……",
    PlanModeRestored =>
        en: "plan approved: it runs in {mode} mode, and plan mode ends",
        zh: "计划已批准：以 {mode} 模式执行，plan 模式结束",
    PlanStatePending => en: "pending", zh: "等待",
    PlanStateRunning => en: "running", zh: "运行中",
    PlanStateDone => en: "done", zh: "完成",
    PlanStateFailed => en: "failed", zh: "失败",
    PlanStateSkipped => en: "skipped", zh: "跳过",
    PlanFinishedHeading =>
        en: "Plan finished: {done} of {total} tasks done",
        zh: "计划结束：{total} 个任务中完成 {done} 个",
    PlanFailedToStart => en: "no plan could be made: {error}", zh: "无法制定计划：{error}",
    PlanStopped =>
        en: "plan stopped: the running tasks were cancelled",
        zh: "计划已停止：正在运行的任务已取消",
    AcpPlanCall => en: "Plan: {count}", zh: "计划：{count}",
    AcpRunPlan => en: "Run the plan", zh: "执行计划",
    AcpDontRunPlan => en: "Don't run it", zh: "不执行",
}
