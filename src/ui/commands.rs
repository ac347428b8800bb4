//! Slash commands: ONE table (name, aliases, help, whether allowed while a task runs, handler). Help, completion
//! and dispatch all read it; commands from other features add their row here. An unknown `/x` is an error with a
//! suggestion and is never sent to the model.

mod browser_cmds;
mod channel_view;
mod control_view;
pub mod custom;
mod export;
mod help;
mod hooks_cmds;
mod index_cmds;
mod info;
mod lsp_view;
mod memory_cmds;
mod model;
mod plan_cmds;
mod resume_cmds;
mod safety_cmds;
mod sandbox_view;
mod services_cmds;
mod session_cmds;
mod skill_cmds;
mod snapshot_cmds;
mod suggest;
mod task_cmds;
mod trust;

pub use memory_cmds::{SaveRequest, entry_line, parse_save};
pub use plan_cmds::prompt_for;
pub use safety_cmds::{audit_line, cycle_mode, mode_line, mode_name, next_mode};
pub use services_cmds::mcp_line;
pub use suggest::suggest;

use crate::text::{Lang, Msg, labelled, trf};
use crate::ui::repl::Session;

/// What the REPL does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Back to the prompt.
    Continue,
    /// Leave the REPL.
    Exit,
    /// Run this prompt as a task through the agent (e.g. `/init`).
    RunTask(String),
    /// Send this text as the user's own message (a custom command from a file): `@path` mentions expand.
    SendAsUser(String),
}

/// A command handler: the session and the text after the command name (trimmed).
pub type Handler = fn(&mut Session, &str) -> Flow;

/// One slash command.
pub struct Command {
    /// Name without the slash.
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// Arguments, for help (`[list|<model>]`).
    pub usage: &'static str,
    /// One line of help in English and Chinese.
    pub help: [&'static str; 2],
    /// Whether it runs at once when typed while a task runs (the keyboard owner runs it: only `/cancel`, which
    /// `ui::keyboard` carries out); every other command typed then waits for the task to end, and says so.
    pub while_running: bool,
    pub handler: Handler,
}

impl Command {
    /// The help line in `lang`.
    pub fn help(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.help[0],
            Lang::Zh => self.help[1],
        }
    }
}

/// Whether `line` is a command that runs while a task runs (see [`Command::while_running`]).
pub fn runs_while_running(line: &str) -> bool {
    let name = line
        .strip_prefix('/')
        .and_then(|rest| rest.split_whitespace().next());
    name.is_some_and(|name| {
        COMMANDS
            .iter()
            .any(|c| c.while_running && (c.name == name || c.aliases.contains(&name)))
    })
}

