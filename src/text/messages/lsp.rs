//! Language servers and the diagnostics they report (`/lsp`, `/diagnostics`).

messages! {
    DiagnosticsOff =>
        en: "diagnostics are off ([lsp] enabled = false)",
        zh: "诊断已关闭（[lsp] enabled = false）",
    DiagnosticsTitle => en: "diagnostics shown to the model", zh: "已告知模型的诊断",
    LspHeading => en: "Language servers:", zh: "语言服务器：",
    LspNotStarted => en: "installed, not started", zh: "已安装，未启动",
    LspStarting => en: "starting", zh: "启动中",
    LspRunning => en: "running", zh: "运行中",
    LspFailed => en: "failed: {reason}", zh: "失败：{reason}",
    LspNotInstalled => en: "not installed", zh: "未安装",
    LspStarts => en: "(started {count} times)", zh: "（已启动 {count} 次）",
    LspNoProblems => en: "No problems in the files checked so far.", zh: "已检查的文件中没有发现问题。",
    LspProblems => en: "Problems in the files checked so far:", zh: "已检查的文件中发现的问题：",
    SeverityError => en: "error", zh: "错误",
    SeverityWarning => en: "warning", zh: "警告",
    SeverityInfo => en: "info", zh: "提示",
}
