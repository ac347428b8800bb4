//! The approval modes: their names in an editor, what each does, switching between them.

messages! {
    ApprovalModeIs => en: "approval mode: ", zh: "审批模式：",
    ModeAsk =>
        en: "every edit, command and MCP call asks you first",
        zh: "每次编辑、命令和 MCP 调用都先询问你",
    ModeAuto =>
        en: "edits run; a classifier judges each command and asks you when unsure; MCP calls and reverts are refused",
        zh: "编辑直接执行；命令由分类器判断，拿不准时询问你；MCP 调用和回退被拒绝",
    ModePlan => en: "read-only tools until you approve a plan", zh: "批准计划前只能使用只读工具",
    ModeFull =>
        en: "everything runs without asking; the guards still apply",
        zh: "全部直接执行，不再询问；防护仍然生效",
    ModeLabelAsk => en: "Ask", zh: "询问",
    ModeLabelAuto => en: "Auto", zh: "自动",
    ModeLabelPlan => en: "Plan", zh: "计划",
    ModeLabelFull => en: "Full", zh: "完全",
    ShiftTabCycles =>
        en: "Shift+Tab at the prompt cycles auto → plan → ask → auto; /mode full for full",
        zh: "在提示符处按 Shift+Tab 循环切换 auto → plan → ask → auto；用 /mode full 进入 full",
    ModeFullWarning =>
        en: "full mode: every call runs without asking (the guards still apply); /mode auto to go back",
        zh: "full 模式：所有调用都不再询问直接执行（防护仍然生效）；/mode auto 可切回",
}
