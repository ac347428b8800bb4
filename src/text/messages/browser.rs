//! The browser the web tools drive (`/browser`).

messages! {
    BrowserUsage =>
        en: "usage: /browser [status|connect [port]|tabs|disconnect]",
        zh: "用法：/browser [status|connect [端口]|tabs|disconnect]",
    BrowserOff =>
        en: "The browser is off: the `chrome-devtools` entry of your mcp.json is disabled.",
        zh: "浏览器已关闭：mcp.json 中的 `chrome-devtools` 条目被禁用。",
    BrowserModeIsolated =>
        en: "mode: isolated browser (a fresh profile, thrown away afterwards)",
        zh: "模式：隔离浏览器（全新配置，用后即弃）",
    BrowserModeConnected =>
        en: "mode: connected to your Chrome ({url})",
        zh: "模式：已连接到你的 Chrome（{url}）",
    BrowserModeUser =>
        en: "mode: as the `chrome-devtools` entry of your mcp.json says",
        zh: "模式：按 mcp.json 中 `chrome-devtools` 条目的配置",
    BrowserRunning => en: "server: running", zh: "服务：运行中",
    BrowserNotStarted =>
        en: "server: not started (it starts on the first browser call)",
        zh: "服务：未启动（首次使用浏览器工具时启动）",
    BrowserNoTabs => en: "  no open tabs", zh: "  没有打开的标签页",
    BrowserUntitled => en: "(untitled)", zh: "（无标题）",
    BrowserLastError => en: "last error: {error}", zh: "最近的错误：{error}",
    BrowserConnecting => en: "Connecting to {url} … (ESC cancels)", zh: "正在连接 {url} …（ESC 取消）",
    BrowserConnected => en: "Connected to {url}: {count} tab(s)", zh: "已连接到 {url}：{count} 个标签页",
    BrowserDisconnected =>
        en: "Back to the isolated browser (it starts on the next browser call); your Chrome keeps running.",
        zh: "已回到隔离浏览器（下次使用浏览器工具时启动）；你的 Chrome 保持运行。",
    BrowserCancelled => en: "Cancelled; the isolated browser is back.", zh: "已取消；已回到隔离浏览器。",
    BrowserFailed => en: "browser: {error}", zh: "浏览器：{error}",
}
