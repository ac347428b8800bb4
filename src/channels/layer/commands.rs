//! What a person can type in a chat besides a task: the chat commands (one table drives help and parsing) and the
//! answers to a question.

use crate::text::{Lang, Msg, tr};

/// A chat command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatCommand {
    Help,
    Status,
    /// Cancels the running task (like ESC) and drops the queued messages.
    Stop,
    Clear,
    Compact,
    /// Shows the approval mode, or switches it (`ask` or `plan`).
    Mode(Option<String>),
    Pause,
    Resume,
    Unknown(String),
}

/// One row of the command table.
struct CommandRow {
    name: &'static str,
    usage: &'static str,
    help: Msg,
}

const COMMANDS: &[CommandRow] = &[
    CommandRow {
        name: "help",
        usage: "",
        help: Msg::ChannelCmdHelp,
    },
    CommandRow {
        name: "status",
        usage: "",
        help: Msg::ChannelCmdStatus,
    },
    CommandRow {
        name: "stop",
        usage: "",
        help: Msg::ChannelCmdStop,
    },
    CommandRow {
        name: "clear",
        usage: "",
        help: Msg::ChannelCmdClear,
    },
    CommandRow {
        name: "compact",
        usage: "",
        help: Msg::ChannelCmdCompact,
    },
    CommandRow {
        name: "mode",
        usage: " [ask|plan]",
        help: Msg::ChannelCmdMode,
    },
    CommandRow {
        name: "pause",
        usage: "",
        help: Msg::ChannelCmdPause,
    },
    CommandRow {
        name: "resume",
        usage: "",
        help: Msg::ChannelCmdResume,
    },
];

/// The command `text` spells, when it starts with `/`.
pub fn parse_command(text: &str) -> Option<ChatCommand> {
    let rest = text.trim().strip_prefix('/')?;
    let mut words = rest.split_whitespace();
    let name = words.next().unwrap_or_default().to_ascii_lowercase();
    // Telegram appends the bot's name in groups: `/stop@paicli_bot`.
    let name = name.split('@').next().unwrap_or_default().to_string();
    let command = match name.as_str() {
        "help" | "start" => ChatCommand::Help,
        "status" => ChatCommand::Status,
        "stop" => ChatCommand::Stop,
        "clear" => ChatCommand::Clear,
        "compact" => ChatCommand::Compact,
        "mode" => ChatCommand::Mode(words.next().map(str::to_string)),
        "pause" => ChatCommand::Pause,
        "resume" => ChatCommand::Resume,
        _ => ChatCommand::Unknown(name),
    };
    Some(command)
}

/// A yes or no to the pending question: `y`/`yes`/`是`/`好` or `n`/`no`/`否`/`不`.
pub fn parse_answer(text: &str) -> Option<bool> {
    let word = text.trim().trim_end_matches(['.', '!', '。', '！']);
    match word.to_lowercase().as_str() {
        "y" | "yes" | "是" | "好" | "批准" => Some(true),
        "n" | "no" | "否" | "不" | "拒绝" => Some(false),
        _ => None,
    }
}

/// The `/help` text.
pub fn help_text(lang: Lang) -> String {
    let mut text = tr(lang, Msg::ChannelHelpIntro).to_string();
    for row in COMMANDS {
        text.push_str(&format!(
            "\n/{}{} — {}",
            row.name,
            row.usage,
            tr(lang, row.help)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_answers_are_read_as_people_type_them() {
        assert_eq!(parse_command(" /STOP "), Some(ChatCommand::Stop));
        assert_eq!(parse_command("/stop@paicli_bot"), Some(ChatCommand::Stop));
        assert_eq!(
            parse_command("/mode plan"),
            Some(ChatCommand::Mode(Some("plan".into())))
        );
        assert_eq!(parse_command("/mode"), Some(ChatCommand::Mode(None)));
        assert_eq!(
            parse_command("/frobnicate"),
            Some(ChatCommand::Unknown("frobnicate".into()))
        );
        assert_eq!(parse_command("fix the tests"), None);
        assert_eq!(parse_answer("Y"), Some(true));
        assert_eq!(parse_answer("是"), Some(true));
        assert_eq!(parse_answer("否。"), Some(false));
        assert_eq!(parse_answer("no"), Some(false));
        assert_eq!(parse_answer("yes, but first"), None);
    }

    #[test]
    fn help_lists_every_command_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let help = help_text(lang);
            for row in COMMANDS {
                assert!(help.contains(&format!("/{}", row.name)), "{help}");
            }
        }
    }
}