/// Every slash command, in help order.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["?"],
        usage: "",
        help: ["show commands and keys", "显示命令和按键"],
        while_running: false,
        handler: session_cmds::help,
    },
    Command {
        name: "exit",
        aliases: &["quit"],
        usage: "",
        help: ["leave paicli", "退出 paicli"],
        while_running: false,
        handler: session_cmds::exit,
    },
    Command {
        name: "clear",
        aliases: &[],
        usage: "",
        help: [
            "start a new conversation (forget the history)",
            "开始新对话（清空历史）",
        ],
        while_running: false,
        handler: session_cmds::clear,
    },
    Command {
        name: "cancel",
        aliases: &[],
        usage: "",
        help: [
            "cancel the running task (ESC does the same)",
            "取消正在运行的任务（同 ESC）",
        ],
        while_running: true,
        handler: session_cmds::cancel,
    },
    Command {
        name: "model",
        aliases: &[],
        usage: "[list | [provider] model] [--save]",
        help: [
            "show, list or switch the model; --save makes it the default",
            "显示、列出或切换模型；--save 保存为默认",
        ],
        while_running: false,
        handler: model::model,
    },
    Command {
        name: "config",
        aliases: &[],
        usage: "[filter]",
        help: [
            "show the effective configuration and where each value came from; with a filter, what each key does",
            "显示生效配置及来源；带过滤词时显示各项说明",
        ],
        while_running: false,
        handler: info::config,
    },
    Command {
        name: "context",
        aliases: &["ctx"],
        usage: "",
        help: [
            "what fills the context window (estimated tokens)",
            "上下文占用（估算 token）",
        ],
        while_running: false,
        handler: info::context,
    },
    Command {
        name: "cost",
        aliases: &[],
        usage: "",
        help: [
            "tokens used and estimated cost of this session",
            "本会话的 token 用量和估算费用",
        ],
        while_running: false,
        handler: info::cost,
    },
    Command {
        name: "export",
        aliases: &[],
        usage: "[id]",
        help: [
            "save the conversation (or the recorded session `id`) as Markdown under $PAICLI_HOME/exports",
            "把对话（或已记录的会话 `id`）导出为 Markdown",
        ],
        while_running: false,
        handler: export::export,
    },
    Command {
        name: "sessions",
        aliases: &[],
        usage: "",
        help: [
            "this project's recorded sessions (newest first; * marks this one)",
            "本项目已记录的会话（最新的在前；* 为当前会话）",
        ],
        while_running: false,
        handler: resume_cmds::sessions,
    },
    Command {
        name: "resume",
        aliases: &[],
        usage: "[id]",
        help: [
            "continue a recorded session of this project (without an id: pick from a list)",
            "继续本项目一个已记录的会话（不带 id 时从列表中选择）",
        ],
        while_running: false,
        handler: resume_cmds::resume,
    },
    Command {
        name: "fork",
        aliases: &[],
        usage: "",
        help: [
            "continue this conversation as a new session; the current one stays as it is",
            "以新会话继续当前对话；当前会话保持不变",
        ],
        while_running: false,
        handler: resume_cmds::fork,
    },
    Command {
        name: "history",
        aliases: &[],
        usage: "clear",
        help: [
            "delete this project's other recorded sessions (asks first; input history is kept)",
            "删除本项目其他已记录的会话（先询问；输入历史保留）",
        ],
        while_running: false,
        handler: resume_cmds::history,
    },
    Command {
        name: "init",
        aliases: &[],
        usage: "[--force]",
        help: ["generate PAI.md for this project", "为本项目生成 PAI.md"],
        while_running: false,
        handler: session_cmds::init,
    },
    Command {
        name: "compact",
        aliases: &[],
        usage: "[focus]",
        help: [
            "summarize the conversation so far to free context (optional focus for the summary)",
            "压缩对话以释放上下文（可指定摘要重点）",
        ],
        while_running: false,
        handler: services_cmds::compact,
    },
    Command {
        name: "mode",
        aliases: &[],
        usage: "[ask|auto|plan|full]",
        help: [
            "show or switch the approval mode (Shift+Tab cycles)",
            "显示或切换审批模式（Shift+Tab 循环切换）",
        ],
        while_running: false,
        handler: safety_cmds::mode,
    },
    Command {
        name: "hitl",
        aliases: &[],
        usage: "[on|default]",
        help: [
            "human in the loop: on = ask mode, default = auto mode",
            "人工审批：on = ask 模式，default = auto 模式",
        ],
        while_running: false,
        handler: safety_cmds::hitl,
    },
    Command {
        name: "policy",
        aliases: &[],
        usage: "",
        help: [
            "the approval mode, allow/deny rules, session approvals and guards",
            "审批模式、允许/拒绝规则、本会话批准和防护",
        ],
        while_running: false,
        handler: safety_cmds::policy,
    },
    Command {
        name: "audit",
        aliases: &[],
        usage: "[N]",
        help: [
            "the latest N audit log entries (default 10)",
            "最近 N 条审计记录（默认 10）",
        ],
        while_running: false,
        handler: safety_cmds::audit,
    },
    Command {
        name: "memory",
        aliases: &["mem"],
        usage: "[list|search <q>|delete <id>|verify <id>|replace <id> <fact>|clear]",
        help: ["show and manage long-term memory", "查看和管理长期记忆"],
        while_running: false,
        handler: memory_cmds::memory,
    },
    Command {
        name: "save",
        aliases: &[],
        usage: "[--global|--project] [--force] <fact>",
        help: [
            "remember a fact across sessions (project by default)",
            "跨会话记住一条事实（默认本项目）",
        ],
        while_running: false,
        handler: memory_cmds::save,
    },
    Command {
        name: "trust",
        aliases: &[],
        usage: "",
        help: [
            "trust this project's .paicli/config.toml and .env with provider endpoints and language servers",
            "信任此项目的 .paicli/config.toml 和 .env，允许其设置模型地址和语言服务器",
        ],
        while_running: false,
        handler: trust::trust,
    },
    Command {
        name: "hooks",
        aliases: &[],
        usage: "",
        help: [
            "every hook: event, matcher, command, file, and whether it runs (project hooks need /trust)",
            "全部钩子：事件、匹配器、命令、所在文件，以及是否运行（项目钩子需 /trust）",
        ],
        while_running: false,
        handler: hooks_cmds::hooks,
    },
    Command {
        name: "mcp",
        aliases: &[],
        usage: "[logs|approve|restart|disable|enable|resources|prompts <name>]",
        help: [
            "MCP servers: state and tools; stderr logs, approve a project server, restart, disable or enable \
             one for this session, list its resources or prompts",
            "MCP 服务器：状态和工具；stderr 日志、批准项目服务器、重启、本次会话禁用或启用、列出资源或提示模板",
        ],
        while_running: false,
        handler: services_cmds::mcp,
    },
    Command {
        name: "lsp",
        aliases: &[],
        usage: "",
        help: [
            "language servers and the problems the last checks found",
            "语言服务器及最近检查发现的问题",
        ],
        while_running: false,
        handler: services_cmds::lsp,
    },
    Command {
        name: "snapshot",
        aliases: &[],
        usage: "[status|clean]",
        help: [
            "the project's file snapshots (time, label, changed files, store size); clean removes them",
            "项目文件快照（时间、标签、改动文件数、占用空间）；clean 删除全部",
        ],
        while_running: false,
        handler: snapshot_cmds::snapshot,
    },
    Command {
        name: "restore",
        aliases: &[],
        usage: "N",
        help: [
            "put the files back as in snapshot N of /snapshot (undo with /restore 2)",
            "把文件恢复为 /snapshot 中第 N 个快照（/restore 2 可撤销）",
        ],
        while_running: false,
        handler: snapshot_cmds::restore,
    },
    Command {
        name: "rewind",
        aliases: &[],
        usage: "",
        help: [
            "go back to before an earlier message: code, conversation or both (Esc Esc at an empty prompt)",
            "回到早先某条消息之前：代码、对话或两者（空输入时按两次 Esc）",
        ],
        while_running: false,
        handler: snapshot_cmds::rewind,
    },
    Command {
        name: "skill",
        aliases: &["skills"],
        usage: "[list|show|on|off|reload]",
        help: [
            "list skills (layer, path, why skipped), show one, switch one on or off, reload them",
            "列出技能（层、路径、跳过原因），查看、开关或重新加载技能",
        ],
        while_running: false,
        handler: skill_cmds::skill,
    },
    Command {
        name: "index",
        aliases: &[],
        usage: "[path|status]",
        help: [
            "index the project's code for search_code (or only under path); status shows what is indexed",
            "为 search_code 索引项目代码（或仅索引 path 之下）；status 显示索引情况",
        ],
        while_running: false,
        handler: index_cmds::index_cmd,
    },
    Command {
        name: "search",
        aliases: &[],
        usage: "<query>",
        help: [
            "search the code index as search_code does (words or identifiers)",
            "像 search_code 一样搜索代码索引（自然语言或标识符）",
        ],
        while_running: false,
        handler: index_cmds::search,
    },
    Command {
        name: "graph",
        aliases: &[],
        usage: "<Symbol>",
        help: [
            "where a symbol is defined, what it contains, extends and implements, who calls it and what it calls",
            "符号的定义位置、包含、继承与实现、调用者及其调用",
        ],
        while_running: false,
        handler: index_cmds::graph,
    },
    Command {
        name: "task",
        aliases: &[],
        usage: "[list|add <text>|log <id>|cancel <id>]",
        help: [
            "background tasks of this project: at most 2 run at once, never asking (calls that need you are denied)",
            "本项目的后台任务：最多同时运行 2 个，从不询问（需要你批准的调用会被拒绝）",
        ],
        while_running: false,
        handler: task_cmds::task,
    },
    Command {
        name: "channel",
        aliases: &["wechat"],
        usage: "",
        help: [
            "which chat channels (Telegram, WeChat) run, with their pid and log",
            "显示哪些聊天通道（Telegram、微信）在运行，以及 pid 和日志",
        ],
        while_running: false,
        handler: channel_view::channel,
    },
    Command {
        name: "browser",
        aliases: &[],
        usage: "[status|connect [port]|tabs|disconnect]",
        help: [
            "the agent's browser: mode and tabs; connect to your Chrome, or disconnect",
            "智能体的浏览器：模式与标签页；连接你的 Chrome 或断开",
        ],
        while_running: false,
        handler: browser_cmds::browser,
    },
    Command {
        name: "plan",
        aliases: &[],
        usage: "[task|off]",
        help: [
            "plan the task (or the next message), review the plan, run its tasks in parallel",
            "为任务（或下一条消息）制定计划，审阅后并行执行",
        ],
        while_running: false,
        handler: plan_cmds::plan,
    },
    Command {
        name: "team",
        aliases: &[],
        usage: "[task|off]",
        help: [
            "/plan with roles: a planner, two workers, a reviewer passing each step",
            "分角色的 /plan：规划者、两名执行者、逐步把关的审查者",
        ],
        while_running: false,
        handler: plan_cmds::team,
    },
];

