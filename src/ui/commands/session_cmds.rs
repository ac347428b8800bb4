//! `/help`, `/exit`, `/clear`, `/cancel`, `/init`.

use super::{COMMANDS, Flow};
use crate::ui::i18n::{Lang, Msg};
use crate::ui::repl::Session;

/// The task `/init` gives the agent.
pub const INIT_PROMPT: &str = "\
Create a PAI.md file at the project root that helps a coding agent work in this project. Explore first (list the \
root, read the build files, README and main entry points), then write PAI.md with write_file. Keep it under 80 \
lines with these sections: Overview (what the project is, main languages and frameworks); Layout (key directories \
and files); Build, test and run (exact commands); Conventions (code style, naming, error handling, testing \
patterns you observed); Pitfalls (anything surprising). Only state what you verified in the files.";

pub(super) fn help(session: &mut Session, _args: &str) -> Flow {
    let style = session.surface().style;
    let mut lines = vec![style.bold(session.tr(Msg::CommandsHeading))];
    let labels: Vec<String> = COMMANDS
        .iter()
        .map(|c| {
            let label = label(c.name, c.aliases);
            if c.usage.is_empty() {
                label
            } else {
                format!("{label} {}", c.usage)
            }
        })
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (c, label) in COMMANDS.iter().zip(&labels) {
        let pad = " ".repeat(width - label.chars().count());
        lines.push(format!(
            "  {label}{pad}  {}",
            style.dim(c.help(session.lang))
        ));
    }
    lines.push(String::new());
    lines.push(style.dim(keys_help(session.lang)));
    session.say(&lines.join("\n"));
    Flow::Continue
}

fn label(name: &str, aliases: &[&str]) -> String {
    let mut s = format!("/{name}");
    for a in aliases {
        s.push_str(&format!(" /{a}"));
    }
    s
}

fn keys_help(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "Keys: ESC or Ctrl-C stops a running task · Ctrl-C twice or Ctrl-D exits · Alt-Enter or a trailing \\ \
             for a new line · Tab completes /commands and @paths · Shift+Tab cycles the approval mode"
        }
        Lang::Zh => {
            "按键：ESC 或 Ctrl-C 停止运行中的任务 · 连按两次 Ctrl-C 或 Ctrl-D 退出 · Alt-Enter 或行尾 \\ 换行 · \
             Tab 补全 /命令 和 @路径 · Shift+Tab 切换审批模式"
        }
    }
}

pub(super) fn exit(_session: &mut Session, _args: &str) -> Flow {
    Flow::Exit
}

pub(super) fn clear(session: &mut Session, _args: &str) -> Flow {
    session.agent.clear_history();
    session.say(session.tr(Msg::HistoryCleared));
    Flow::Continue
}

/// Between tasks there is nothing to cancel; during a task ESC and Ctrl-C cancel it.
pub(super) fn cancel(session: &mut Session, _args: &str) -> Flow {
    session.say(session.tr(Msg::NoRunningTask));
    Flow::Continue
}

pub(super) fn init(session: &mut Session, args: &str) -> Flow {
    let force = args.split_whitespace().any(|a| a == "--force" || a == "-f");
    if !force && session.config.project_root.join("PAI.md").exists() {
        session.say(session.tr(Msg::InitExists));
        return Flow::Continue;
    }
    Flow::RunTask(INIT_PROMPT.to_string())
}
