//! Agent Skills and commands from files (`/skill`).

messages! {
    SkillsHeading =>
        en: "skills (a later layer replaces a skill of the same name):",
        zh: "技能（后面的层会替换同名技能）：",
    SkillsSkippedHeading => en: "skipped:", zh: "已跳过：",
    SkillsNone => en: "no skills found", zh: "未找到技能",
    SkillsCatalogLeftOut =>
        en: "the system prompt lists {listed} skills; {count} more are left out (at most 20 skills / 4 KB)",
        zh: "系统提示列出了 {listed} 个技能；另有 {count} 个未列出（最多 20 个技能 / 4 KB）",
    SkillOn => en: "on", zh: "开",
    SkillOff => en: "off", zh: "关",
    SkillUsage =>
        en: "usage: /skill [list|show <name>|on <name>|off <name>|reload]",
        zh: "用法：`/skill [list|show <名称>|on <名称>|off <名称>|reload]`",
    SkillUnknown =>
        en: "no skill named `{name}`; /skill list shows them",
        zh: "没有名为 `{name}` 的技能；`/skill list` 可列出全部",
    SkillSwitchedOn =>
        en: "skill `{name}` is on (saved in {path}); the system prompt lists it from the next request",
        zh: "技能 `{name}` 已开启（保存在 {path}）；从下一次请求起系统提示会列出它",
    SkillSwitchedOff =>
        en: "skill `{name}` is off (saved in {path}); the system prompt no longer lists it",
        zh: "技能 `{name}` 已关闭（保存在 {path}）；系统提示不再列出它",
    SkillNotSaved => en: "could not save the change: {error}", zh: "无法保存更改：{error}",
    SkillsReloaded =>
        en: "skills reloaded: {on} on, {skipped} skipped; the system prompt lists them from the next request",
        zh: "技能已重新加载：{on} 个开启，{skipped} 个跳过；从下一次请求起系统提示会列出它们",
    SkillShowFiles => en: "folder:", zh: "文件夹：",
    SkillSkippedNotice =>
        en: "skill {path} skipped: {problem} (/skill list)",
        zh: "已跳过技能 {path}：{problem}（`/skill list`）",
    CustomCommandsHeading => en: "Commands from files", zh: "来自文件的命令",
    CustomCommandDefaultHelp => en: "sends {file} as your message", zh: "把 {file} 作为你的消息发送",
    CustomCommandShadows =>
        en: "command file {path} is ignored: /{name} is a built-in command",
        zh: "已忽略命令文件 {path}：/{name} 是内置命令",
    CustomCommandSkipped =>
        en: "command file {path} skipped: {problem}",
        zh: "已跳过命令文件 {path}：{problem}",
}