/// Prints plain (unstyled) output wrapped at word boundaries to the terminal's width. An indented line (a list
/// entry) continues two cells further in; a line that fits is printed as it is.
fn say_wrapped(session: &Session, text: &str) {
    let width = session.surface().width;
    let lines: Vec<String> = text
        .split('\n')
        .flat_map(|line| {
            let lead = line.len() - line.trim_start_matches(' ').len();
            let indent = if lead > 0 { lead + 2 } else { 0 };
            crate::ui::render::wrap_hanging(line, width, indent)
        })
        .collect();
    session.say(&lines.join("\n"));
}

/// Prints an error sentence in red, wrapped at word boundaries (colour added after wrapping).
fn say_error(session: &Session, text: &str) {
    let surface = session.surface();
    let sentence = labelled(session.lang, Msg::ErrorPrefix, text);
    let lines: Vec<String> = crate::ui::render::wrap_hanging(&sentence, surface.width, 2)
        .iter()
        .map(|l| surface.style.red(l))
        .collect();
    session.say(&lines.join("\n"));
}

/// Splits `/name args` into the name and the trimmed arguments. Input like `/usr/bin/env is broken` (a path) is
/// not a command.
pub fn parse(input: &str) -> Option<(&str, &str)> {
    let rest = input.strip_prefix('/')?;
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '?');
    valid.then(|| (name, args.trim()))
}

