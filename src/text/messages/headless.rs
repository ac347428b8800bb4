//! The headless protocol (`--input-format stream-json`, `-p --output-format json|stream-json`): its start-up
//! refusals and notes on stderr.

messages! {
    HeadlessUnknownFlags =>
        en: "accepted and ignored (this paicli does not know them): {flags}",
        zh: "已接受但忽略（此版本 paicli 不认识）：{flags}",
    HeadlessNoPrices =>
        en: "--max-budget-usd needs the model's list prices in US dollars, and paicli has none for {model} at \
             {provider}; drop the flag or use --max-turns",
        zh: "--max-budget-usd 需要该模型以美元计的价目，而 paicli 没有 {provider} 上 {model} 的价目；请去掉该参数或改\
             用 --max-turns",
    HeadlessBadSchema => en: "{error}", zh: "JSON Schema 无效：{error}",
    HeadlessPromptToolNeedsInput =>
        en: "--permission-prompt-tool stdio needs --input-format stream-json: the answers come on stdin",
        zh: "--permission-prompt-tool stdio 需要 --input-format stream-json：回答从标准输入传来",
    HeadlessUnknownPromptTool =>
        en: "--permission-prompt-tool {tool} is not supported: only stdio (questions as can_use_tool requests)",
        zh: "不支持 --permission-prompt-tool {tool}：只支持 stdio（以 can_use_tool 请求提问）",
    HeadlessLineNotJson =>
        en: "ignoring an input line that is not JSON ({error})",
        zh: "忽略一行不是 JSON 的输入（{error}）",
    HeadlessEmptyUserMessage =>
        en: "ignoring a user message with no text or image",
        zh: "忽略一条既无文字也无图片的 user 消息",
    HeadlessHooksNotCalled =>
        en: "initialize: hooks for {events} are accepted and not called (paicli has no such event)",
        zh: "initialize：{events} 的钩子已接受但不会调用（paicli 没有这种事件）",
    HeadlessBadMatcher =>
        en: "initialize: the PreToolUse matcher {matcher} is not a valid pattern; its hooks are not called",
        zh: "initialize：PreToolUse 的匹配器 {matcher} 不是有效的模式，其钩子不会调用",
    HeadlessHookFailed =>
        en: "the SDK hook {id} failed, the call goes on: {error}",
        zh: "SDK 钩子 {id} 失败，调用照常进行：{error}",
    HeadlessSchemaRefused =>
        en: "initialize: {error}; the turns keep the command line's schema, if any",
        zh: "initialize：{error}；各轮沿用命令行给出的 schema（如有）",
    HeadlessBadMcpConfig =>
        en: "--mcp-config {error}",
        zh: "--mcp-config 无效：{error}",
    HeadlessBadAgents =>
        en: "agents: {error}",
        zh: "agents 无效：{error}",
    HeadlessInitMcpRefused =>
        en: "initialize: mcpServers is not an object of servers; no servers were added",
        zh: "initialize：mcpServers 不是服务器对象，未添加任何服务器",
    HeadlessBadSettings =>
        en: "--settings {error}",
        zh: "--settings 无效：{error}",
    HeadlessBadSettingSources =>
        en: "--setting-sources: unknown source `{source}` (user, project, local)",
        zh: "--setting-sources：未知来源 `{source}`（可选 user、project、local）",
    HeadlessSettingsIgnored =>
        en: "--settings: accepted and ignored (paicli does not use them): {keys}",
        zh: "--settings：已接受但忽略（paicli 不使用）：{keys}",
    HeadlessBadAddDir =>
        en: "--add-dir {dir}: {error}",
        zh: "--add-dir {dir}：{error}",
    HeadlessBadPromptFile =>
        en: "prompt file {file} cannot be read: {error}",
        zh: "无法读取提示词文件 {file}：{error}",
    HeadlessBadSessionId =>
        en: "--session-id {id} is not a UUID (like 123e4567-e89b-12d3-a456-426614174000)",
        zh: "--session-id {id} 不是 UUID（形如 123e4567-e89b-12d3-a456-426614174000）",
    HeadlessSessionIdTaken =>
        en: "--session-id {id}: a session with this id exists already; use --resume {id}",
        zh: "--session-id {id}：已有该 id 的会话；请用 --resume {id}",
    HeadlessSessionIdWithResume =>
        en: "--session-id names a new session: with --resume or --continue it needs --fork-session",
        zh: "--session-id 用于命名新会话：与 --resume 或 --continue 同用时需要 --fork-session",
    HeadlessFallbackModel =>
        en: "{model} failed ({error}); retrying this turn once on the fallback model {fallback}",
        zh: "{model} 失败（{error}）；本轮改用备用模型 {fallback} 重试一次",
}
