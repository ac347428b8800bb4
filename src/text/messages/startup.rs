//! Starting paicli: the flags, the task of `-p`, project trust, project instructions and the settings and
//! instruction files that were refused or cut.

messages! {
    TrustNextSession =>
        en: "the settings ignored at start-up apply from the next session",
        zh: "启动时被忽略的设置将从下一次会话起生效",
    StartNoCwd => en: "cannot read the current directory: {error}", zh: "无法读取当前目录：{error}",
    StartConfig => en: "{error}", zh: "配置有误：{error}",
    StartSetup => en: "{error}", zh: "无法启动：{error}",
    StartTrust => en: "cannot write the project trust file: {error}", zh: "无法写入项目信任文件：{error}",
    StartEmptyTask =>
        en: "the task is empty: pass it as paicli -p \"task\" or on stdin with paicli -p -",
        zh: "任务为空：用 paicli -p \"任务\" 传入，或通过标准输入 paicli -p -",
    StartNoTask =>
        en: "no task given: pass it as paicli -p \"task\" or pipe it to paicli -p -",
        zh: "没有给出任务：用 paicli -p \"任务\" 传入，或通过管道传给 paicli -p -",
    StartStdin => en: "cannot read the task from stdin: {error}", zh: "无法从标准输入读取任务：{error}",
    StartRuntime => en: "cannot start the async runtime: {error}", zh: "无法启动异步运行时：{error}",
    StartBadFlag => en: "{error}", zh: "命令行参数有误（paicli --help 查看用法）：{error}",
    StartBadApproval => en: "{error}", zh: "审批模式无效：{error}",
    OneShotFailed => en: "{error}", zh: "模型请求失败：{error}",
    RefusedUserOnly =>
        en: "ignored `{key}` in {file}: a project's own files may not set it; set it in $PAICLI_HOME/config.toml, \
             the environment or a flag",
        zh: "已忽略 {file} 中的 `{key}`：项目自己的文件不能设置它；请在 $PAICLI_HOME/config.toml、环境变量或命令行参数中\
             设置",
    RefusedNeedsTrust =>
        en: "ignored `{key}` in {file}: used only once you trust this project (paicli --trust-project, or /trust)",
        zh: "已忽略 {file} 中的 `{key}`：只有信任此项目后才会使用（paicli --trust-project，或 /trust）",
    RefusedNeedsOwnKey =>
        en: "ignored `{key}` in {file}: a project may not send your API key to an endpoint it chose; put its key in \
             the same file, or trust the project (paicli --trust-project, or /trust)",
        zh: "已忽略 {file} 中的 `{key}`：项目不能把你的 API 密钥发往它指定的地址；请在同一文件中提供密钥，\
             或信任此项目（paicli --trust-project，或 /trust）",
    RefusedLoosens =>
        en: "ignored `{key}` in {file}: a project may only tighten this setting",
        zh: "已忽略 {file} 中的 `{key}`：项目只能收紧此设置",
    ProjectTrusted =>
        en: "trusted {root}: its .paicli/config.toml and .env may set provider endpoints and language servers until \
             they change",
        zh: "已信任 {root}：在其 .paicli/config.toml 和 .env 改变之前，它们可以设置模型地址和语言服务器",
    TrustFailed => en: "cannot write the project trust file: {error}", zh: "无法写入项目信任文件：{error}",
    InitExists =>
        en: "PAI.md already exists; run /init --force to regenerate it",
        zh: "PAI.md 已存在；用 /init --force 重新生成",
    InitFound => en: "project instructions found: {files}", zh: "找到的项目说明文件：{files}",
    InitFoundNone =>
        en: "no project instructions found (AGENTS.md, CLAUDE.md, PAI.md, .paicli/PAI.md)",
        zh: "未找到项目说明文件（AGENTS.md、CLAUDE.md、PAI.md、.paicli/PAI.md）",
    FileRefusedMissing => en: "did not read {file}: it does not exist", zh: "未读取 {file}：文件不存在",
    FileRefusedLinkOut =>
        en: "did not read {file}: it lies outside {base} (a symbolic link or `..` leads out of it)",
        zh: "未读取 {file}：它位于 {base} 之外（符号链接或 `..` 指向了外面）",
    FileRefusedNotRegular =>
        en: "did not read {file}: it is not a regular file",
        zh: "未读取 {file}：它不是普通文件",
    FileRefusedTooLarge =>
        en: "did not read {file}: it is larger than {cap} bytes",
        zh: "未读取 {file}：它超过 {cap} 字节",
    FileRefusedNotUtf8 =>
        en: "did not read {file}: it is not UTF-8 text",
        zh: "未读取 {file}：它不是 UTF-8 文本",
    FileRefusedUnreadable => en: "did not read {file}: {error}", zh: "未读取 {file}：{error}",
    FileCut =>
        en: "read only the first {cap} bytes of {file}; the rest was left out",
        zh: "只读取了 {file} 的前 {cap} 字节，其余部分已略去",
    SpillFolderLinked =>
        en: "large tool outputs are not saved in {file}: it is a symbolic link or lies behind one, which paicli \
             does not follow; they are cut instead",
        zh: "大型工具输出不会保存到 {file}：它是符号链接或位于符号链接之后，paicli 不会跟随；输出将被截断",
}
