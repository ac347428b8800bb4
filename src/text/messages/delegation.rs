//! Delegation: sub-agents the model starts with the `agent` tool, `/agents`.

messages! {
    NoticeAgentModelInherited =>
        en: "agent {agent} asks for `{alias}`, a Claude model, and no Anthropic provider is configured: it runs on {model}",
        zh: "智能体 {agent} 要求使用 Claude 模型 `{alias}`，但未配置 Anthropic 提供商：改用 {model} 运行",
    NoticeRoleModelRefused =>
        en: "the plan's {role} runs on the session's model: {reason}",
        zh: "计划的 {role} 改用会话的模型运行：{reason}",
    AgentsHeader => en: "agents the model can call (agent tool):", zh: "模型可调用的智能体（agent 工具）：",
    AgentsSkipped => en: "skipped {path}: {problem}", zh: "已跳过 {path}：{problem}",
    ReviewNoFindings => en: "the reviewer found nothing to report", zh: "审查者没有发现需要报告的问题",
    AgentsOff => en: "the agent tool is off ([agents] enabled = false)", zh: "agent 工具已关闭（[agents] enabled = false）",
}
