//! The WeChat channel: the QR login, the approval hint and the notice on a reply cut short by the quota.

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
}
