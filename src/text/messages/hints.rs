//! The next step suggested after an error.

messages! {
    NextStep => en: "next step", zh: "下一步",
    HintPrefix => en: "hint", zh: "提示",
    HintAuth =>
        en: "check the API key variable for your provider (e.g. DEEPSEEK_API_KEY)",
        zh: "检查所用提供商的 API 密钥变量（例如 DEEPSEEK_API_KEY）",
    HintAuthKey =>
        en: "check {key}: the provider refused the key paicli sent from it",
        zh: "检查 {key}：提供商拒绝了 paicli 从这里取用的密钥",
    HintConnect =>
        en: "check the network and the base URL (--base-url / PAICLI_BASE_URL)",
        zh: "检查网络和接口地址（--base-url / PAICLI_BASE_URL）",
    HintRateLimited =>
        en: "the provider is rate limiting; wait a moment and try again",
        zh: "提供商正在限流；稍等片刻再试",
    HintContextRepl =>
        en: "the conversation is too long for the model's window; /compact or /clear",
        zh: "对话超出了模型的上下文窗口；用 /compact 或 /clear",
    HintContextOneShot => en: "the task is too long for the model's window", zh: "任务超出了模型的上下文窗口",
    HintModelRepl =>
        en: "check the model name (/model list) and the base URL",
        zh: "检查模型名称（/model list）和接口地址",
    HintModelOneShot =>
        en: "check the model name (--model) and the base URL",
        zh: "检查模型名称（--model）和接口地址",
    HintRetry => en: "retry the task, or /model to switch the model", zh: "重试该任务，或用 /model 切换模型",
    HintOutputLimit =>
        en: "raise the output limit (--max-output-tokens, [llm] max_output_tokens) or ask for a shorter answer",
        zh: "调高输出上限（--max-output-tokens、[llm] max_output_tokens），或要求更短的回答",
}