/// The command called `name` or with that alias.
pub fn find(name: &str) -> Option<&'static Command> {
    let name = name.to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name.as_str()))
}

/// Runs `input` if it is a slash command; `None` means it is a task for the model.
pub fn dispatch(session: &mut Session, input: &str) -> Option<Flow> {
    let (name, args) = parse(input)?;
    match find(name) {
        Some(command) => Some((command.handler)(session, args)),
        None if session.custom_commands.get(name).is_some() => session
            .custom_commands
            .get(name)
            .map(|c| Flow::SendAsUser(c.expand(args))),
        None => {
            let message = match suggest(name) {
                Some(s) => trf(
                    session.lang,
                    Msg::UnknownCommandSuggest,
                    &[("name", &name), ("suggestion", &s)],
                ),
                None => trf(session.lang, Msg::UnknownCommandPlain, &[("name", &name)]),
            };
            say_error(session, &message);
            Some(Flow::Continue)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_but_paths_do_not() {
        assert_eq!(parse("/model list"), Some(("model", "list")));
        assert_eq!(parse("/help"), Some(("help", "")));
        assert_eq!(parse("/usr/bin/env is broken"), None);
        assert_eq!(parse("fix /x"), None);
    }

    #[test]
    fn aliases_find_their_command() {
        assert_eq!(find("quit").map(|c| c.name), Some("exit"));
        assert_eq!(find("ctx").map(|c| c.name), Some("context"));
        assert_eq!(find("mem").map(|c| c.name), Some("memory"));
        assert!(find("nope").is_none());
    }

    #[test]
    fn only_cancel_runs_while_a_task_runs_the_one_the_keyboard_carries_out() {
        let now: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.while_running)
            .map(|c| c.name)
            .collect();
        assert_eq!(now, ["cancel"]);
        assert!(runs_while_running("/cancel"));
        assert!(!runs_while_running("/cost") && !runs_while_running("cancel"));
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = COMMANDS
            .iter()
            .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
