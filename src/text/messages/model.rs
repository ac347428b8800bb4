//! The model, its context window and compaction, and what a session costs (`/model`, `/context`, `/cost`).

messages! {
    ModelSwitched => en: "model for this session", zh: "本会话的模型",
    ModelSaved => en: "saved as the default in", zh: "已保存为默认值：",
    ConfigThisSession => en: "/model (this session)", zh: "/model（本会话）",
    ModelUsage =>
        en: "usage: /model [list | <model> | <provider> <model>] [--save]",
        zh: "用法：/model [list | <模型> | <提供商> <模型>] [--save]",
    ModelShow =>
        en: "{provider}/{model} · window {window} · {url}",
        zh: "{provider}/{model} · 上下文窗口 {window} · {url}",
    ModelNoneListed => en: "(the provider listed no models)", zh: "（提供商没有列出任何模型）",
    ModelListFailed => en: "cannot list models: {error}", zh: "无法列出模型：{error}",
    ModelUnknownProvider =>
        en: "unknown provider {name}; known: {known}",
        zh: "未知提供商 {name}；已知：{known}",
    ModelSwitchFailed => en: "cannot switch to {model}: {error}", zh: "无法切换到 {model}：{error}",
    ModelSwitchNeedsKey =>
        en: "cannot switch to provider {provider}: set {vars} in the environment or a .env file",
        zh: "无法切换到提供商 {provider}：请在环境变量或 .env 文件中设置 {vars}",
    ModelSaveFailed => en: "cannot save {path}: {error}", zh: "无法保存 {path}：{error}",
    ContextHeading => en: "Context (estimated tokens)", zh: "上下文（估算 token）",
    ContextSystem => en: "system", zh: "系统",
    ContextTools => en: "tools", zh: "工具",
    ContextHistory => en: "history", zh: "历史",
    ContextTotal => en: "total", zh: "合计",
    ContextToolCount => en: "({count} tools)", zh: "（{count} 个工具）",
    ContextMessageCount => en: "({count} messages)", zh: "（{count} 条消息）",
    WindowFromConfig =>
        en: "{window} (set by [llm] context_window)",
        zh: "{window}（由 [llm] context_window 设置）",
    WindowFromServer => en: "{window} (reported by the server: {what})", zh: "{window}（服务器报告：{what}）",
    WindowFromTable => en: "{window} (provider table default)", zh: "{window}（提供商表默认值）",
    ContextThresholds =>
        en: "  compaction: old tool results cleared at {clearing} tokens, summary at {summary}",
        zh: "  压缩：{clearing} token 时清理旧工具结果，{summary} token 时生成摘要",
    NothingCompacted => en: "nothing compacted", zh: "未压缩",
    NoticeContextOverflow =>
        en: "the request exceeded the model's context window: compacting and retrying once",
        zh: "请求超出了模型的上下文窗口：正在压缩并重试一次",
    NoticeContextTrimmed =>
        en: "the conversation still did not fit the context window: dropped {dropped} older messages and shortened \
             {shortened} tool results ({before} → {after} tokens)",
        zh: "对话仍超出上下文窗口：已丢弃 {dropped} 条较早的消息，缩短了 {shortened} 个工具结果（{before} → {after} \
             个词元）",
    NoticeCompactionSkipped => en: "context compaction skipped: {error}", zh: "已跳过上下文压缩：{error}",
    CostUnknown => en: "cost: no prices known for this provider", zh: "费用：该提供商没有已知价格",
    CostSession =>
        en: "session: {turns}, {requests} · in {input} · out {output} · cached {cached} · reasoning {reasoning}",
        zh: "本会话：{turns}，{requests} · 输入 {input} · 输出 {output} · 缓存 {cached} · 推理 {reasoning}",
    CostTurnOne => en: "{count} turn", zh: "{count} 轮",
    CostTurns => en: "{count} turns", zh: "{count} 轮",
    CostRequestOne => en: "{count} request", zh: "{count} 次请求",
    CostRequests => en: "{count} requests", zh: "{count} 次请求",
    CostEstimate => en: "estimated cost: {cost}", zh: "估算费用：{cost}",
    PricesAsOf => en: "list prices as of {date}", zh: "按 {date} 的公开价格估算",
    CostUnknownModel =>
        en: "cost: no prices known for {model} (price list of {date})",
        zh: "费用：没有 {model} 的已知价格（价格表日期 {date}）",
    CostByModel =>
        en: "{model}: in {input} · out {output} · cached {cached}{cost}",
        zh: "{model}：输入 {input} · 输出 {output} · 缓存 {cached}{cost}",
    CostUnpriced => en: "no price known", zh: "价格未知",
    CostReported => en: "as reported by the provider", zh: "由服务商报告",
}
