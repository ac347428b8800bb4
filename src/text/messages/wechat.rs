//! The WeChat channel: the QR login, the approval hint, the notice on a reply cut short by the quota and what
//! `status` (and the REPL's `/channel`) says about the saved login.

messages! {
    WechatScanQr =>
        en: "Scan this QR code with WeChat to link paicli:",
        zh: "用微信扫描下面的二维码，连接 paicli：",
    WechatQrLink =>
        en: "If the QR code does not show or scan, open this link instead: {url}",
        zh: "如果二维码无法显示或扫描，请改为打开此链接：{url}",
    WechatScanned =>
        en: "Scanned; confirm the login in WeChat…",
        zh: "已扫码，请在微信中确认登录…",
    WechatQrRefreshed =>
        en: "The QR code expired; here is a new one ({count}/{max}).",
        zh: "二维码已过期，已生成新的二维码（{count}/{max}）。",
    WechatVerifyCode =>
        en: "WeChat shows a verification code; type it here and press Enter:",
        zh: "微信显示了一个验证码，请在此输入并回车：",
    WechatVerifyRejected =>
        en: "The verification code was not accepted.",
        zh: "验证码未被接受。",
    WechatVerifyBlocked =>
        en: "Too many wrong verification codes.",
        zh: "验证码错误次数过多。",
    WechatAlreadyBound =>
        en: "This WeChat bot is already linked to this paicli; the saved login is kept.",
        zh: "该微信机器人已与本 paicli 绑定，保留已保存的登录。",
    WechatLinked =>
        en: "Linked to WeChat. Bound user: {user} (the only sender allowed by default).",
        zh: "已连接微信。绑定用户：{user}（默认唯一允许的发送者）。",
    WechatAskHint =>
        en: "Reply y to approve / n to deny",
        zh: "回复 y 批准 / n 拒绝",
    WechatReplyTruncated =>
        en: "…({count} more characters not sent: the reply limit for this message is reached)",
        zh: "……（还有 {count} 个字符未发送：本条消息的回复次数已用完）",
    WechatNotLinked =>
        en: "Not linked to WeChat: run `paicli channel wechat setup` and scan the QR code.",
        zh: "尚未连接微信：请运行 `paicli channel wechat setup` 并扫描二维码。",
    WechatBoundUser =>
        en: "Bound user: {user} (bot {bot}, linked {since}); only this user is heard by default.",
        zh: "绑定用户：{user}（机器人 {bot}，连接于 {since}）；默认只接收此用户的消息。",
    WechatAlsoAllowed =>
        en: "Also allowed ([channels.wechat] allow_from): {ids}",
        zh: "另外允许（[channels.wechat] allow_from）：{ids}",
    WechatActive => en: "The account is active.", zh: "账号正常。",
    WechatPausedStatus =>
        en: "The account is paused ({detail}); run `paicli channel wechat setup` again to log in.",
        zh: "账号已暂停（{detail}）；请重新运行 `paicli channel wechat setup` 登录。",
    WechatCursorSaved =>
        en: "A message cursor is saved: the next start resumes where the last one stopped.",
        zh: "已保存消息游标：下次启动从上次停止处继续。",
    WechatNoCursor =>
        en: "No message cursor is saved yet.",
        zh: "尚未保存消息游标。",
    WechatReplLogin =>
        en: "wechat login: bound user {user}. {state} {cursor}",
        zh: "微信登录：绑定用户 {user}。{state}{cursor}",
}
