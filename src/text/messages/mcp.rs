//! MCP servers: `/mcp`, their notices, logging in, and the questions a server asks (elicitation).

messages! {
    McpNone =>
        en: "no MCP servers configured ($PAICLI_HOME/mcp.json or .paicli/mcp.json)",
        zh: "没有配置 MCP 服务器（$PAICLI_HOME/mcp.json 或 .paicli/mcp.json）",
    McpUsage =>
        en: "usage: /mcp [logs|approve|restart|disable|enable|resources|prompts <name>]",
        zh: "用法：/mcp [logs|approve|restart|disable|enable|resources|prompts <名称>]",
    McpOriginUser => en: "user", zh: "用户",
    McpOriginProject => en: "project", zh: "项目",
    McpStarting => en: "starting", zh: "启动中",
    McpReady => en: "ready", zh: "就绪",
    McpReadyCount =>
        en: "MCP {ready}/{total} ready (/mcp for details)",
        zh: "MCP 服务器 {ready}/{total} 个就绪（/mcp 查看详情）",
    McpFailed => en: "failed", zh: "失败",
    McpStateDisabled => en: "disabled", zh: "已禁用",
    McpStateOnDemand => en: "on demand", zh: "按需启动",
    McpNeedsApproval => en: "needs approval", zh: "待批准",
    McpStateNeedsLogin => en: "needs login", zh: "待登录",
    McpOneTool => en: "{count} tool", zh: "{count} 个工具",
    McpTools => en: "{count} tools", zh: "{count} 个工具",
    McpSeeLogs => en: "{reason} (/mcp logs {name})", zh: "{reason}（/mcp logs {name}）",
    McpApproveHint =>
        en: "runs `{command}`; /mcp approve {name}",
        zh: "将运行 `{command}`；/mcp approve {name}",
    McpApproved => en: "approved for this project; starting", zh: "已为本项目批准；正在启动",
    McpNoLogs => en: "no stderr output kept for", zh: "没有保留的 stderr 输出：",
    McpRestarting => en: "restarting", zh: "正在重启",
    McpDisabled => en: "stopped and disabled for this session", zh: "已停止，本次会话中禁用",
    McpEnabling => en: "enabled; starting", zh: "已启用；正在启动",
    McpNoResources => en: "the server lists no resources", zh: "该服务器没有列出资源",
    McpNoPrompts => en: "the server lists no prompts", zh: "该服务器没有列出提示模板",
    McpNoServer => en: "no MCP server named `{name}`", zh: "没有名为 `{name}` 的 MCP 服务器",
    McpServerError => en: "{error}", zh: "MCP 服务器出错：{error}",
    NoticeMcpServerFailed =>
        en: "MCP server `{server}` failed: {error}",
        zh: "MCP 服务器 `{server}` 失败：{error}",
    NoticeMcpConfigSkipped => en: "MCP config skipped: {error}", zh: "已跳过 MCP 配置：{error}",
    NoticeMcpNotStarted =>
        en: "MCP server `{server}` not started: {reason}",
        zh: "MCP 服务器 `{server}` 未启动：{reason}",
    NoticeMcpNeedsApproval =>
        en: "MCP server `{server}` from {source} is not approved for this project and was not started. Review its \
             command `{command}`, then run paicli once with --trust-project-mcp to approve it.",
        zh: "来自 {source} 的 MCP 服务器 `{server}` 尚未获准用于此项目，未启动。请检查其命令 `{command}`，然后用 \
             --trust-project-mcp 运行一次 paicli 以批准它。",
    NoticeMcpApprovalNotSaved =>
        en: "could not remember the approval of `{server}`: {error}",
        zh: "无法记住对 `{server}` 的批准：{error}",
    NoticeMcpStarting =>
        en: "MCP server `{server}` is still starting; its tools join when it is ready",
        zh: "MCP 服务器 `{server}` 仍在启动；就绪后会加入它的工具",
    NoticeMcpNeedsLogin =>
        en: "MCP server `{server}` needs you to log in and was not started: run `paicli mcp login {server}`",
        zh: "MCP 服务器 `{server}` 需要登录，未启动：请运行 `paicli mcp login {server}`",
    McpLoginHint => en: "log in: /mcp login {name}", zh: "登录：/mcp login {name}",
    McpLoginOpen =>
        en: "To log in to `{server}`, open this address in a browser:",
        zh: "要登录 `{server}`，请在浏览器中打开此地址：",
    McpLoginWaiting => en: "Waiting for the browser (Ctrl-C stops)…", zh: "正在等待浏览器（Ctrl-C 停止）……",
    McpLoginDone =>
        en: "Logged in to `{server}`; tokens saved in {path}",
        zh: "已登录 `{server}`；令牌已保存到 {path}",
    McpLoginFailed => en: "login to `{server}` failed: {error}", zh: "登录 `{server}` 失败：{error}",
    McpLogoutDone =>
        en: "Logged out of `{server}`: its tokens are removed",
        zh: "已退出 `{server}`：其令牌已删除",
    McpLogoutNone => en: "No tokens were stored for `{server}`", zh: "`{server}` 没有保存的令牌",
    McpNotRemote =>
        en: "`{server}` is not a remote MCP server (it has no url)",
        zh: "`{server}` 不是远程 MCP 服务器（没有 url）",
    McpNoSuchServer => en: "no MCP server named `{server}`", zh: "没有名为 `{server}` 的 MCP 服务器",
    ElicitAsks => en: "MCP server `{server}` asks: {message}", zh: "MCP 服务器 `{server}` 请求：{message}",
    ElicitKeys =>
        en: "Enter keeps the shown value · ESC declines · Ctrl-C cancels",
        zh: "回车保留显示的值 · ESC 拒绝 · Ctrl-C 取消",
    ElicitRequired => en: "required", zh: "必填",
    ElicitWantChoice => en: "one of: {choices}", zh: "可选值：{choices}",
    ElicitWantYesNo => en: "answer yes or no", zh: "请回答 yes 或 no",
    ElicitWantInteger => en: "a whole number", zh: "应为整数",
    ElicitWantNumber => en: "a number", zh: "应为数字",
    ElicitWantValue => en: "a value is required", zh: "必须填写",
    ElicitSent => en: "sent to `{server}`", zh: "已发送给 `{server}`",
    ElicitDeclined => en: "declined", zh: "已拒绝",
    ElicitCancelled => en: "cancelled", zh: "已取消",
}
