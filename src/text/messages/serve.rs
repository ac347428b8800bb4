//! `paicli serve`: the runtime API's start-up lines.

messages! {
    ServeNoApiKey =>
        en: "PAICLI_RUNTIME_API_KEY is not set: `paicli serve` needs a key that every request presents as \
             `Authorization: Bearer <key>`",
        zh: "未设置 PAICLI_RUNTIME_API_KEY：`paicli serve` 需要一个密钥，每个请求以 `Authorization: Bearer <密钥>` 出\
             示",
    ServeNotLoopback =>
        en: "refusing to listen on {addr}: the runtime API can run commands, so it listens on 127.0.0.1 only unless \
             --unsafe-bind is given",
        zh: "拒绝在 {addr} 上监听：运行时 API 可以执行命令，因此除非给出 --unsafe-bind，只监听 127.0.0.1",
    ServeCannotBind => en: "cannot listen on {addr}: {error}", zh: "无法在 {addr} 上监听：{error}",
    ServeStopped => en: "the runtime API stopped: {error}", zh: "运行时 API 已停止：{error}",
    ServeListening =>
        en: "runtime API listening on {url} (Ctrl-C stops it)",
        zh: "运行时 API 正在 {url} 上监听（Ctrl-C 停止）",
}
