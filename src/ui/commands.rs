//! Slash commands: ONE table (name, aliases, help, whether allowed while a task runs, handler). Help, completion
//! and dispatch all read it; commands from other features add their row here. An unknown `/x` is an error with a
//! suggestion and is never sent to the model.

mod export;
mod info;
mod model;
mod session_cmds;

use crate::ui::i18n::{Lang, Msg};
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
    /// Whether it may run while a task is running (the REPL reads commands only between tasks today).
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

/// Every slash command, in help order.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["?"],
        usage: "",
        help: ["show commands and keys", "显示命令和按键"],
        while_running: true,
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
        usage: "",
        help: [
            "show the effective configuration and where each value came from",
            "显示生效配置及来源",
        ],
        while_running: true,
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
        while_running: true,
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
        while_running: true,
        handler: info::cost,
    },
    Command {
        name: "export",
        aliases: &[],
        usage: "",
        help: [
            "save the conversation as Markdown under $PAICLI_HOME/exports",
            "把对话导出为 Markdown",
        ],
        while_running: false,
        handler: export::export,
    },
    Command {
        name: "init",
        aliases: &[],
        usage: "[--force]",
        help: ["generate PAI.md for this project", "为本项目生成 PAI.md"],
        while_running: false,
        handler: session_cmds::init,
    },
];

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

/// The closest command name to a mistyped one, when it is close enough to be a likely typo.
pub fn suggest(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .map(|candidate| {
            let prefix = candidate.starts_with(&name) || name.starts_with(candidate);
            let distance = if prefix {
                0
            } else {
                strsim::damerau_levenshtein(&name, candidate)
            };
            (distance, candidate)
        })
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c)
}

/// Runs `input` if it is a slash command; `None` means it is a task for the model.
pub fn dispatch(session: &mut Session, input: &str) -> Option<Flow> {
    let (name, args) = parse(input)?;
    match find(name) {
        Some(command) => Some((command.handler)(session, args)),
        None => {
            let mut message = format!("{} /{name}", session.tr(Msg::UnknownCommand));
            if let Some(s) = suggest(name) {
                message.push_str(&format!("; {} /{s}?", session.tr(Msg::DidYouMean)));
            }
            message.push_str(" (/help)");
            session.say_error(&message);
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
        assert!(find("nope").is_none());
    }

    #[test]
    fn typos_get_a_suggestion() {
        assert_eq!(suggest("modle"), Some("model"));
        assert_eq!(suggest("hepl"), Some("help"));
        assert_eq!(suggest("xyzzy"), None);
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
