//! What the person hands over besides the text: `@path` mentions, images, pasted and piped input.

messages! {
    MentionSkipped => en: "not attached", zh: "未附加",
    PasteFolded => en: "[pasted {lines} lines #{n}]", zh: "[已粘贴 {lines} 行 #{n}]",
    NoticeMentionsAttached => en: "attached {paths}", zh: "已附加 {paths}",
    ImagesNeedVision =>
        en: "{model} does not take images, so {paths} was not attached; switch to a vision model (/model, --model) \
             or set llm.vision = true if it does take them",
        zh: "{model} 不支持图片，所以没有附加 {paths}；请换用支持图片的模型（/model、--model），如果它其实支持图片，\
             请设置 llm.vision = true",
    NoClipboardImage =>
        en: "no image on the clipboard (Ctrl+V reads it with wl-paste or xclip); attach a file with @image:path",
        zh: "剪贴板里没有图片（Ctrl+V 通过 wl-paste 或 xclip 读取）；可用 @image:路径 附加图片文件",
    PasteNotSaved =>
        en: "the pasted image could not be saved in the project: {error}",
        zh: "粘贴的图片无法保存到项目中：{error}",
    PipedCut =>
        en: "piped input cut at {limit} of {total} characters",
        zh: "管道输入过长，只附加了前 {limit} 个字符（共 {total} 个）",
    PipedBinary =>
        en: "piped input not attached: it is binary ({bytes} bytes); attach images with @path",
        zh: "管道输入未附加：它是二进制数据（{bytes} 字节）；图片请用 @路径 附加",
}
